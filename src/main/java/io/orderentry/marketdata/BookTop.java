package io.orderentry.marketdata;

import io.orderentry.engine.Side;
import java.util.function.IntToLongFunction;

/**
 * The best {@link #LEVELS} levels of each side of a book at one sequence: what a book checksum covers.
 * Immutable; safe to share between threads.
 */
public final class BookTop {

    /** Levels per side a checksum covers. */
    public static final int LEVELS = 10;

    private final long[] bidPrices;
    private final long[] bidQuantities;
    private final long[] askPrices;
    private final long[] askQuantities;

    private BookTop(final long[] bidPrices, final long[] bidQuantities, final long[] askPrices,
                    final long[] askQuantities) {
        this.bidPrices = bidPrices;
        this.bidQuantities = bidQuantities;
        this.askPrices = askPrices;
        this.askQuantities = askQuantities;
    }

    /** @return the best levels of the live sides, copied */
    static BookTop of(final L2Side bids, final L2Side asks) {
        final int b = Math.min(LEVELS, bids.levelCount());
        final int a = Math.min(LEVELS, asks.levelCount());
        return new BookTop(copy(b, bids::priceFromBest), copy(b, bids::quantityFromBest),
                copy(a, asks::priceFromBest), copy(a, asks::quantityFromBest));
    }

    /** @return the best levels of a snapshot */
    public static BookTop of(final BookSnapshot book) {
        final int b = Math.min(LEVELS, book.levelCount(Side.BUY));
        final int a = Math.min(LEVELS, book.levelCount(Side.SELL));
        return new BookTop(copy(b, i -> book.price(Side.BUY, i)), copy(b, i -> book.quantity(Side.BUY, i)),
                copy(a, i -> book.price(Side.SELL, i)), copy(a, i -> book.quantity(Side.SELL, i)));
    }

    private static long[] copy(final int count, final IntToLongFunction bestFirst) {
        final long[] values = new long[count];
        for (int i = 0; i < count; i++) {
            values[i] = bestFirst.applyAsLong(i);
        }
        return values;
    }

    /** @return levels held on a side, at most {@link #LEVELS} */
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
}
