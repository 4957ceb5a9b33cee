package io.orderentry.instrument;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

class DecimalTextTest {

    @Test
    void rendersTheSameTextAsBigDecimalForAnyStep() {
        final char[] out = new char[DecimalText.MAX_CHARS];
        for (final String step : new String[] {"0.01", "0.0001", "0.001", "0.5", "0.25", "1", "5", "10", "0.00000001"}) {
            final BigDecimal size = new BigDecimal(step).stripTrailingZeros();
            final int scale = Math.max(0, size.scale());
            final DecimalText text = new DecimalText(size, scale);
            for (final long count : new long[] {0, 1, 7, 10, 99, 100, 101, 123_456_789, 5_000_000_000L,
                    Long.MAX_VALUE / 4, Long.MAX_VALUE}) {
                final String expected = size.multiply(BigDecimal.valueOf(count)).setScale(scale).toPlainString();
                assertEquals(expected, new String(out, 0, text.format(count, out)), step + " x " + count);
            }
        }
    }

    @Test
    void rendersTheAverageOfFillsRoundedHalfEvenAsBigDecimalDoes() {
        final char[] out = new char[DecimalText.MAX_CHARS];
        for (final String step : new String[] {"0.01", "0.5", "0.25", "5", "0.00000001"}) {
            final BigDecimal size = new BigDecimal(step).stripTrailingZeros();
            final int scale = Math.max(0, size.scale());
            final DecimalText text = new DecimalText(size, scale);
            for (final long notional : new long[] {1, 5, 15, 25, 35, 7_000_001, 123_456_789_012L, Long.MAX_VALUE / 3}) {
                for (final long quantity : new long[] {1, 2, 3, 4, 10, 7_000, 999_999_937L}) {
                    final String expected = BigDecimal.valueOf(notional).multiply(size)
                            .divide(BigDecimal.valueOf(quantity), scale, java.math.RoundingMode.HALF_EVEN)
                            .toPlainString();
                    assertEquals(expected, new String(out, 0, text.formatAverage(notional, quantity, out)),
                            step + " x " + notional + " / " + quantity);
                }
            }
        }
    }
}
