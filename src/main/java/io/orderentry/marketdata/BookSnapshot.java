package io.orderentry.marketdata;

import io.orderentry.engine.Side;

/**
 * The whole L2 book of one symbol at one book sequence, immutable: bids and asks aggregated by
 * price, best first. Safe to share between threads; callers must not modify the arrays.
 */
public final class BookSnapshot {

    /** Levels per side a book checksum covers. */
    public static final int CHECKSUM_LEVELS = 10;

    private static final long[] NONE = new long[0];

    private final int symbol;
    private final long sequence;
    private final long[] bidPrices;
    private final long[] bidQuantities;
    private final long[] askPrices;
    private final long[] askQuantities;

    private BookSnapshot(final int symbol, final long sequence, final long[] bidPrices, final long[] bidQuantities,
                         final long[] askPrices, final long[] askQuantities) {
        this.symbol = symbol;
        this.sequence = sequence;
        this.bidPrices = bidPrices;
        this.bidQuantities = bidQuantities;
        this.askPrices = askPrices;
        this.askQuantities = askQuantities;
    }

    /** @return the book of a symbol before anything rested: sequence 0, no levels */
    public static BookSnapshot empty(final int symbol) {
        return new BookSnapshot(symbol, 0, NONE, NONE, NONE, NONE);
    }

    /** @return a copy of both sides as they are now */
    public static BookSnapshot of(final int symbol, final long sequence, final L2Side bids, final L2Side asks) {
        return of(symbol, sequence, bids, asks, Integer.MAX_VALUE);
    }

    /** @return a copy of the best {@link #CHECKSUM_LEVELS} levels of both sides as they are now: what a checksum covers */
    static BookSnapshot top(final int symbol, final long sequence, final L2Side bids, final L2Side asks) {
        return of(symbol, sequence, bids, asks, CHECKSUM_LEVELS);
    }

    private static BookSnapshot of(final int symbol, final long sequence, final L2Side bids, final L2Side asks,
                                   final int depth) {
        final long[] bidPrices = new long[Math.min(depth, bids.levelCount())];
        final long[] bidQuantities = new long[bidPrices.length];
        final long[] askPrices = new long[Math.min(depth, asks.levelCount())];
        final long[] askQuantities = new long[askPrices.length];
        bids.copyBestFirst(bidPrices, bidQuantities);
        asks.copyBestFirst(askPrices, askQuantities);
        return new BookSnapshot(symbol, sequence, bidPrices, bidQuantities, askPrices, askQuantities);
    }

    public int symbol() {
        return symbol;
    }

    /** @return the book sequence of the last update this snapshot includes */
    public long sequence() {
        return sequence;
    }

    /** @return how many levels one side has */
    public int levelCount(final Side side) {
        return side == Side.BUY ? bidPrices.length : askPrices.length;
    }

    /** @return the price of the i-th best level of a side */
    public long price(final Side side, final int i) {
        return side == Side.BUY ? bidPrices[i] : askPrices[i];
    }

    /** @return the quantity of the i-th best level of a side */
    public long quantity(final Side side, final int i) {
        return side == Side.BUY ? bidQuantities[i] : askQuantities[i];
    }

    /** @return a mutable copy of one side, for merging updates into */
    L2Side side(final Side side) {
        return side == Side.BUY ? L2Side.ofBestFirst(side, bidPrices, bidQuantities)
                : L2Side.ofBestFirst(side, askPrices, askQuantities);
    }
}
