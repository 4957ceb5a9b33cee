package io.orderentry.engine;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * Each instrument's price band, its {@link MarketBandRule} and its reference: the last trade price, else the mid of
 * the best bid and ask. Read and changed only on the matcher thread.
 *
 * <p>The comparison is exact: with {@code r2} twice the reference, a price {@code p} is inside the band of {@code b}
 * basis points when {@code |2p - r2| <= floor(r2 * b / 10000)}.
 */
final class PriceBands {

    static final int BASIS_POINTS = 10_000;
    /** A reach ({@link BookSide#bestReaches} threshold) that no level reaches. */
    private static final long NOTHING = Long.MAX_VALUE;

    private final OrderBook[] books;
    /** Per instrument: the price band in basis points, 0 for none. */
    private final int[] basisPoints;
    private final MarketBandRule[] rules;
    /** Per instrument: the price of its most recent trade, 0 before the first. */
    private final long[] lastTradePrices;

    /** @param bands per instrument, in basis points, 0 for none; null for no bands at all */
    PriceBands(final OrderBook[] books, final int[] bands) {
        if (bands != null && bands.length != books.length) {
            throw new IllegalArgumentException("one price band per instrument: " + bands.length + " for "
                    + books.length);
        }
        this.books = books;
        this.basisPoints = new int[books.length];
        this.rules = new MarketBandRule[books.length];
        this.lastTradePrices = new long[books.length];
        for (int symbol = 0; symbol < books.length; symbol++) {
            set(symbol, bands == null ? 0 : bands[symbol], MarketBandRule.CURRENT);
        }
    }

    /** @throws IllegalArgumentException on a band outside [0, 10000) basis points or a null rule */
    void set(final int symbol, final int band, final MarketBandRule rule) {
        if (band < 0 || band >= BASIS_POINTS || rule == null) {
            throw new IllegalArgumentException("price band of instrument " + symbol + " must be in [0, "
                    + BASIS_POINTS + ") basis points with a rule: " + band + " " + rule);
        }
        basisPoints[symbol] = band;
        rules[symbol] = rule;
    }

    int basisPoints(final int symbol) {
        return basisPoints[symbol];
    }

    MarketBandRule rule(final int symbol) {
        return rules[symbol];
    }

    long lastTradePrice(final int symbol) {
        return lastTradePrices[symbol];
    }

    /** Records a trade: its price is the instrument's reference from now on. */
    void traded(final int symbol, final long price) {
        lastTradePrices[symbol] = price;
    }

    /** @return true when the instrument has a band and a reference and the price is outside the band */
    boolean outside(final int symbol, final long price) {
        final int band = basisPoints[symbol];
        if (band == 0) {
            return false;
        }
        final long reference = doubledReference(symbol);
        return reference != 0 && Math.abs(2 * price - reference) > doubledWidth(reference, band);
    }

    /**
     * @return the reach ({@link BookSide#bestReaches} threshold) of a MARKET order against {@code opposite}, taken on
     *         its arrival: any price without a band or a reference; else the band's far edge, and under
     *         {@link MarketBandRule#BOTH_EDGES} nothing at all when the best maker is beyond the near edge (makers
     *         come best first, so only the first can be beyond it)
     */
    long marketReach(final int symbol, final BookSide opposite) {
        final int band = basisPoints[symbol];
        final long reference = band == 0 ? 0 : doubledReference(symbol);
        if (reference == 0) {
            return Long.MIN_VALUE;
        }
        final long width = doubledWidth(reference, band);
        if (rules[symbol] == MarketBandRule.BOTH_EDGES && opposite.best() != null
                && Math.abs(2 * opposite.best().price - reference) > width) {
            // the best maker is outside: beyond the far edge nothing could trade anyway, beyond the near one nothing may
            return NOTHING;
        }
        if (opposite.side() == Side.SELL) {
            return opposite.keyOf((reference + width) / 2);   // a BUY: asks at or below the band's top
        }
        final long lowest = (reference - width + 1) / 2;      // a SELL: bids at or above the band's bottom
        return lowest <= 0 ? Long.MIN_VALUE : opposite.keyOf(lowest);
    }

    /** Writes, per instrument: {@code long lastTradePrice} (0: none), {@code int basisPoints}, {@code byte rule}. */
    void writeSnapshot(final DataOutput out) throws IOException {
        for (int symbol = 0; symbol < books.length; symbol++) {
            out.writeLong(lastTradePrices[symbol]);
            out.writeInt(basisPoints[symbol]);
            out.writeByte(rules[symbol].code());
        }
    }

    /**
     * Reads what {@link #writeSnapshot} wrote for {@code symbols} instruments; a snapshot of version 2 has no rule
     * byte, and its bands keep the rule of the build that wrote it, {@link MarketBandRule#FAR_EDGE_ONLY}.
     */
    void restoreSnapshot(final DataInput in, final int symbols, final boolean withRules) throws IOException {
        for (int symbol = 0; symbol < symbols; symbol++) {
            final long price = in.readLong();
            if (price < 0 || price >= PlaceArguments.MAX_PRICE) {
                throw new IOException("engine snapshot: bad last trade price " + price + " of instrument " + symbol);
            }
            final int band = in.readInt();
            if (band < 0 || band >= BASIS_POINTS) {
                throw new IOException("engine snapshot: bad price band " + band + " of instrument " + symbol);
            }
            final MarketBandRule rule = withRules ? MarketBandRule.ofCode(in.readByte()) : MarketBandRule.FAR_EDGE_ONLY;
            if (rule == null) {
                throw new IOException("engine snapshot: unknown price band rule of instrument " + symbol);
            }
            lastTradePrices[symbol] = price;
            set(symbol, band, rule);
        }
    }

    /**
     * The reference price, doubled so that the mid of the book is exact: twice the last trade price, else the best
     * bid plus the best ask, else 0 (no reference).
     */
    private long doubledReference(final int symbol) {
        final long last = lastTradePrices[symbol];
        if (last > 0) {
            return 2 * last;
        }
        final OrderBook book = books[symbol];
        final PriceLevel bid = book.side(Side.BUY).best();
        final PriceLevel ask = book.side(Side.SELL).best();
        return bid == null || ask == null ? 0 : bid.price + ask.price;
    }

    /** @return floor(doubledReference x band / 10,000), the band's half-width in half ticks, without overflow */
    private static long doubledWidth(final long doubledReference, final int band) {
        return doubledReference / BASIS_POINTS * band + doubledReference % BASIS_POINTS * band / BASIS_POINTS;
    }
}
