package io.orderentry.instrument;

import java.util.List;

/**
 * Every instrument's two decimal formats, by instrument index: its prices (ticks of {@link Instrument#priceUnit()} at
 * {@link Instrument#priceScale()} decimals) and its quantities (lots at {@link Instrument#quantityScale()}). Built
 * once from the instruments for whatever renders amounts (the order answers, market data and its checksum), so that
 * they all write an amount the same way.
 *
 * <p>Immutable and thread safe.
 */
public final class DecimalFormats {

    private final DecimalText[] prices;
    private final DecimalText[] quantities;

    /** @param instruments indexed by {@link Instrument#index()} */
    public DecimalFormats(final List<Instrument> instruments) {
        prices = new DecimalText[instruments.size()];
        quantities = new DecimalText[instruments.size()];
        for (final Instrument instrument : instruments) {
            prices[instrument.index()] = new DecimalText(instrument.priceUnit(), instrument.priceScale());
            quantities[instrument.index()] = new DecimalText(instrument.lotSize(), instrument.quantityScale());
        }
    }

    /** @return the format of instrument {@code symbol}'s prices */
    public DecimalText price(final int symbol) {
        return prices[symbol];
    }

    /** @return the format of instrument {@code symbol}'s quantities */
    public DecimalText quantity(final int symbol) {
        return quantities[symbol];
    }
}
