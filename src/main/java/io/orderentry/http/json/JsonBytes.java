package io.orderentry.http.json;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.orderentry.http.DirectBody;
import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A growable byte array that JSON is written into by hand: ASCII, escaped strings, integers, fixed-point decimals
 * and ISO-8601 timestamps, with no intermediate objects. One instance is reused per event loop (see
 * {@link OrderJson}); {@link #toBuffer()} copies the bytes into the response's buffer once.
 *
 * <p>Not thread-safe: one owner thread.
 */
final class JsonBytes {

    private static final byte[] HEX = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);
    private static final long MICROS_PER_DAY = 86_400_000_000L;
    /** 0001-01-01T00:00:00Z and 10000-01-01T00:00:00Z in microseconds: four-digit years only. */
    private static final long MIN_MICROS = -62_135_596_800_000_000L;
    private static final long MAX_MICROS = 253_402_300_800_000_000L;

    private byte[] bytes;
    private int length;
    private final byte[] digits = new byte[20];

    JsonBytes(final int capacity) {
        this.bytes = new byte[capacity];
    }

    /** Empties it for the next document; keeps the capacity. */
    JsonBytes reset() {
        length = 0;
        return this;
    }

    int length() {
        return length;
    }

    /** @return a copy of the bytes written */
    byte[] toBytes() {
        return Arrays.copyOf(bytes, length);
    }

    /** @return a copy of the bytes written, as a Vert.x buffer of exactly that size */
    Buffer toBuffer() {
        return Buffer.buffer(length).appendBytes(bytes, 0, length);
    }

    /**
     * @param allocator where the buffer comes from (the event loops' pooled allocator)
     * @return a copy of the bytes written in a direct buffer of exactly that size; the caller owns it (see
     *         {@link DirectBody})
     */
    ByteBuf toDirect(final ByteBufAllocator allocator) {
        return allocator.directBuffer(length, length).writeBytes(bytes, 0, length);
    }

    /** @return what {@code payload} makes of the bytes written, which it may read only during the call */
    <T> T into(final Json.Payload<T> payload) {
        return payload.take(bytes, length);
    }

    /** @return the bytes written, as text (tests, logs) */
    @Override
    public String toString() {
        return new String(bytes, 0, length, StandardCharsets.UTF_8);
    }

    JsonBytes raw(final byte b) {
        ensure(1);
        bytes[length++] = b;
        return this;
    }

    /** Writes {@code ascii} as it is: for literal JSON punctuation and field names that need no escaping. */
    JsonBytes ascii(final String ascii) {
        final int n = ascii.length();
        ensure(n);
        for (int i = 0; i < n; i++) {
            bytes[length++] = (byte) ascii.charAt(i);
        }
        return this;
    }

    /** Writes a JSON string (quoted and escaped as JSON requires), or {@code null} when {@code value} is null. */
    JsonBytes string(final String value) {
        if (value == null) {
            return ascii("null");
        }
        final int n = value.length();
        ensure(n + 2);
        bytes[length++] = '"';
        for (int i = 0; i < n; i++) {
            final char c = value.charAt(i);
            if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
                bytes[length++] = (byte) c;
            } else {
                escaped(value, i);
                return raw((byte) '"');
            }
        }
        bytes[length++] = '"';
        return this;
    }

    /**
     * The slow part of {@link #string}: from index {@code from} on, with escapes and UTF-8, as Jackson's generator
     * writes them (short escapes where JSON has one, {@code \\u00XX} for other control characters, the rest as
     * UTF-8).
     */
    private void escaped(final String value, final int from) {
        for (int i = from; i < value.length(); i++) {
            final char c = value.charAt(i);
            if (c == '"' || c == '\\') {
                raw((byte) '\\').raw((byte) c);
            } else if (c == '\n') {
                ascii("\\n");
            } else if (c == '\r') {
                ascii("\\r");
            } else if (c == '\t') {
                ascii("\\t");
            } else if (c == '\b') {
                ascii("\\b");
            } else if (c == '\f') {
                ascii("\\f");
            } else if (c < 0x20) {
                ascii("\\u00").raw(HEX[c >> 4]).raw(HEX[c & 0xf]);
            } else if (c < 0x80) {
                raw((byte) c);
            } else {
                final int end = Character.isHighSurrogate(c) && i + 1 < value.length() ? i + 2 : i + 1;
                final byte[] utf8 = value.substring(i, end).getBytes(StandardCharsets.UTF_8);
                ensure(utf8.length);
                System.arraycopy(utf8, 0, bytes, length, utf8.length);
                length += utf8.length;
                i = end - 1;
            }
        }
    }

    /** Writes a whole number. */
    JsonBytes number(final long value) {
        if (value < 0) {
            if (value == Long.MIN_VALUE) {
                return ascii("-9223372036854775808");
            }
            raw((byte) '-');
            return number(-value);
        }
        int n = 0;
        long v = value;
        do {
            digits[n++] = (byte) ('0' + v % 10);
            v /= 10;
        } while (v != 0);
        ensure(n);
        while (n > 0) {
            bytes[length++] = digits[--n];
        }
        return this;
    }

    /** Writes {@code chars[0, count)}, ASCII without anything to escape (a decimal's digits), as a JSON string. */
    JsonBytes quoted(final char[] chars, final int count) {
        ensure(count + 2);
        bytes[length++] = '"';
        for (int i = 0; i < count; i++) {
            bytes[length++] = (byte) chars[i];
        }
        bytes[length++] = '"';
        return this;
    }

    /**
     * Writes an instant as a JSON string, ISO-8601 UTC with microseconds ({@code "2026-11-22T10:15:30.123456Z"}),
     * exactly as {@link Json#timestamp} renders it, with no allocation for years 1 to 9999.
     */
    JsonBytes timestamp(final long epochMicros) {
        if (epochMicros < MIN_MICROS || epochMicros >= MAX_MICROS) {
            return string(Json.timestamp(epochMicros));
        }
        final long days = Math.floorDiv(epochMicros, MICROS_PER_DAY);
        final long ofDay = Math.floorMod(epochMicros, MICROS_PER_DAY);
        // days since 1970-01-01 to a civil date (proleptic Gregorian), after H. Hinnant's days_from_civil inverse
        final long z = days + 719_468;
        final long era = Math.floorDiv(z, 146_097);
        final long doe = z - era * 146_097;
        final long yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        final long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        final long mp = (5 * doy + 2) / 153;
        final long day = doy - (153 * mp + 2) / 5 + 1;
        final long month = mp < 10 ? mp + 3 : mp - 9;
        final long year = yoe + era * 400 + (month <= 2 ? 1 : 0);
        final long seconds = ofDay / 1_000_000;
        ensure(29);
        bytes[length++] = '"';
        fixed(year, 4);
        bytes[length++] = '-';
        fixed(month, 2);
        bytes[length++] = '-';
        fixed(day, 2);
        bytes[length++] = 'T';
        fixed(seconds / 3600, 2);
        bytes[length++] = ':';
        fixed(seconds / 60 % 60, 2);
        bytes[length++] = ':';
        fixed(seconds % 60, 2);
        bytes[length++] = '.';
        fixed(ofDay % 1_000_000, 6);
        bytes[length++] = 'Z';
        bytes[length++] = '"';
        return this;
    }

    /** Writes {@code value} zero-padded to {@code width} digits; capacity must already be ensured. */
    private void fixed(final long value, final int width) {
        long v = value;
        for (int i = width - 1; i >= 0; i--) {
            bytes[length + i] = (byte) ('0' + v % 10);
            v /= 10;
        }
        length += width;
    }

    private void ensure(final int more) {
        if (length + more > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + more));
        }
    }
}
