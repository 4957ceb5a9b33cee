package io.orderentry.app;

import io.orderentry.ops.MetricsText;

/**
 * What this start recovered from, for {@code /metrics}: the journal sequence of the snapshot it loaded and the journal
 * records it replayed after it (a cluster member reports the snapshot it loaded; its log is replayed as it comes).
 *
 * <p>Threads: set by the starting thread, read by {@code /metrics}' renderer.
 */
final class RecoveryFigures {

    private volatile long snapshotSequence;
    private volatile long replayedRecords;

    /** A single node's recovery: the snapshot it loaded (0: none) and the records it replayed after it. */
    void fromJournal(final long snapshotSequence, final long replayedRecords) {
        this.snapshotSequence = snapshotSequence;
        this.replayedRecords = replayedRecords;
    }

    /** A cluster member's: the snapshot it loaded (0: none). */
    void fromSnapshot(final long snapshotSequence) {
        this.snapshotSequence = snapshotSequence;
    }

    void register(final MetricsText metrics) {
        metrics.gauge("orders_recovery_snapshot_sequence",
                "Journal sequence of the snapshot this start loaded (0: none)",
                () -> snapshotSequence);
        metrics.gauge("orders_recovery_replayed_records", "Journal records this start replayed", () -> replayedRecords);
    }
}
