package io.orderentry.snapshot;

import java.nio.file.Path;

/**
 * When and where snapshots are written.
 *
 * @param directory      where the snapshot files live
 * @param everyCommands  write one after this many journaled commands since the last; 0: not by count
 * @param intervalMillis write one after this long if any command was journaled since the last; 0: not by time
 * @param keep           snapshots kept; older ones are deleted
 * @param onShutdown     write one at a graceful stop
 * @param enabled        false: neither written nor loaded (every start replays the whole journal)
 */
public record SnapshotConfig(Path directory, long everyCommands, long intervalMillis, int keep, boolean onShutdown,
                             boolean enabled) {

    public SnapshotConfig {
        if (everyCommands < 0 || intervalMillis < 0 || keep < 1) {
            throw new IllegalArgumentException("everyCommands and intervalMillis must be >= 0, keep >= 1");
        }
    }
}
