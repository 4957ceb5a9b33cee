package io.orderentry.journal;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Objects;

/**
 * Maps a symbol name held as UTF-8 bytes in a buffer to its configured index without allocating:
 * an open-addressing table over the encoded names. Immutable after construction.
 */
final class SymbolLookup {

    /** Returned by {@link #indexOf} for a name that is not configured. */
    static final int UNKNOWN = -1;

    private final byte[][] names;
    private final int[] indexes;
    private final int mask;

    /** @param symbolIndex configured instrument name to index */
    SymbolLookup(final Map<String, Integer> symbolIndex) {
        Objects.requireNonNull(symbolIndex, "symbolIndex");
        final int capacity = Integer.highestOneBit(Math.max(4, symbolIndex.size() * 4) - 1) << 1;
        names = new byte[capacity][];
        indexes = new int[capacity];
        mask = capacity - 1;
        for (final Map.Entry<String, Integer> entry : symbolIndex.entrySet()) {
            final byte[] name = entry.getKey().getBytes(StandardCharsets.UTF_8);
            int slot = hash(name) & mask;
            while (names[slot] != null) {
                slot = (slot + 1) & mask;
            }
            names[slot] = name;
            indexes[slot] = Objects.requireNonNull(entry.getValue(), "index of " + entry.getKey());
        }
    }

    /** @return the index of the name held in {@code buffer[offset, offset + length)}, or {@link #UNKNOWN} */
    int indexOf(final ByteBuffer buffer, final int offset, final int length) {
        int h = 0;
        for (int i = 0; i < length; i++) {
            h = 31 * h + buffer.get(offset + i);
        }
        int slot = mix(h) & mask;
        for (byte[] name = names[slot]; name != null; name = names[slot]) {
            if (equals(name, buffer, offset, length)) {
                return indexes[slot];
            }
            slot = (slot + 1) & mask;
        }
        return UNKNOWN;
    }

    private static boolean equals(final byte[] name, final ByteBuffer buffer, final int offset, final int length) {
        if (name.length != length) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if (name[i] != buffer.get(offset + i)) {
                return false;
            }
        }
        return true;
    }

    private static int hash(final byte[] name) {
        int h = 0;
        for (final byte b : name) {
            h = 31 * h + b;
        }
        return mix(h);
    }

    private static int mix(final int h) {
        final int x = h * 0x9E3779B9;
        return x ^ (x >>> 16);
    }
}
