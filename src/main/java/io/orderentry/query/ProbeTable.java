package io.orderentry.query;

/**
 * The cells of the order view's two indexes ({@link SlotIndex}, {@link ClientIdIndex}): long keys to int slots in
 * primitive arrays, open addressing with linear probing from {@link #home}, 0 marking an empty cell. A table never
 * resizes: its owner replaces it whole with {@link #grown}, so that a reader that took the old one reads arrays that
 * stay the size it saw.
 *
 * <p>Threads: written by the one writer of its index; readers on other threads read the arrays under the view's index
 * version ({@link OrderStateView}), which makes them retry when a change was under way.
 */
final class ProbeTable {

    final long[] keys;
    final int[] values;
    final int mask;

    /** @param capacity a power of two */
    ProbeTable(final int capacity) {
        keys = new long[capacity];
        values = new int[capacity];
        mask = capacity - 1;
    }

    /** @return the cell a key's probe starts at (before masking): its bits mixed, so close keys spread */
    static int home(final long key) {
        final long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32));
    }

    /** Puts {@code key} (non-zero) with {@code value} in the first empty cell of its probe. Writer only. */
    void insert(final long key, final int value) {
        int cell = home(key) & mask;
        while (keys[cell] != 0) {
            cell = (cell + 1) & mask;
        }
        values[cell] = value;
        keys[cell] = key;
    }

    /** @return a table twice as large holding every entry of this one; writer only */
    ProbeTable grown() {
        final ProbeTable bigger = new ProbeTable(keys.length * 2);
        for (int i = 0; i < keys.length; i++) {
            if (keys[i] != 0) {
                bigger.insert(keys[i], values[i]);
            }
        }
        return bigger;
    }

    /**
     * Empties {@code cell} and shifts back the entries after it whose probe passes it, so that no probe chain is
     * broken (backward-shift deletion). Writer only.
     */
    void removeAt(final int cell) {
        int hole = cell;
        int next = (hole + 1) & mask;
        while (keys[next] != 0) {
            final int homeCell = home(keys[next]) & mask;
            // the entry at next may move into the hole if its home is not cyclically in (hole, next]
            if (((next - homeCell) & mask) >= ((next - hole) & mask)) {
                keys[hole] = keys[next];
                values[hole] = values[next];
                hole = next;
            }
            next = (next + 1) & mask;
        }
        keys[hole] = 0;
    }
}
