package io.orderentry.query;

import java.io.ByteArrayInputStream;
import java.io.DataInput;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.IOException;
import java.io.UTFDataFormatException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The byte-level pieces of the {@link OrderStateView} snapshot format (the layout itself is documented at
 * {@link OrderStateViewSnapshot#write}): big-endian values in byte arrays, so that whole blocks of records move in one
 * {@link DataOutput#write(byte[], int, int)} or {@link DataInput#readFully(byte[], int, int)} instead of a call per
 * field; strings in the modified UTF-8 of {@link DataOutput#writeUTF} without its length prefix; enum names; and the
 * checks that turn a malformed input into an {@link IOException}. Stateless.
 */
final class SnapshotCodec {

    /** The first int of a snapshot written now. */
    static final int VERSION = 2;
    /** The version before orders had a self-trade prevention; still read, its orders as NONE. */
    static final int VERSION_WITHOUT_STP = 1;
    /** The fixed part of one order; see {@link OrderStateViewSnapshot#write} for its fields. */
    static final int ROW_BYTES = 95;
    /** The fixed part of one order in a version 1 snapshot: the same without the last byte. */
    static final int ROW_BYTES_V1 = 94;
    /** One fill: trade id, price, quantity, micros, taker. */
    static final int FILL_BYTES = 33;
    /** Orders per frame: rows, then their clientOrderIds, then their fills. */
    static final int FRAME = 256;
    /** Fills or ids per block write or read. */
    static final int BLOCK = 256;
    /** The longest string {@link DataOutput#writeUTF} writes, in bytes; a longer length is malformed. */
    static final int MAX_UTF_BYTES = 65_535;

    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);

    private SnapshotCodec() {
    }

    static long getLong(final byte[] bytes, final int at) {
        return (long) LONG.get(bytes, at);
    }

    static int getInt(final byte[] bytes, final int at) {
        return (int) INT.get(bytes, at);
    }

    static void putLong(final byte[] bytes, final int at, final long value) {
        LONG.set(bytes, at, value);
    }

    static void putInt(final byte[] bytes, final int at, final int value) {
        INT.set(bytes, at, value);
    }

    /** Writes {@code values[from .. from + count)} as longs, a block at a time. */
    static void writeLongs(final DataOutput out, final byte[] buffer, final long[] values, final int from,
                           final int count) throws IOException {
        for (int done = 0; done < count; ) {
            final int block = Math.min(BLOCK, count - done);
            for (int k = 0; k < block; k++, done++) {
                putLong(buffer, k * Long.BYTES, values[from + done]);
            }
            out.write(buffer, 0, block * Long.BYTES);
        }
    }

    /** @return the length of {@code s} in modified UTF-8 */
    static int utfLength(final String s) throws UTFDataFormatException {
        final int chars = s.length();
        int length = chars;
        for (int k = 0; k < chars; k++) {
            final char c = s.charAt(k);
            if (c == 0 || c >= 0x80) {
                length += c >= 0x800 ? 2 : 1;
            }
        }
        if (length > MAX_UTF_BYTES) {
            throw new UTFDataFormatException("a string of " + length + " bytes, more than " + MAX_UTF_BYTES);
        }
        return length;
    }

    /** Puts {@code s} in modified UTF-8 at {@code at}, where {@link #utfLength} bytes must fit; @return the end */
    static int putUtf(final byte[] bytes, int at, final String s) {
        final int chars = s.length();
        for (int k = 0; k < chars; k++) {
            final char c = s.charAt(k);
            if (c != 0 && c < 0x80) {
                bytes[at++] = (byte) c;
            } else if (c < 0x800) {
                bytes[at++] = (byte) (0xc0 | c >> 6);
                bytes[at++] = (byte) (0x80 | c & 0x3f);
            } else {
                bytes[at++] = (byte) (0xe0 | c >> 12);
                bytes[at++] = (byte) (0x80 | c >> 6 & 0x3f);
                bytes[at++] = (byte) (0x80 | c & 0x3f);
            }
        }
        return at;
    }

    /** @return the string of the {@code length} modified UTF-8 bytes at {@code at} */
    static String getUtf(final byte[] bytes, final int at, final int length) throws IOException {
        for (int k = at; k < at + length; k++) {
            if (bytes[k] < 0) {
                return decodeNonAscii(bytes, at, length);
            }
        }
        return new String(bytes, at, length, StandardCharsets.ISO_8859_1);   // ASCII: one copy, compact
    }

    /** The rare string that is not ASCII: decoded (and checked) by the JDK's own readUTF. */
    private static String decodeNonAscii(final byte[] bytes, final int at, final int length) throws IOException {
        final byte[] prefixed = new byte[length + 2];
        prefixed[0] = (byte) (length >>> 8);
        prefixed[1] = (byte) length;
        System.arraycopy(bytes, at, prefixed, 2, length);
        return new DataInputStream(new ByteArrayInputStream(prefixed)).readUTF();
    }

    static void writeNames(final DataOutput out, final Enum<?>[] constants) throws IOException {
        out.writeInt(constants.length);
        for (final Enum<?> constant : constants) {
            out.writeUTF(constant.name());
        }
    }

    /**
     * Reads the names {@link #writeNames} wrote, so that a later build that reorders or extends an enum still reads
     * the snapshot right.
     *
     * @return for each name in the snapshot, in its order, the ordinal of this build's constant of that name
     */
    static int[] readNames(final DataInput in, final Enum<?>[] constants, final String what) throws IOException {
        final int count = in.readInt();
        if (count < 1 || count > 256) {
            throw new IOException("order view snapshot: " + count + " " + what + " names");
        }
        final int[] ordinals = new int[count];
        for (int n = 0; n < count; n++) {
            final String name = in.readUTF();
            ordinals[n] = -1;
            for (final Enum<?> constant : constants) {
                if (constant.name().equals(name)) {
                    ordinals[n] = constant.ordinal();
                }
            }
            if (ordinals[n] < 0) {
                throw new IOException("order view snapshot: " + what + " " + name + " is unknown to this build");
            }
        }
        return ordinals;
    }

    /** @return this build's ordinal for an enum index written in a row */
    static int ordinal(final int[] ordinals, final byte written, final long orderId) throws IOException {
        final int index = written & 0xff;
        if (index >= ordinals.length) {
            throw new IOException("order view snapshot: order " + orderId + " has enum index " + index + " of "
                    + ordinals.length);
        }
        return ordinals[index];
    }

    /** @return 0 or 1 */
    static int flag(final byte written, final long orderId) throws IOException {
        if (written != 0 && written != 1) {
            throw new IOException("order view snapshot: order " + orderId + " has flag byte " + written);
        }
        return written;
    }

    /** @return {@code count} if in {@code [0, max]} */
    static int count(final int count, final int max, final String what) throws IOException {
        if (count < 0 || count > max) {
            throw new IOException("order view snapshot: " + count + " " + what + " (at most " + max + ")");
        }
        return count;
    }
}
