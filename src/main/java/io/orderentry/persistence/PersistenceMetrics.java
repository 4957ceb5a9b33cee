package io.orderentry.persistence;

/**
 * Figures of the persistence writer for {@code /metrics}. Written only by the writer thread (plain
 * read-modify-write on volatile fields is safe with one writer) and read by any thread.
 */
public final class PersistenceMetrics {

    private volatile long batches;
    private volatile long events;
    private volatile long writeNanos;
    private volatile long lastBatchEvents;
    private volatile long lastBatchNanos;
    private volatile long maxBatchNanos;
    private volatile long failures;
    private volatile long outages;
    private volatile long catchUps;
    private volatile long lastCatchUpEvents;
    private volatile long lastCatchUpNanos;

    /** Called on the writer thread after each committed batch. */
    void recordBatch(final int size, final long nanos) {
        batches = batches + 1;
        events = events + size;
        writeNanos = writeNanos + nanos;
        lastBatchEvents = size;
        lastBatchNanos = nanos;
        if (nanos > maxBatchNanos) {
            maxBatchNanos = nanos;
        }
    }

    /** Called on the writer thread for each failed connection attempt or batch write. */
    void recordFailure() {
        failures = failures + 1;
    }

    /** Called on the writer thread when a working database stops answering. */
    void recordOutage() {
        outages = outages + 1;
    }

    /** Called on the writer thread when a backlog has been written completely. */
    void recordCatchUp(final long caughtUpEvents, final long nanos) {
        catchUps = catchUps + 1;
        lastCatchUpEvents = caughtUpEvents;
        lastCatchUpNanos = nanos;
    }

    /** @return batches committed since start */
    public long batches() {
        return batches;
    }

    /** @return events committed since start */
    public long events() {
        return events;
    }

    /** @return time spent writing committed batches, in nanoseconds */
    public long writeNanos() {
        return writeNanos;
    }

    /** @return events in the last committed batch */
    public long lastBatchEvents() {
        return lastBatchEvents;
    }

    /** @return how long the last committed batch took to write, in nanoseconds */
    public long lastBatchNanos() {
        return lastBatchNanos;
    }

    /** @return the longest batch write since start, in nanoseconds */
    public long maxBatchNanos() {
        return maxBatchNanos;
    }

    /** @return failed connection attempts and batch writes since start */
    public long failures() {
        return failures;
    }

    /** @return times the database went away after having worked */
    public long outages() {
        return outages;
    }

    /** @return backlogs (after an outage or at startup) written completely */
    public long catchUps() {
        return catchUps;
    }

    /** @return events written by the last catch-up */
    public long lastCatchUpEvents() {
        return lastCatchUpEvents;
    }

    /** @return how long the last catch-up took, in nanoseconds */
    public long lastCatchUpNanos() {
        return lastCatchUpNanos;
    }
}
