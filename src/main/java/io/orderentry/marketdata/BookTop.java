package io.orderentry.marketdata;

import io.orderentry.engine.Side;
import java.util.function.IntToLongFunction;

/**
 * The best {@link #LEVELS} levels of each side of a live book at one sequence, copied for a book update: what its
 * checksum covers (a {@link BookSnapshot} is read in place).
 * Immutable; safe to share between threads.
 */
public final class BookTop implements BookLevels {

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

    private static long[] copy(final int count, final IntToLongFunction bestFirst) {
        final long[] values = new long[count];
        for (int i = 0; i < count; i++) {
            values[i] = bestFirst.applyAsLong(i);
        }
        return values;
    }

    @Override
    public int levelCount(final Side side) {
        return side == Side.BUY ? bidPrices.length : askPrices.length;
    }

    @Override
    public long price(final Side side, final int i) {
        return side == Side.BUY ? bidPrices[i] : askPrices[i];
    }

    @Override
    public long quantity(final Side side, final int i) {
        return side == Side.BUY ? bidQuantities[i] : askQuantities[i];
    }
}
