package io.orderentry.marketdata;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;

/**
 * A rolling 24-hour traded quantity in one-minute buckets, so memory is fixed however much trades.
 * Time is the trades' own timestamps: the window ends at the minute of the latest trade seen, and a
 * trade older than the window is not counted.
 *
 * <p>{@link #writeSnapshot}/{@link #restoreSnapshot} carry the window's end and its non-empty minutes across a
 * restart; a minute bucket that holds nothing behaves the same whichever minute it last held, so that is all
 * the window's behaviour depends on.
 *
 * <p>Not thread safe: owned by the market data consumer.
 */
final class VolumeWindow {

    static final int MINUTES = 24 * 60;
    private static final long MICROS_PER_MINUTE = 60_000_000L;

    private final long[] lots = new long[MINUTES];
    private final long[] minuteOf = new long[MINUTES];
    /** Minutes a timestamp in microseconds can fall in, so that window arithmetic never overflows. */
    private static final long MIN_MINUTE = Math.floorDiv(Long.MIN_VALUE, MICROS_PER_MINUTE);
    private static final long MAX_MINUTE = Math.floorDiv(Long.MAX_VALUE, MICROS_PER_MINUTE);

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

    /**
     * Writes the window: {@code long} latest minute ({@link Long#MIN_VALUE} before the first trade), {@code int}
     * count, then per non-empty minute of the window, oldest first, {@code long} minute and {@code long} lots.
     */
    void writeSnapshot(final DataOutput out) throws IOException {
        out.writeLong(latestMinute);
        if (latestMinute == Long.MIN_VALUE) {
            out.writeInt(0);
            return;
        }
        int buckets = 0;
        for (long minute = latestMinute - MINUTES + 1; minute <= latestMinute; minute++) {
            final int slot = (int) Math.floorMod(minute, (long) MINUTES);
            if (minuteOf[slot] == minute && lots[slot] != 0) {
                buckets++;
            }
        }
        out.writeInt(buckets);
        for (long minute = latestMinute - MINUTES + 1; minute <= latestMinute; minute++) {
            final int slot = (int) Math.floorMod(minute, (long) MINUTES);
            if (minuteOf[slot] == minute && lots[slot] != 0) {
                out.writeLong(minute);
                out.writeLong(lots[slot]);
            }
        }
    }

    /**
     * Reads a window written by {@link #writeSnapshot} into this unused one.
     *
     * @throws IOException if the input ends early, or the minutes are not ascending inside the window, or a
     *                     bucket is not positive
     */
    void restoreSnapshot(final DataInput in) throws IOException {
        if (latestMinute != Long.MIN_VALUE) {
            throw new IllegalStateException("the volume window has counted trades already");
        }
        final long latest = in.readLong();
        final int buckets = in.readInt();
        if (latest == Long.MIN_VALUE ? buckets != 0 : latest < MIN_MINUTE || latest > MAX_MINUTE
                || buckets < 0 || buckets > MINUTES) {
            throw new IOException("volume window ending at minute " + latest + " with " + buckets + " buckets");
        }
        long previous = latest - MINUTES;
        for (int i = 0; i < buckets; i++) {
            final long minute = in.readLong();
            final long quantity = in.readLong();
            if (minute <= previous || minute > latest || quantity <= 0) {
                throw new IOException("volume bucket " + i + " of " + buckets + ": " + quantity + " lots at minute "
                        + minute + ", not ascending inside the window ending at minute " + latest);
            }
            final int slot = (int) Math.floorMod(minute, (long) MINUTES);
            minuteOf[slot] = minute;
            lots[slot] = quantity;
            try {
                total = Math.addExact(total, quantity);
            } catch (final ArithmeticException e) {
                throw new IOException("volume window total overflows", e);
            }
            previous = minute;
        }
        latestMinute = latest;
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
