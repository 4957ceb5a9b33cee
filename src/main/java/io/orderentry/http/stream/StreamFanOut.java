package io.orderentry.http.stream;

import com.fasterxml.jackson.core.JsonFactory;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.orderentry.http.json.MarketDataJson;
import io.orderentry.instrument.Instrument;
import io.orderentry.marketdata.BookUpdate;
import io.orderentry.marketdata.Channel;
import io.orderentry.marketdata.StreamTarget;
import io.orderentry.marketdata.StreamUpdate;
import io.orderentry.marketdata.Ticker;
import io.orderentry.marketdata.TradeBatch;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.LockSupport;

/**
 * The WebSocket fan-out as the market data consumer sees it. Each update of a batch is rendered once, on
 * the consumer thread, into a complete WebSocket frame, and, while any connection negotiated permessage-deflate,
 * compressed once into a second frame for all of those ({@link PerMessageDeflate}); the event loops that have subscribers to any of them
 * get the frames, and each connection receives everything of the batch it subscribed to in one write (see
 * {@link StreamSession#deliver}). The consumer then waits until every loop has written the batch
 * ({@link #awaitDelivered}), so that the events arriving meanwhile leave as the next batch, in one update per
 * channel; and if that round of writes cost the loops more than {@code ws.fanout.cpu.percent} of a core, it waits
 * on until it does not. The fan-out's share of the event loops is so bounded whatever the order rate and the
 * number of subscribers: more subscribers make rounds rarer and larger, never more frequent.
 *
 * <p>Threads: {@link #deliver} and {@link #awaitDelivered} on the market data consumer thread; {@link #register}
 * on each event loop at start; {@link #written} on the event loops.
 */
public final class StreamFanOut implements StreamTarget {

    /**
     * One update, rendered once, as it goes to every subscriber of its slot: read-only direct buffers that every
     * connection's write shares (as duplicates), so its bytes are not copied per subscriber. {@code bytes} is the
     * plain frame; {@code deflated} the same message compressed once for the connections that negotiated
     * permessage-deflate, or null (none did, or it did not get shorter). Each loop handed it holds one reference to
     * each until its round is written.
     */
    record Frame(int slot, long sequence, ByteBuf bytes, ByteBuf deflated) {

        /** @return the bytes for a connection that does, or does not, take compressed messages */
        ByteBuf bytesFor(final boolean compressing) {
            return compressing && deflated != null ? deflated : bytes;
        }
    }

    /** zlib's level for updates: compressed once per update, not per subscriber, so the default level costs little. */
    static final int DEFLATE_LEVEL = 6;

    private final AtomicReferenceArray<StreamHub> hubs;
    private final MarketDataJson json;
    private final StreamMetrics metrics;
    private final AtomicInteger loopsWriting = new AtomicInteger();
    private final AtomicLong roundCpuNanos = new AtomicLong();
    private final PerMessageDeflate deflate = new PerMessageDeflate(DEFLATE_LEVEL);
    private final double cpuShare;
    private volatile Thread waiter;
    private long roundStartNanos;

    /**
     * @param instruments indexed by {@link Instrument#index()}
     * @param loops       event loops, indexed from 0
     * @param cpuPercent  the share of one core the event loops may spend writing to subscribers, on average
     */
    public StreamFanOut(final List<Instrument> instruments, final int loops, final StreamMetrics metrics,
                        final int cpuPercent) {
        if (cpuPercent < 1 || cpuPercent > 100) {
            throw new IllegalArgumentException("cpuPercent must be 1..100, was " + cpuPercent);
        }
        this.cpuShare = cpuPercent / 100.0;
        this.hubs = new AtomicReferenceArray<>(loops);
        this.json = new MarketDataJson(new JsonFactory(), instruments);
        this.metrics = metrics;
    }

    /** Called by each loop's hub before it accepts subscribers. */
    void register(final int loop, final StreamHub hub) {
        hubs.set(loop, hub);
    }

    @Override
    public void deliver(final List<StreamUpdate> updates, final long batchStartNanos) {
        roundStartNanos = System.nanoTime();
        final Frame[] frames = new Frame[updates.size()];
        try {
            final boolean compress = metrics.deflateClients() > 0;
            for (int i = 0; i < frames.length; i++) {
                final StreamUpdate update = updates.get(i);
                final byte[] message = render(update).getBytes(StandardCharsets.UTF_8);
                final byte[] compressed = compress ? deflate.compress(message) : null;
                frames[i] = new Frame(update.symbol() * Channel.COUNT + update.channel().ordinal(), update.sequence(),
                        shared(StreamFrames.frames(message, false)),
                        compressed == null ? null : shared(StreamFrames.frames(compressed, true)));
            }
            for (int loop = 0; loop < hubs.length(); loop++) {
                final StreamHub hub = hubs.get(loop);
                if (hub != null && hub.wants(frames)) {
                    loopsWriting.incrementAndGet();
                    try {
                        hub.deliver(frames, batchStartNanos);
                    } catch (final RuntimeException e) {
                        loopsWriting.decrementAndGet();
                        throw e;
                    }
                }
            }
        } finally {
            release(frames);
        }
    }

    /**
     * Waits until the loops have written the round, then, if the round cost the loops more CPU than their share
     * allows for the time since it started, on until it does: the next round starts no earlier than its CPU divided
     * by the share after this one started. Never longer than {@code maxNanos} from the start of the round.
     */
    @Override
    public void awaitDelivered(final long maxNanos) {
        final long deadline = roundStartNanos + maxNanos;
        waiter = Thread.currentThread();
        try {
            while (loopsWriting.get() > 0) {
                final long left = deadline - System.nanoTime();
                if (left <= 0) {
                    metrics.deliveryWaitExpired();
                    return;
                }
                LockSupport.parkNanos(this, left);
            }
        } finally {
            waiter = null;
        }
        final long paced = Math.min(deadline, roundStartNanos + (long) (roundCpuNanos.getAndSet(0) / cpuShare));
        for (long left = paced - System.nanoTime(); left > 0; left = paced - System.nanoTime()) {
            LockSupport.parkNanos(this, left);
        }
    }

    private static ByteBuf shared(final byte[] frame) {
        return Unpooled.directBuffer(frame.length).writeBytes(frame).asReadOnly();
    }

    /** A loop's CPU for writing its part of the current round. */
    void roundCpu(final long nanos) {
        roundCpuNanos.addAndGet(nanos);
    }

    /** A loop has written (or dropped) a batch it was handed. */
    void written() {
        if (loopsWriting.decrementAndGet() == 0) {
            final Thread waiting = waiter;
            if (waiting != null) {
                LockSupport.unpark(waiting);
            }
        }
    }

    /** Drops one reference to each frame's buffer. */
    static void release(final Frame[] frames) {
        for (final Frame frame : frames) {
            if (frame != null) {
                frame.bytes().release();
                if (frame.deflated() != null) {
                    frame.deflated().release();
                }
            }
        }
    }

    /** Takes one more reference to each frame's buffer. */
    static void retain(final Frame[] frames) {
        for (final Frame frame : frames) {
            frame.bytes().retain();
            if (frame.deflated() != null) {
                frame.deflated().retain();
            }
        }
    }

    private String render(final StreamUpdate update) {
        return switch (update.channel()) {
            case BOOK -> json.bookUpdate((BookUpdate) update);
            case TRADES -> json.tradesUpdate((TradeBatch) update);
            case TICKER -> json.ticker((Ticker) update, false);
        };
    }
}
