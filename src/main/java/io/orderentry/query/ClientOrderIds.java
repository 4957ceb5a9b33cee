package io.orderentry.query;

import io.orderentry.engine.AsciiCopy;
import io.orderentry.pipeline.EngineEvent;
import io.orderentry.pipeline.InlineText;
import java.nio.charset.StandardCharsets;

/**
 * The order view's clientOrderId per slot, as bytes in chunks allocated with the view's other slot arrays, so that an
 * order keeps no String of its own alive (issue 33: the view's per-order Strings were copied by every young
 * collection until they were old, and the old arrays pointing at them were cards to scan).
 *
 * <p>Each slot has {@value EngineEvent#CLIENT_ORDER_ID_CAPACITY} bytes and a length: {@code -1} for none. The API
 * accepts only ids of 1-64 ASCII characters, so every accepted order's id fits; an id that does not (none the service
 * issues) is kept as a String in a side array, so nothing is ever truncated.
 *
 * <p>Threads: written by the view's writer under the slot's version; {@link #get} may be called by a reader that
 * checks the version afterwards, and is then safe against a concurrent write (it reads a length that is always in
 * range, and the reader throws the result away if the version moved).
 */
final class ClientOrderIds {

    private static final int SHIFT = SlotVersions.SHIFT;
    private static final int CHUNK = SlotVersions.CHUNK;
    private static final int MASK = SlotVersions.MASK;
    private static final int WIDTH = EngineEvent.CLIENT_ORDER_ID_CAPACITY;
    private static final byte NONE = -1;
    private static final byte OVERSIZED = -2;
    /**
     * The bytes are kept in parts of 4,096 slots (256 KiB), below half of G1's smallest region, so that they are
     * ordinary arrays rather than humongous ones that would each take whole regions.
     */
    private static final int PART_SHIFT = 12;
    private static final int PARTS = CHUNK >>> PART_SHIFT;
    private static final int PART_MASK = (1 << PART_SHIFT) - 1;

    private final byte[][] bytes;
    private final byte[][] lengths;
    private final String[][] oversized;

    ClientOrderIds(final int maxChunks) {
        this.bytes = new byte[maxChunks * PARTS][];
        this.lengths = new byte[maxChunks][];
        this.oversized = new String[maxChunks][];
    }

    /** Allocates chunk {@code c}'s storage, every slot holding none; writer only. */
    void allocate(final int c) {
        for (int p = 0; p < PARTS; p++) {
            bytes[c * PARTS + p] = new byte[(PART_MASK + 1) * WIDTH];
        }
        final byte[] none = new byte[CHUNK];
        java.util.Arrays.fill(none, NONE);
        lengths[c] = none;
    }

    /** Sets a slot's id from an event's inline text (none when it holds none); writer only. */
    void set(final int slot, final InlineText id) {
        final int c = slot >>> SHIFT;
        final int i = slot & MASK;
        if (id.isNull()) {
            clear(slot);
        } else if (id.isInline() && id.length() <= WIDTH) {
            id.copyTo(bytes[slot >>> PART_SHIFT], (slot & PART_MASK) * WIDTH);
            if (lengths[c][i] == OVERSIZED) {
                oversized[c][i] = null;
            }
            lengths[c][i] = (byte) id.length();
        } else {
            keepOversized(c, i, id.toStringOrNull());
        }
    }

    /** Sets a slot's id (none when null); writer only. */
    void set(final int slot, final String id) {
        final int c = slot >>> SHIFT;
        final int i = slot & MASK;
        if (id == null) {
            clear(slot);
            return;
        }
        final int n = AsciiCopy.copy(id, bytes[slot >>> PART_SHIFT], (slot & PART_MASK) * WIDTH, WIDTH);
        if (n >= 0) {
            if (lengths[c][i] == OVERSIZED) {
                oversized[c][i] = null;
            }
            lengths[c][i] = (byte) n;
            return;
        }
        keepOversized(c, i, id);
    }

    /** Forgets a slot's id; writer only. */
    void clear(final int slot) {
        final int c = slot >>> SHIFT;
        final int i = slot & MASK;
        if (lengths[c][i] == OVERSIZED) {
            oversized[c][i] = null;
        }
        lengths[c][i] = NONE;
    }

    /** @return whether the slot has an id; writer only */
    boolean has(final int slot) {
        return lengths[slot >>> SHIFT][slot & MASK] != NONE;
    }

    /**
     * @return the slot's id as a new String, or null; a reader on another thread checks the slot's version after
     *     the call and discards what it got if the version moved
     */
    String get(final int slot) {
        final int c = slot >>> SHIFT;
        final int i = slot & MASK;
        final byte length = lengths[c][i];
        if (length >= 0) {
            return new String(bytes[slot >>> PART_SHIFT], (slot & PART_MASK) * WIDTH, Math.min(length, WIDTH),
                    StandardCharsets.ISO_8859_1);
        }
        if (length == OVERSIZED) {
            final String[] side = oversized[c];
            return side == null ? null : side[i];
        }
        return null;
    }

    /**
     * @return the {@link ClientIdIndex} key of the slot's id with {@code account}, or 0 when the slot has no id; writer
     *     only
     */
    long key(final int slot, final String account) {
        final int c = slot >>> SHIFT;
        final int i = slot & MASK;
        final byte length = lengths[c][i];
        if (length >= 0) {
            return ClientIdIndex.key(account, bytes[slot >>> PART_SHIFT], (slot & PART_MASK) * WIDTH, length);
        }
        if (length == OVERSIZED) {
            return ClientIdIndex.key(account, oversized[c][i]);
        }
        return 0;
    }

    /**
     * @return whether the slot's id is {@code id}, without making a String; a reader on another thread checks the
     *     slot's version after the call and discards what it got if the version moved
     */
    boolean matches(final int slot, final String id) {
        final int c = slot >>> SHIFT;
        final int i = slot & MASK;
        final byte length = lengths[c][i];
        if (length >= 0) {
            if (length != id.length()) {
                return false;
            }
            final byte[] part = bytes[slot >>> PART_SHIFT];
            final int at = (slot & PART_MASK) * WIDTH;
            for (int k = 0; k < length; k++) {
                if ((part[at + k] & 0xff) != id.charAt(k)) {
                    return false;
                }
            }
            return true;
        }
        if (length == OVERSIZED) {
            final String[] side = oversized[c];
            return side != null && id.equals(side[i]);
        }
        return false;
    }

    private void keepOversized(final int c, final int i, final String id) {
        if (oversized[c] == null) {
            oversized[c] = new String[CHUNK];
        }
        oversized[c][i] = id;
        lengths[c][i] = OVERSIZED;
    }
}
