package io.orderentry.marketdata;

import io.orderentry.engine.Side;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;

/**
 * One side of an aggregated (L2) book: the total quantity at each price, kept as sorted primitive
 * arrays. Levels are stored worst first so that changes near the top of the book, the common case,
 * move few elements. No allocation except when the arrays grow.
 *
 * <p>{@link #writeSnapshot}/{@link #restoreSnapshot} save and refill the levels for a restart
 * ({@code int} count, then price and quantity per level, best first), straight from and into the arrays.
 *
 * <p>Not thread safe: owned by one thread (the market data consumer, or an event loop merging a
 * snapshot of its own).
 */
public final class L2Side {

    /** Levels a restore allocates for before it has read them; a longer side grows as it is read. */
    private static final int RESTORE_PREALLOCATED_LEVELS = 1 << 20;

    private final Side side;
    private long[] keys;
    private long[] quantities;
    private int count;

    /**
     * @param capacity initial number of levels held without growing
     */
    public L2Side(final Side side, final int capacity) {
        this.side = side;
        this.keys = new long[Math.max(16, capacity)];
        this.quantities = new long[keys.length];
    }

    /** @return a side holding the given levels, listed best first as in a {@link BookSnapshot} */
    public static L2Side ofBestFirst(final Side side, final long[] prices, final long[] quantities) {
        final L2Side copy = new L2Side(side, prices.length + 16);
        final int n = prices.length;
        for (int i = 0; i < n; i++) {
            copy.keys[n - 1 - i] = copy.keyOf(prices[i]);
            copy.quantities[n - 1 - i] = quantities[i];
        }
        copy.count = n;
        return copy;
    }

    /** @return BUY for bids, SELL for asks */
    public Side side() {
        return side;
    }

    /** @return how many prices have a quantity */
    public int levelCount() {
        return count;
    }

    /** @return the quantity at a price, 0 if there is no level */
    public long quantity(final long price) {
        final int index = Arrays.binarySearch(keys, 0, count, keyOf(price));
        return index >= 0 ? quantities[index] : 0;
    }

    /**
     * Adds to (or, with a negative delta, takes from) the level at a price.
     *
     * @return the level's new quantity; 0 means the level is gone
     * @throws IllegalStateException if the level would go below zero: the events were not applied in order
     */
    public long add(final long price, final long delta) {
        final long key = keyOf(price);
        final int index = Arrays.binarySearch(keys, 0, count, key);
        final long updated = (index >= 0 ? quantities[index] : 0) + delta;
        if (updated < 0) {
            throw new IllegalStateException(side + " level " + price + " would hold " + updated + " lots");
        }
        put(index, key, updated);
        return updated;
    }

    /** Sets the level at a price to a quantity; 0 removes it. */
    public void set(final long price, final long quantity) {
        if (quantity < 0) {
            throw new IllegalArgumentException("quantity must be >= 0, was " + quantity);
        }
        final long key = keyOf(price);
        put(Arrays.binarySearch(keys, 0, count, key), key, quantity);
    }

    /** @return the price of the i-th best level, 0 being the best */
    public long priceFromBest(final int i) {
        return priceOf(keys[count - 1 - i]);
    }

    /** @return the quantity of the i-th best level */
    public long quantityFromBest(final int i) {
        return quantities[count - 1 - i];
    }

    /** Copies the levels, best first, into new arrays {@code prices} and {@code quantities} of length {@link #levelCount()}. */
    void copyBestFirst(final long[] prices, final long[] quantitiesOut) {
        for (int i = 0; i < Math.min(count, prices.length); i++) {
            prices[i] = priceOf(keys[count - 1 - i]);
            quantitiesOut[i] = quantities[count - 1 - i];
        }
    }

    /** Writes the levels: {@code int} count, then per level {@code long} price and {@code long} quantity, best first. */
    void writeSnapshot(final DataOutput out) throws IOException {
        out.writeInt(count);
        for (int i = count - 1; i >= 0; i--) {
            out.writeLong(priceOf(keys[i]));
            out.writeLong(quantities[i]);
        }
    }

    /**
     * Reads levels written by {@link #writeSnapshot} into this empty side.
     *
     * @throws IOException if the input ends early, or the levels are not strictly best first with positive prices
     *                     and quantities
     */
    void restoreSnapshot(final DataInput in) throws IOException {
        if (count != 0) {
            throw new IllegalStateException(side + " side is not empty: " + count + " levels");
        }
        final int levels = in.readInt();
        if (levels < 0) {
            throw new IOException(side + " level count " + levels + " is negative");
        }
        ensureCapacity(Math.min(levels, RESTORE_PREALLOCATED_LEVELS));
        // Read best first into ascending indices (growing only past the preallocation, so a corrupt count
        // costs no more memory than the input holds), then reverse into the worst-first order kept.
        for (int i = 0; i < levels; i++) {
            final long price = in.readLong();
            final long quantity = in.readLong();
            if (price <= 0 || quantity <= 0) {
                throw new IOException(side + " level " + i + " of " + levels + " has price " + price
                        + " and quantity " + quantity + "; both must be > 0");
            }
            final long key = keyOf(price);
            if (i > 0 && key >= keys[i - 1]) {
                throw new IOException(side + " level " + i + " of " + levels + " at price " + price
                        + " is not worse than the level before it");
            }
            ensureCapacity(i + 1);
            keys[i] = key;
            quantities[i] = quantity;
        }
        for (int low = 0, high = levels - 1; low < high; low++, high--) {
            final long key = keys[low];
            keys[low] = keys[high];
            keys[high] = key;
            final long quantity = quantities[low];
            quantities[low] = quantities[high];
            quantities[high] = quantity;
        }
        count = levels;
    }

    private void ensureCapacity(final int levels) {
        if (levels > keys.length) {
            final int grown = (int) Math.min(Integer.MAX_VALUE - 8, Math.max(levels, 2L * keys.length));
            keys = Arrays.copyOf(keys, grown);
            quantities = Arrays.copyOf(quantities, grown);
        }
    }

    private void put(final int index, final long key, final long quantity) {
        if (index >= 0) {
            if (quantity == 0) {
                System.arraycopy(keys, index + 1, keys, index, count - index - 1);
                System.arraycopy(quantities, index + 1, quantities, index, count - index - 1);
                count--;
            } else {
                quantities[index] = quantity;
            }
            return;
        }
        if (quantity == 0) {
            return;
        }
        final int insert = -index - 1;
        if (count == keys.length) {
            keys = Arrays.copyOf(keys, count * 2);
            quantities = Arrays.copyOf(quantities, count * 2);
        }
        System.arraycopy(keys, insert, keys, insert + 1, count - insert);
        System.arraycopy(quantities, insert, quantities, insert + 1, count - insert);
        keys[insert] = key;
        quantities[insert] = quantity;
        count++;
    }

    /** Ascending keys put the best level last: bids by price, asks by negated price. */
    private long keyOf(final long price) {
        return side == Side.BUY ? price : -price;
    }

    private long priceOf(final long key) {
        return side == Side.BUY ? key : -key;
    }
}
