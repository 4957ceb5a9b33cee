package io.orderentry.marketdata;

import java.util.Arrays;

/**
 * A rolling 24-hour traded quantity in one-minute buckets, so memory is fixed however much trades.
 * Time is the trades' own timestamps: the window ends at the minute of the latest trade seen, and a
 * trade older than the window is not counted.
 *
 * <p>Not thread safe: owned by the market data consumer.
 */
final class VolumeWindow {

    static final int MINUTES = 24 * 60;
    private static final long MICROS_PER_MINUTE = 60_000_000L;

    private final long[] lots = new long[MINUTES];
    private final long[] minuteOf = new long[MINUTES];
    private long latestMinute = Long.MIN_VALUE;
    private long total;

    VolumeWindow() {
        Arrays.fill(minuteOf, Long.MIN_VALUE);
    }

    /** Counts a trade of {@code quantity} lots at a time. */
    void add(final long timestampMicros, final long quantity) {
        final long minute = Math.floorDiv(timestampMicros, MICROS_PER_MINUTE);
        advanceTo(minute);
        if (minute <= latestMinute - MINUTES) {
            return;
        }
        final int slot = (int) Math.floorMod(minute, (long) MINUTES);
        if (minuteOf[slot] != minute) {
            total -= lots[slot];
            lots[slot] = 0;
            minuteOf[slot] = minute;
        }
        lots[slot] += quantity;
        total += quantity;
    }

    /** @return lots traded in the 24 hours ending at the latest trade's minute */
    long total() {
        return total;
    }

    private void advanceTo(final long minute) {
        if (latestMinute != Long.MIN_VALUE && minute <= latestMinute) {
            return;
        }
        final long steps = latestMinute == Long.MIN_VALUE ? 1 : Math.min(minute - latestMinute, MINUTES);
        for (long m = minute - steps + 1; m <= minute; m++) {
            final int slot = (int) Math.floorMod(m, (long) MINUTES);
            if (minuteOf[slot] != m) {
                total -= lots[slot];
                lots[slot] = 0;
                minuteOf[slot] = m;
            }
        }
        latestMinute = minute;
    }
}
