package io.orderentry.marketdata;

import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * How many stream subscribers each event loop has per symbol and channel, so that the consumer hands
 * an update only to the loops that want it.
 *
 * <p>Threads: each event loop changes only its own counts; the consumer reads them. The handshake
 * that keeps a new subscriber gap-free: the loop increments its count and then reads the published
 * state for its snapshot; the consumer publishes a state and then reads the count. With both as
 * volatile accesses, every update is either in the snapshot or delivered (or both; the subscriber
 * skips what it already has).
 */
public final class SubscriberCounts {

    private final int symbols;
    private final AtomicIntegerArray counts;

    /**
     * @param loops   event loops, indexed from 0
     * @param symbols instruments, indexed from 0
     */
    public SubscriberCounts(final int loops, final int symbols) {
        this.symbols = symbols;
        this.counts = new AtomicIntegerArray(loops * symbols * Channel.COUNT);
    }

    /** Called on event loop {@code loop} before it reads the state for a snapshot. */
    public void increment(final int loop, final int symbol, final Channel channel) {
        counts.incrementAndGet(index(loop, symbol, channel));
    }

    /** Called on event loop {@code loop} when a subscription ends. */
    public void decrement(final int loop, final int symbol, final Channel channel) {
        if (counts.decrementAndGet(index(loop, symbol, channel)) < 0) {
            throw new IllegalStateException("more unsubscribes than subscribes on loop " + loop);
        }
    }

    /** @return subscribers of one loop to one symbol's channel */
    public int get(final int loop, final int symbol, final Channel channel) {
        return counts.get(index(loop, symbol, channel));
    }

    /** @return subscriptions across every loop, symbol and channel; for metrics */
    public long total() {
        long total = 0;
        for (int i = 0; i < counts.length(); i++) {
            total += counts.get(i);
        }
        return total;
    }

    private int index(final int loop, final int symbol, final Channel channel) {
        return (loop * symbols + symbol) * Channel.COUNT + channel.ordinal();
    }
}
