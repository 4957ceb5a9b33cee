package io.orderentry.persistence;

import io.orderentry.instrument.DecimalText;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Rows in PostgreSQL's binary COPY format ({@code COPY ... FROM STDIN WITH (FORMAT binary)}), built in one
 * reusable byte array: a header, per row a field count and per field a length and the value in the
 * type's wire form, and a trailer. The server then parses no text: decimals go as {@code NUMERIC}
 * base-10000 digits, timestamps as microseconds since 2000-01-01 UTC, whole numbers as {@code BIGINT}.
 *
 * <p>Each value must go to a column of the type its method names: {@link #number} to {@code BIGINT},
 * {@link #decimal} to {@code NUMERIC}, {@link #timestamp} to {@code TIMESTAMPTZ}, {@link #text} and
 * {@link #name} to {@code TEXT}, {@link #bool} to {@code BOOLEAN}; a mismatch is an error from the server,
 * never a wrong value. Nothing is allocated per value except for decimals beyond a {@code long}.
 *
 * <p>Threads: owned by the thread of the sink that writes it.
 */
final class CopyBinary {

    /**
     * How to write a count of units (ticks or lots) as a decimal: {@code units * multiplier}, with
     * {@code scale} digits after the point.
     */
    record Units(long multiplier, int scale) {

        /** @return the units of a tick or lot size, e.g. 0.01 gives multiplier 1 and scale 2 */
        static Units of(final BigDecimal unit) {
            final BigDecimal stripped = unit.stripTrailingZeros();
            if (stripped.scale() >= 0) {
                return new Units(stripped.unscaledValue().longValueExact(), stripped.scale());
            }
            return new Units(stripped.setScale(0).unscaledValue().longValueExact(), 0);
        }
    }

    private static final byte[] HEADER = {'P', 'G', 'C', 'O', 'P', 'Y', '\n', (byte) 0xFF, '\r', '\n', 0,
        0, 0, 0, 0, 0, 0, 0, 0};
    private static final long POSTGRES_EPOCH_MICROS = 946_684_800_000_000L;
    private static final int NUMERIC_POSITIVE = 0x0000;
    private static final int NUMERIC_NEGATIVE = 0x4000;
    private static final int DIGIT_BASE = 10_000;
    /** Largest scale written without BigDecimal: the padded fraction, below 10^(scale + 3), fits a long. */
    private static final int FAST_SCALE = 15;
    private static final long[] POWERS_OF_TEN = DecimalText.POWERS;

    /** Element type OIDs of PostgreSQL's built-in types, as a binary array names its elements' type. */
    static final int BOOLEAN_OID = 16;
    static final int BIGINT_OID = 20;
    static final int TEXT_OID = 25;
    static final int TIMESTAMPTZ_OID = 1184;
    static final int NUMERIC_OID = 1700;

    private final short[] integerDigits = new short[5];
    private byte[] bytes = new byte[64 * 1024];
    private int length;
    private int rows;
    private int rowStart = -1;
    private int fields;
    /** Where the open array field's length goes, or -1 outside an array. */
    private int arrayStart = -1;
    private int arrayElements;
    private int arrayDeclared;

    /** Starts a new COPY: the header and no rows. */
    void reset() {
        length = 0;
        rows = 0;
        rowStart = -1;
        arrayStart = -1;
        ensure(HEADER.length);
        System.arraycopy(HEADER, 0, bytes, 0, HEADER.length);
        length = HEADER.length;
    }

    /** @return the rows ended so far */
    int rows() {
        return rows;
    }

    /**
     * Appends the trailer; the data is then {@link #bytes()} up to {@link #length()}.
     *
     * @throws IllegalStateException when a row was begun and not ended
     */
    void finish() {
        if (rowStart >= 0) {
            throw new IllegalStateException("a row of " + fields + " fields was not ended");
        }
        ensure(2);
        putShort(-1);
    }

    /** @return the bytes written so far; valid up to {@link #length()} */
    byte[] bytes() {
        return bytes;
    }

    int length() {
        return length;
    }

    /** Appends a text value as UTF-8; null becomes NULL. */
    CopyBinary text(final String value) {
        if (value == null) {
            return nullValue();
        }
        field(4 + value.length() * 3);
        final int lengthAt = length;
        length += 4;
        for (int i = 0; i < value.length(); i++) {
            final char c = value.charAt(i);
            if (c > 0x7F) {
                length = lengthAt + 4;
                final byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
                System.arraycopy(utf8, 0, bytes, length, utf8.length);
                length += utf8.length;
                break;
            }
            bytes[length++] = (byte) c;
        }
        putIntAt(lengthAt, length - lengthAt - 4);
        return this;
    }

    /** Appends an enum constant by name; null becomes NULL. */
    CopyBinary name(final Enum<?> value) {
        return value == null ? nullValue() : text(value.name());
    }

    /** Appends NULL. */
    CopyBinary nullValue() {
        field(4);
        putInt(-1);
        return this;
    }

    /** Appends a {@code BIGINT}. */
    CopyBinary number(final long value) {
        field(12);
        putInt(8);
        putLong(value);
        return this;
    }

    /** Appends a {@code BOOLEAN}. */
    CopyBinary bool(final boolean value) {
        field(5);
        putInt(1);
        bytes[length++] = (byte) (value ? 1 : 0);
        return this;
    }

    /** Appends epoch microseconds as a {@code TIMESTAMPTZ}. */
    CopyBinary timestamp(final long epochMicros) {
        field(12);
        putInt(8);
        putLong(epochMicros - POSTGRES_EPOCH_MICROS);
        return this;
    }

    /**
     * Appends {@code count} units as an exact {@code NUMERIC} with the units' scale (its display scale), e.g.
     * 5 ticks of 0.01 as 0.05.
     */
    CopyBinary decimal(final long count, final Units units) {
        final long value;
        try {
            value = Math.multiplyExact(count, units.multiplier());
        } catch (final ArithmeticException overflow) {
            return bigDecimal(BigDecimal.valueOf(count).multiply(BigDecimal.valueOf(units.multiplier()))
                    .movePointLeft(units.scale()));
        }
        final int scale = units.scale();
        if (value == Long.MIN_VALUE || scale > FAST_SCALE) {
            return bigDecimal(BigDecimal.valueOf(value, scale));
        }
        final long magnitude = Math.abs(value);
        long integer = magnitude / POWERS_OF_TEN[scale];
        int integerGroups = 0;
        while (integer > 0) {
            integerDigits[integerGroups++] = (short) (integer % DIGIT_BASE);
            integer /= DIGIT_BASE;
        }
        final int fractionGroups = (scale + 3) / 4;
        final long fraction = magnitude % POWERS_OF_TEN[scale] * POWERS_OF_TEN[fractionGroups * 4 - scale];
        final int digits = integerGroups + fractionGroups;
        field(4 + 8 + 2 * digits);
        putInt(8 + 2 * digits);
        putShort(digits);
        putShort(integerGroups - 1);
        putShort(value < 0 ? NUMERIC_NEGATIVE : NUMERIC_POSITIVE);
        putShort(scale);
        for (int i = integerGroups - 1; i >= 0; i--) {
            putShort(integerDigits[i]);
        }
        for (int i = fractionGroups - 1; i >= 0; i--) {
            putShort((int) (fraction / POWERS_OF_TEN[4 * i] % DIGIT_BASE));
        }
        return this;
    }

    /**
     * Begins a one-dimensional array field of {@code elements} values of the type {@code elementOid}: the values
     * appended until {@link #endArray()} are its elements, written with the methods of their type and
     * {@link #nullValue()} for NULL, as in a row. The column must be an array of that type.
     */
    CopyBinary beginArray(final int elementOid, final int elements) {
        if (arrayStart >= 0) {
            throw new IllegalStateException("an array is already open");
        }
        field(24);
        arrayStart = length;
        putInt(0);
        putInt(1); // dimensions
        putInt(1); // may hold NULLs: the server finds out from the elements
        putInt(elementOid);
        putInt(elements);
        putInt(1); // lower bound
        arrayElements = 0;
        arrayDeclared = elements;
        return this;
    }

    /** Ends the array begun by {@link #beginArray}; @throws IllegalStateException when its count was not met */
    CopyBinary endArray() {
        if (arrayStart < 0) {
            throw new IllegalStateException("no array is open");
        }
        if (arrayElements != arrayDeclared) {
            throw new IllegalStateException("an array of " + arrayDeclared + " elements got " + arrayElements);
        }
        putIntAt(arrayStart, length - arrayStart - 4);
        arrayStart = -1;
        return this;
    }

    /** Ends the current row. */
    void endRow() {
        if (arrayStart >= 0) {
            throw new IllegalStateException("an array was begun and not ended");
        }
        if (rowStart < 0) {
            throw new IllegalStateException("a row needs at least one field");
        }
        bytes[rowStart] = (byte) (fields >>> 8);
        bytes[rowStart + 1] = (byte) fields;
        rowStart = -1;
        rows++;
    }

    /** The slow path for decimals beyond a long: digits taken from the plain text of the value. */
    private CopyBinary bigDecimal(final BigDecimal value) {
        final BigDecimal scaled = value.scale() < 0 ? value.setScale(0) : value;
        final String plain = scaled.abs().toPlainString();
        final int point = plain.indexOf('.');
        final String integer = point < 0 ? plain : plain.substring(0, point);
        final String fraction = point < 0 ? "" : plain.substring(point + 1);
        final String significant = integer.replaceFirst("^0+", "");
        final int integerGroups = (significant.length() + 3) / 4;
        final int fractionGroups = (fraction.length() + 3) / 4;
        final String digitsText = "0".repeat(integerGroups * 4 - significant.length()) + significant + fraction
                + "0".repeat(fractionGroups * 4 - fraction.length());
        final int digits = integerGroups + fractionGroups;
        field(4 + 8 + 2 * digits);
        putInt(8 + 2 * digits);
        putShort(digits);
        putShort(integerGroups - 1);
        putShort(scaled.signum() < 0 ? NUMERIC_NEGATIVE : NUMERIC_POSITIVE);
        putShort(scaled.scale());
        for (int i = 0; i < digits; i++) {
            putShort(Integer.parseInt(digitsText, 4 * i, 4 * i + 4, 10));
        }
        return this;
    }

    /**
     * Makes room for a field of up to {@code size} bytes, starting a row if none is open; inside an array, for an
     * element (the same length and value as a field).
     */
    private void field(final int size) {
        if (arrayStart >= 0) {
            ensure(size);
            arrayElements++;
            return;
        }
        ensure(size + 2);
        if (rowStart < 0) {
            rowStart = length;
            fields = 0;
            length += 2;
        }
        fields++;
    }

    private void putShort(final int value) {
        bytes[length++] = (byte) (value >>> 8);
        bytes[length++] = (byte) value;
    }

    private void putInt(final int value) {
        putIntAt(length, value);
        length += 4;
    }

    private void putIntAt(final int at, final int value) {
        bytes[at] = (byte) (value >>> 24);
        bytes[at + 1] = (byte) (value >>> 16);
        bytes[at + 2] = (byte) (value >>> 8);
        bytes[at + 3] = (byte) value;
    }

    private void putLong(final long value) {
        putInt((int) (value >>> 32));
        putInt((int) value);
    }

    private void ensure(final int more) {
        if (length + more > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + more));
        }
    }
}
