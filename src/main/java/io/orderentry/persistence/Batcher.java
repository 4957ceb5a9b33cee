package io.orderentry.persistence;

import io.orderentry.pipeline.EngineEvent;
import java.io.IOException;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.function.LongSupplier;

/**
 * The batching rule: take the events available from the source and write them as one batch when the
 * batch is full ({@code maxEvents}) or its first event has waited {@code maxDelayNanos}, whichever
 * comes first. An empty period writes nothing. Events already stored (at or below the high-water
 * mark) are skipped. Batches go to the {@link Lanes}, up to one per lane in flight; a batch whose
 * write failed is kept as it is and offered again, in order and before any newer batch, by the next
 * {@link #poll}, less any events the database has meanwhile been found to hold.
 *
 * <p>Threads: owned by the persistence writer thread; the clock is injected so tests can drive time.
 */
final class Batcher {

    private final EventSource source;
    private final Lanes lanes;
    private final int maxEvents;
    private final long maxDelayNanos;
    private final LongSupplier nanoClock;
    private final ArrayDeque<EventBatch> retry = new ArrayDeque<>();
    private final ArrayDeque<EventBatch> spare = new ArrayDeque<>();
    private final Lanes.Committed onCommitted;
    private EventBatch filling;

    private boolean submitting = true;
    private long firstEventNanos;
    private long lastWrittenMicros;
    private Lanes.Committed listener = (batch, nanos) -> { };

    /**
     * A batcher over one sink written on the caller's thread.
     *
     * @param maxEvents     most events in one batch
     * @param maxDelayNanos longest a partial batch waits for more events
     * @param nanoClock     monotonic time in nanoseconds, e.g. {@code System::nanoTime}
     */
    Batcher(final EventSource source, final BatchSink sink, final int maxEvents, final long maxDelayNanos,
            final LongSupplier nanoClock) {
        this(source, Lanes.inline(sink, nanoClock), maxEvents, maxDelayNanos, nanoClock);
    }

    /** A batcher that writes through {@code lanes}, one batch per lane at a time. */
    Batcher(final EventSource source, final Lanes lanes, final int maxEvents, final long maxDelayNanos,
            final LongSupplier nanoClock) {
        if (maxDelayNanos <= 0) {
            throw new IllegalArgumentException("the batch delay must be > 0");
        }
        this.source = source;
        this.lanes = lanes;
        this.maxEvents = maxEvents;
        this.filling = new EventBatch(maxEvents);
        this.maxDelayNanos = maxDelayNanos;
        this.nanoClock = nanoClock;
        this.onCommitted = (batch, nanos) -> {
            lastWrittenMicros = batch.get(batch.size() - 1).timestampMicros;
            listener.batch(batch, nanos);
            batch.clear();
            spare.addLast(batch);
        };
    }

    /** @param listener told of every committed batch, in order, before its slots are reused */
    void onCommitted(final Lanes.Committed listener) {
        this.listener = listener;
    }

    /**
     * Cluster mode, on a member that does not lead: {@code false} stops submitting batches. {@link #poll} then only
     * collects what is in flight and reads the source past the events stored, so that its spool can be deleted.
     */
    void submitting(final boolean submit) {
        this.submitting = submit;
    }

    /**
     * Collects finished batches, offers failed ones again, takes what the source has now and submits the
     * batch if it is full or due and a lane is free.
     *
     * @param force submit a non-empty batch even if it is neither full nor due (at shutdown)
     * @return how many events were committed by the batches collected in this call; 0 if none
     * @throws SQLException when a write failed; its batch, and those after it, are kept for the next calls
     */
    int poll(final boolean force) throws IOException, SQLException {
        int written = lanes.reap(onCommitted, retry::addLast);
        if (!resubmit()) {
            return written;
        }
        filling.dropThrough(lanes.persistedSequence());
        fill();
        if (submitting && !filling.isEmpty() && (force || filling.isFull() || nanosUntilDue() == 0)
                && lanes.canSubmit()) {
            final EventBatch submitted = filling;
            filling = spare.isEmpty() ? new EventBatch(maxEvents) : spare.removeFirst();
            lanes.submit(submitted);
        }
        written += lanes.reap(onCommitted, retry::addLast);
        return written;
    }

    /** Offers kept batches again, oldest first; @return true when none is left waiting for a lane. */
    private boolean resubmit() {
        while (!retry.isEmpty()) {
            final EventBatch batch = retry.peekFirst();
            batch.dropThrough(lanes.persistedSequence());
            if (batch.isEmpty()) {
                spare.addLast(retry.removeFirst());
                continue;
            }
            if (!submitting || !lanes.canSubmit()) {
                return false;
            }
            lanes.submit(retry.removeFirst());
        }
        return true;
    }

    /** @return nanoseconds until the pending batch is due, 0 if due now, {@code maxDelayNanos} if empty */
    long nanosUntilDue() {
        if (filling.isEmpty()) {
            return maxDelayNanos;
        }
        return Math.max(0, firstEventNanos + maxDelayNanos - nanoClock.getAsLong());
    }

    /**
     * @return how long the writer may sleep before {@link #poll} has work: until the pending batch is due, or,
     *         while no lane is free, {@code maxDelayNanos} (a lane that finishes wakes the writer); never 0 while
     *         a due batch waits for a lane, so the writer does not spin through a slow write
     */
    long nanosToSleep() {
        return lanes.canSubmit() ? nanosUntilDue() : maxDelayNanos;
    }

    /** @return events taken from the source and not yet committed: being filled, in flight or kept to retry */
    int pendingEvents() {
        int events = filling.size() + lanes.inFlightEvents();
        for (final EventBatch batch : retry) {
            events += batch.size();
        }
        return events;
    }

    /** @return the engine timestamp of the oldest pending event, or 0 when none is pending */
    long oldestPendingMicros() {
        if (!retry.isEmpty()) {
            return retry.peekFirst().get(0).timestampMicros;
        }
        final long inFlight = lanes.oldestInFlightMicros();
        if (inFlight != 0) {
            return inFlight;
        }
        return filling.isEmpty() ? 0 : filling.get(0).timestampMicros;
    }

    /** @return the engine timestamp of the last event written, or 0 before the first write */
    long lastWrittenMicros() {
        return lastWrittenMicros;
    }

    /**
     * Takes what the source has now into the batch being filled without writing it, so that the oldest
     * pending event is known while the database is away. Skips events at or below the high-water mark.
     */
    void fill() throws IOException {
        while (!filling.isFull()) {
            final EngineEvent slot = filling.slot();
            if (!source.next(slot)) {
                return;
            }
            if (slot.eventSequence > lanes.persistedSequence()) {
                if (filling.isEmpty()) {
                    firstEventNanos = nanoClock.getAsLong();
                }
                filling.commitSlot();
            }
        }
    }
}
