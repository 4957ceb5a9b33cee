package io.orderentry.engine;

import java.util.Arrays;

/**
 * The price levels of one side of one book, kept in a sorted array with the best level at the end.
 *
 * <p>Levels are ordered by a <em>key</em>: the price for bids and the negated price for asks, so that
 * on both sides a higher key is a better price and the best level is the last one. Most activity is
 * at or near the touch, so inserting, removing and reading the best level touches the end of the
 * array and moves few elements; any other level is found by binary search over a primitive key array.
 *
 * <p>The arrays grow by doubling, up to {@code maxLevels}; beyond that inserting is a bug (the
 * matcher checks the limit before resting). Owned and mutated only by the matcher thread.
 */
final class BookSide {

    private static final int INITIAL_CAPACITY = 16;

    private final int symbol;
    private final Side side;
    private final int maxLevels;
    private long[] keys;
    private PriceLevel[] levels;
    private int count;

    BookSide(final int symbol, final Side side, final int maxLevels) {
        this.symbol = symbol;
        this.side = side;
        this.maxLevels = maxLevels;
        final int capacity = Math.min(INITIAL_CAPACITY, maxLevels);
        this.keys = new long[capacity];
        this.levels = new PriceLevel[capacity];
    }

    int symbol() {
        return symbol;
    }

    Side side() {
        return side;
    }

    int levelCount() {
        return count;
    }

    /** @return the sort key of a price on this side: higher is better */
    long keyOf(final long price) {
        return side == Side.BUY ? price : -price;
    }

    /** @return the best level, or null when the side is empty */
    PriceLevel best() {
        return count == 0 ? null : levels[count - 1];
    }

    /**
     * @param threshold a key of this side ({@link #keyOf}); {@link Long#MIN_VALUE} accepts any price
     * @return true when the best level's key is at least {@code threshold}, i.e. an incoming order
     *         whose limit maps to {@code threshold} would trade with it
     */
    boolean bestReaches(final long threshold) {
        return count != 0 && keys[count - 1] >= threshold;
    }

    /**
     * Sums the quantity at levels whose key is at least {@code threshold}, best first, stopping as
     * soon as {@code wanted} is reached. Reads only.
     *
     * @return the available quantity, capped at (but possibly above) {@code wanted}
     */
    long available(final long threshold, final long wanted) {
        long sum = 0;
        for (int i = count - 1; i >= 0 && sum < wanted && keys[i] >= threshold; i--) {
            sum += levels[i].totalQuantity;
        }
        return sum;
    }

    /** @return the level at this price, or null */
    PriceLevel find(final long price) {
        final int index = indexOf(keyOf(price));
        return index >= 0 ? levels[index] : null;
    }

    /**
     * Inserts a level whose price is not yet on this side.
     *
     * @throws IllegalStateException if the side already holds {@code maxLevels} levels or the price
     *                               is already present (both are bugs in the caller)
     */
    void insert(final PriceLevel level) {
        final long key = keyOf(level.price);
        final int index = indexOf(key);
        if (index >= 0) {
            throw new IllegalStateException("price level already present: " + level.price);
        }
        final int at = -index - 1;
        if (count == keys.length) {
            grow();
        }
        System.arraycopy(keys, at, keys, at + 1, count - at);
        System.arraycopy(levels, at, levels, at + 1, count - at);
        keys[at] = key;
        levels[at] = level;
        count++;
    }

    /** Removes a level that is on this side (normally the best one, which costs no copying). */
    void remove(final PriceLevel level) {
        final int last = count - 1;
        final int index = levels[last] == level ? last : indexOf(keyOf(level.price));
        if (index < 0 || levels[index] != level) {
            throw new IllegalStateException("price level not on this side: " + level.price);
        }
        System.arraycopy(keys, index + 1, keys, index, last - index);
        System.arraycopy(levels, index + 1, levels, index, last - index);
        levels[last] = null;
        count = last;
    }

    /** @return the level at position {@code i} counted from the best (0 is the best level) */
    PriceLevel levelFromBest(final int i) {
        return levels[count - 1 - i];
    }

    /** Visits the levels best first. */
    void forEachLevel(final LevelVisitor visitor) {
        for (int i = count - 1; i >= 0; i--) {
            final PriceLevel level = levels[i];
            visitor.level(level.price, level.totalQuantity, level.orderCount);
        }
    }

    /** Binary search over the keys; the result is encoded as by {@link Arrays#binarySearch(long[], long)}. */
    private int indexOf(final long key) {
        if (count != 0 && keys[count - 1] == key) {
            return count - 1;
        }
        return Arrays.binarySearch(keys, 0, count, key);
    }

    private void grow() {
        if (keys.length >= maxLevels) {
            throw new IllegalStateException("more than " + maxLevels + " price levels on one side");
        }
        final int capacity = (int) Math.min((long) keys.length * 2, maxLevels);
        keys = Arrays.copyOf(keys, capacity);
        levels = Arrays.copyOf(levels, capacity);
    }
}
