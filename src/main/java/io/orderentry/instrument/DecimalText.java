package io.orderentry.instrument;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Renders a count of ticks or lots as the decimal text of {@code count x step} at a fixed scale,
 * into a caller's char array, without allocating in the common case (step times count fits a long).
 * Gives the same text as {@code step.multiply(count).setScale(scale).toPlainString()}.
 *
 * <p>Immutable and thread safe; the char array is the caller's.
 */
public final class DecimalText {

    /** Longest text: 19 digits, a point, a sign, up to 19 decimals; the fallback may need more. */
    public static final int MAX_CHARS = 64;
    /** 10^0 to 10^18; shared with the other fixed-point code (the edge's order parser, the COPY encoding). */
    public static final long[] POWERS = new long[19];

    static {
        POWERS[0] = 1;
        for (int i = 1; i < POWERS.length; i++) {
            POWERS[i] = POWERS[i - 1] * 10;
        }
    }

    private final BigDecimal step;
    private final long unscaledStep;
    private final int scale;

    /**
     * @param step  the tick or lot size
     * @param scale decimals to render, at least the step's own
     */
    public DecimalText(final BigDecimal step, final int scale) {
        this.step = step;
        this.scale = scale;
        final BigDecimal unscaled = step.setScale(scale);
        this.unscaledStep = scale < POWERS.length && unscaled.unscaledValue().bitLength() < 63
                ? unscaled.unscaledValue().longValueExact() : 0;
    }

    /**
     * Writes the decimal of {@code count} steps into {@code out} from index 0.
     *
     * @param out at least {@link #MAX_CHARS} long
     * @return the number of chars written
     */
    public int format(final long count, final char[] out) {
        if (unscaledStep == 0 || count < 0 || count > Long.MAX_VALUE / unscaledStep) {
            final String text = step.multiply(BigDecimal.valueOf(count)).setScale(scale).toPlainString();
            text.getChars(0, text.length(), out, 0);
            return text.length();
        }
        return unscaled(count * unscaledStep, out);
    }

    /**
     * Writes the average of an order's fills, {@code notional / quantity} steps rounded half-even to the scale:
     * the same text as {@code step.multiply(notional).divide(quantity, scale, HALF_EVEN).toPlainString()}.
     *
     * @param notional the sum of price x quantity of the fills, in steps x lots
     * @param quantity the lots filled, above 0
     * @param out      at least {@link #MAX_CHARS} long
     * @return the number of chars written
     */
    public int formatAverage(final long notional, final long quantity, final char[] out) {
        if (unscaledStep == 0 || notional < 0 || quantity <= 0 || notional > Long.MAX_VALUE / unscaledStep) {
            final String text = BigDecimal.valueOf(notional).multiply(step)
                    .divide(BigDecimal.valueOf(quantity), scale, RoundingMode.HALF_EVEN).toPlainString();
            text.getChars(0, text.length(), out, 0);
            return text.length();
        }
        final long numerator = notional * unscaledStep;
        long quotient = numerator / quantity;
        final long remainder = numerator % quantity;
        final long rest = quantity - remainder;
        if (remainder > rest || remainder == rest && (quotient & 1) == 1) {
            quotient++;
        }
        return unscaled(quotient, out);
    }

    /** Writes {@code value x 10^-scale}, value at least 0. */
    private int unscaled(final long value, final char[] out) {
        final long integer = value / POWERS[scale];
        final long fraction = value % POWERS[scale];
        int length = digits(integer, out, 0);
        if (scale > 0) {
            out[length++] = '.';
            for (int i = scale - 1; i >= 0; i--) {
                out[length + i] = (char) ('0' + fraction / POWERS[scale - 1 - i] % 10);
            }
            length += scale;
        }
        return length;
    }

    private static int digits(final long value, final char[] out, final int at) {
        int count = 1;
        while (count < 19 && value >= POWERS[count]) {
            count++;
        }
        long rest = value;
        for (int i = at + count - 1; i >= at; i--) {
            out[i] = (char) ('0' + rest % 10);
            rest /= 10;
        }
        return at + count;
    }
}
