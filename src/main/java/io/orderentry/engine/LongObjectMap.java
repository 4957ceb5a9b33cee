package io.orderentry.engine;

/**
 * A map from positive {@code long} keys to objects: open addressing with linear probing over a
 * primitive key array, 0 as the empty marker, and backward-shift deletion (no tombstones), so that
 * get, put and remove allocate nothing. Grows by doubling when half full; never shrinks.
 *
 * <p>Not thread safe: used only by the matcher thread.
 *
 * @param <V> the value type
 */
final class LongObjectMap<V> {

    private static final long EMPTY = 0;

    private long[] keys;
    private Object[] values;
    private int mask;
    private int shift;
    private int size;

    /** @param initialCapacity expected number of entries; the table starts at twice that, rounded up to a power of two */
    LongObjectMap(final int initialCapacity) {
        allocate(Math.max(8, Integer.highestOneBit(Math.max(4, initialCapacity) * 4 - 1)));
    }

    int size() {
        return size;
    }

    /** @return the value for {@code key}, or null */
    @SuppressWarnings("unchecked")
    V get(final long key) {
        for (int i = slot(key); ; i = (i + 1) & mask) {
            final long k = keys[i];
            if (k == key) {
                return (V) values[i];
            }
            if (k == EMPTY) {
                return null;
            }
        }
    }

    /**
     * Associates {@code value} with {@code key}, replacing any previous value.
     *
     * @param key   must be &gt; 0
     * @param value must not be null
     */
    void put(final long key, final V value) {
        if (key <= 0 || value == null) {
            throw new IllegalArgumentException("key must be > 0 and value non-null: " + key);
        }
        int i = slot(key);
        while (keys[i] != EMPTY) {
            if (keys[i] == key) {
                values[i] = value;
                return;
            }
            i = (i + 1) & mask;
        }
        keys[i] = key;
        values[i] = value;
        if (++size * 2 > keys.length) {
            rehash(keys.length * 2);
        }
    }

    /** @return the value that was mapped to {@code key}, or null */
    @SuppressWarnings("unchecked")
    V remove(final long key) {
        for (int i = slot(key); ; i = (i + 1) & mask) {
            final long k = keys[i];
            if (k == key) {
                final V value = (V) values[i];
                deleteAt(i);
                size--;
                return value;
            }
            if (k == EMPTY) {
                return null;
            }
        }
    }

    /** Empties {@code slot} and closes the hole by shifting back later entries of the same probe run. */
    private void deleteAt(final int slot) {
        int hole = slot;
        for (int i = (slot + 1) & mask; keys[i] != EMPTY; i = (i + 1) & mask) {
            final int home = slot(keys[i]);
            if (((i - home) & mask) >= ((i - hole) & mask)) {
                keys[hole] = keys[i];
                values[hole] = values[i];
                hole = i;
            }
        }
        keys[hole] = EMPTY;
        values[hole] = null;
    }

    private int slot(final long key) {
        return (int) ((key * 0x9E3779B97F4A7C15L) >>> shift);
    }

    private void rehash(final int capacity) {
        final long[] oldKeys = keys;
        final Object[] oldValues = values;
        allocate(capacity);
        for (int j = 0; j < oldKeys.length; j++) {
            final long key = oldKeys[j];
            if (key != EMPTY) {
                int i = slot(key);
                while (keys[i] != EMPTY) {
                    i = (i + 1) & mask;
                }
                keys[i] = key;
                values[i] = oldValues[j];
            }
        }
    }

    private void allocate(final int capacity) {
        keys = new long[capacity];
        values = new Object[capacity];
        mask = capacity - 1;
        shift = 64 - Integer.numberOfTrailingZeros(capacity);
    }
}
