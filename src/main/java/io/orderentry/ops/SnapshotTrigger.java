package io.orderentry.ops;

import java.util.Map;
import java.util.concurrent.CompletionStage;

/** What {@code POST /admin/snapshot} asks of the service: a snapshot of everything journaled so far. */
public interface SnapshotTrigger {

    /**
     * @return completes with what to answer (file, journal sequence, size) once the snapshot is on disk; fails with
     *         {@link IllegalStateException} when snapshots are off or have stopped, and with the cause when the write
     *         failed
     */
    CompletionStage<Map<String, Object>> snapshot();
}
