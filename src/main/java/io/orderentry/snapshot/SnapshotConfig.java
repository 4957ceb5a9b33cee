package io.orderentry.snapshot;

import io.orderentry.journal.JournalRetention;
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
 * @param retention      what happens to journal segments no kept snapshot needs
 * @param archive        where archived segments go
 * @param writeBytesPerSecond the most bytes a second a snapshot is written at; 0: as fast as the disk takes them
 */
public record SnapshotConfig(Path directory, long everyCommands, long intervalMillis, int keep, boolean onShutdown,
                             boolean enabled, JournalRetention.Mode retention, Path archive,
                             long writeBytesPerSecond) {

    public SnapshotConfig {
        if (everyCommands < 0 || intervalMillis < 0 || keep < 1 || writeBytesPerSecond < 0) {
            throw new IllegalArgumentException("everyCommands, intervalMillis and writeBytesPerSecond must be >= 0,"
                    + " keep >= 1");
        }
    }
}
