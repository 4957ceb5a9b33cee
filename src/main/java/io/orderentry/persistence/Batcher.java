package io.orderentry.persistence;

import io.orderentry.pipeline.EngineEvent;
import java.io.IOException;
import java.sql.SQLException;
import java.util.function.LongSupplier;

/**
 * The batching rule: take the events available from the source and write them as one batch when the
 * batch is full ({@code maxEvents}) or its first event has waited {@code maxDelayNanos}, whichever
 * comes first. An empty period writes nothing. Events already stored (at or below the sink's
 * high-water mark) are skipped. A batch whose write failed is kept as it is and offered again by the
 * next {@link #poll}, less any events the sink has meanwhile found stored.
 *
 * <p>Threads: owned by the persistence writer thread; the clock is injected so tests can drive time.
 */
final class Batcher {

    private final EventSource source;
    private final BatchSink sink;
    private final EventBatch batch;
    private final long maxDelayNanos;
    private final LongSupplier nanoClock;

    private long firstEventNanos;
    private long lastWriteNanos;
    private long lastWrittenMicros;

    /**
     * @param maxEvents     most events in one batch
     * @param maxDelayNanos longest a partial batch waits for more events
     * @param nanoClock     monotonic time in nanoseconds, e.g. {@code System::nanoTime}
     */
    Batcher(final EventSource source, final BatchSink sink, final int maxEvents, final long maxDelayNanos,
            final LongSupplier nanoClock) {
        if (maxDelayNanos <= 0) {
            throw new IllegalArgumentException("the batch delay must be > 0");
        }
        this.source = source;
        this.sink = sink;
        this.batch = new EventBatch(maxEvents);
        this.maxDelayNanos = maxDelayNanos;
        this.nanoClock = nanoClock;
    }

    /**
     * Takes what the source has now and writes the batch if it is full or due.
     *
     * @param force write a non-empty batch even if it is neither full nor due (at shutdown)
     * @return how many events were written by this call; 0 if none
     * @throws SQLException when the write failed; the batch is kept for the next call
     */
    int poll(final boolean force) throws IOException, SQLException {
        batch.dropThrough(sink.persistedSequence());
        fill();
        if (batch.isEmpty() || !(force || batch.isFull() || nanosUntilDue() == 0)) {
            return 0;
        }
        final long start = nanoClock.getAsLong();
        sink.write(batch);
        lastWriteNanos = nanoClock.getAsLong() - start;
        lastWrittenMicros = batch.get(batch.size() - 1).timestampMicros;
        final int written = batch.size();
        batch.clear();
        return written;
    }

    /** @return nanoseconds until the pending batch is due, 0 if due now, {@code maxDelayNanos} if empty */
    long nanosUntilDue() {
        if (batch.isEmpty()) {
            return maxDelayNanos;
        }
        return Math.max(0, firstEventNanos + maxDelayNanos - nanoClock.getAsLong());
    }

    /** @return events taken from the source and not yet written */
    int pendingEvents() {
        return batch.size();
    }

    /** @return the engine timestamp of the oldest pending event, or 0 when none is pending */
    long oldestPendingMicros() {
        return batch.isEmpty() ? 0 : batch.get(0).timestampMicros;
    }

    /** @return how long the last successful write took, in nanoseconds */
    long lastWriteNanos() {
        return lastWriteNanos;
    }

    /** @return the engine timestamp of the last event written, or 0 before the first write */
    long lastWrittenMicros() {
        return lastWrittenMicros;
    }

    /**
     * Takes what the source has now into the pending batch without writing it, so that the oldest
     * pending event is known while the sink is away. Skips events at or below the sink's high-water mark.
     */
    void fill() throws IOException {
        while (!batch.isFull()) {
            final EngineEvent slot = batch.slot();
            if (!source.next(slot)) {
                return;
            }
            if (slot.eventSequence > sink.persistedSequence()) {
                if (batch.isEmpty()) {
                    firstEventNanos = nanoClock.getAsLong();
                }
                batch.commitSlot();
            }
        }
    }
}
