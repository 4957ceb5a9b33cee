package io.orderentry.persistence;

import java.math.BigDecimal;
import java.util.Arrays;

/**
 * Rows in PostgreSQL's COPY text format, built in one reusable byte array: values separated by tabs,
 * rows ended by a newline, {@code \N} for NULL. Decimals are written from whole units at a fixed scale
 * and timestamps from epoch microseconds, both without going through objects.
 *
 * <p>Threads: owned by the persistence writer thread.
 */
final class CopyText {

    /**
     * How to print a count of units (ticks or lots) as a decimal: {@code units * multiplier}, with
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

    private static final long[] POWERS_OF_TEN = new long[19];

    static {
        POWERS_OF_TEN[0] = 1;
        for (int i = 1; i < POWERS_OF_TEN.length; i++) {
            POWERS_OF_TEN[i] = POWERS_OF_TEN[i - 1] * 10;
        }
    }

    private byte[] bytes = new byte[64 * 1024];
    private int length;

    /** Empties the text for the next COPY. */
    void reset() {
        length = 0;
    }

    /** @return the bytes written so far; valid up to {@link #length()} */
    byte[] bytes() {
        return bytes;
    }

    int length() {
        return length;
    }

    /** Appends a text value, escaping the characters COPY treats specially; null becomes NULL. */
    CopyText text(final String value) {
        if (value == null) {
            return nullValue();
        }
        ensure(value.length() * 2 + 1);
        for (int i = 0; i < value.length(); i++) {
            final char c = value.charAt(i);
            switch (c) {
                case '\\' -> escape('\\');
                case '\t' -> escape('t');
                case '\n' -> escape('n');
                case '\r' -> escape('r');
                default -> {
                    if (c > 0x7F) {
                        throw new IllegalArgumentException("non-ASCII text cannot be copied: " + value);
                    }
                    bytes[length++] = (byte) c;
                }
            }
        }
        return separator();
    }

    /** Appends an enum constant by name; null becomes NULL. */
    CopyText name(final Enum<?> value) {
        return value == null ? nullValue() : text(value.name());
    }

    /** Appends NULL. */
    CopyText nullValue() {
        ensure(3);
        bytes[length++] = '\\';
        bytes[length++] = 'N';
        return separator();
    }

    /** Appends a whole number. */
    CopyText number(final long value) {
        ensure(21);
        appendLong(value);
        return separator();
    }

    /** Appends a boolean as {@code t} or {@code f}. */
    CopyText bool(final boolean value) {
        ensure(2);
        bytes[length++] = (byte) (value ? 't' : 'f');
        return separator();
    }

    /** Appends {@code count} units as an exact decimal with the units' scale, e.g. 5 ticks of 0.01 as 0.05. */
    CopyText decimal(final long count, final Units units) {
        final long value;
        try {
            value = Math.multiplyExact(count, units.multiplier());
        } catch (final ArithmeticException overflow) {
            final String text = BigDecimal.valueOf(count).multiply(BigDecimal.valueOf(units.multiplier()))
                    .movePointLeft(units.scale()).toPlainString();
            return text(text);
        }
        if (value == Long.MIN_VALUE || units.scale() >= POWERS_OF_TEN.length) {
            return text(BigDecimal.valueOf(value, units.scale()).toPlainString());
        }
        ensure(42);
        if (value < 0) {
            bytes[length++] = '-';
        }
        final long magnitude = Math.abs(value);
        final int scale = units.scale();
        if (scale == 0) {
            appendLong(magnitude);
        } else {
            appendLong(magnitude / POWERS_OF_TEN[scale]);
            bytes[length++] = '.';
            appendPadded(magnitude % POWERS_OF_TEN[scale], scale);
        }
        return separator();
    }

    /** Appends epoch microseconds as a UTC timestamp, {@code 2026-11-22 10:15:30.123456+00}. */
    CopyText timestamp(final long epochMicros) {
        ensure(32);
        final long seconds = Math.floorDiv(epochMicros, 1_000_000L);
        final long micros = Math.floorMod(epochMicros, 1_000_000L);
        final long days = Math.floorDiv(seconds, 86_400L);
        final long secondOfDay = Math.floorMod(seconds, 86_400L);
        final long z = days + 719_468;
        final long era = Math.floorDiv(z, 146_097);
        final long dayOfEra = z - era * 146_097;
        final long yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365;
        final long dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
        final long monthIndex = (5 * dayOfYear + 2) / 153;
        final long day = dayOfYear - (153 * monthIndex + 2) / 5 + 1;
        final long month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9;
        final long year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
        appendPadded(year, 4);
        bytes[length++] = '-';
        appendPadded(month, 2);
        bytes[length++] = '-';
        appendPadded(day, 2);
        bytes[length++] = ' ';
        appendPadded(secondOfDay / 3_600, 2);
        bytes[length++] = ':';
        appendPadded(secondOfDay / 60 % 60, 2);
        bytes[length++] = ':';
        appendPadded(secondOfDay % 60, 2);
        bytes[length++] = '.';
        appendPadded(micros, 6);
        bytes[length++] = '+';
        bytes[length++] = '0';
        bytes[length++] = '0';
        return separator();
    }

    /** Ends the current row. */
    void endRow() {
        bytes[length - 1] = '\n';
    }

    private CopyText separator() {
        bytes[length++] = '\t';
        return this;
    }

    private void escape(final char c) {
        bytes[length++] = '\\';
        bytes[length++] = (byte) c;
    }

    private void appendLong(final long value) {
        if (value < 0) {
            if (value == Long.MIN_VALUE) {
                appendAscii(Long.toString(value));
                return;
            }
            bytes[length++] = '-';
            appendLong(-value);
            return;
        }
        int digits = 1;
        while (digits < POWERS_OF_TEN.length && value >= POWERS_OF_TEN[digits]) {
            digits++;
        }
        appendPadded(value, digits);
    }

    private void appendPadded(final long value, final int digits) {
        long rest = value;
        for (int i = length + digits - 1; i >= length; i--) {
            bytes[i] = (byte) ('0' + rest % 10);
            rest /= 10;
        }
        length += digits;
    }

    private void appendAscii(final String text) {
        for (int i = 0; i < text.length(); i++) {
            bytes[length++] = (byte) text.charAt(i);
        }
    }

    private void ensure(final int more) {
        if (length + more + 1 > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + more + 1));
        }
    }
}
