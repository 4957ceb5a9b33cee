package io.orderentry.persistence;

import io.orderentry.instrument.Instrument;
import java.util.List;

/**
 * What the database needs of each instrument, by engine symbol number: its name and how to print its
 * ticks and lots as exact decimals at the instrument's scale. Immutable.
 */
final class InstrumentColumns {

    /** One instrument's columns. */
    record Columns(String name, CopyBinary.Units price, CopyBinary.Units quantity) {
    }

    private final Columns[] bySymbol;

    InstrumentColumns(final List<Instrument> instruments) {
        bySymbol = new Columns[instruments.size()];
        for (final Instrument instrument : instruments) {
            bySymbol[instrument.index()] = new Columns(instrument.symbol(), CopyBinary.Units.of(instrument.priceUnit()),
                    CopyBinary.Units.of(instrument.lotSize()));
        }
    }

    /** @return the columns of engine symbol {@code symbol} */
    Columns of(final int symbol) {
        if (symbol < 0 || symbol >= bySymbol.length) {
            throw new IllegalStateException("event for unknown symbol number " + symbol);
        }
        return bySymbol[symbol];
    }
}
