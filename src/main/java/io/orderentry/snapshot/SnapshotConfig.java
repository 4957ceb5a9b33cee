package io.orderentry.snapshot;

import io.orderentry.config.ConfigException;
import io.orderentry.config.ConfigReader;
import io.orderentry.config.SettingNames;
import io.orderentry.journal.JournalRetention;
import java.nio.file.Path;

/**
 * When and where snapshots are written, and what becomes of the journal segments they replace. Read from the
 * settings by {@link #from}.
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

    /**
     * @return the snapshots' settings ({@code snapshot.*}, {@code journal.retention}, {@code journal.archive.dir}); the
     *     directory and the archive default to {@code snapshots} and {@code journal-archive} beside the journal's
     */
    public static SnapshotConfig from(final ConfigReader settings) {
        final Path directory = settings.directoryOr("snapshot.dir", "journal.dir", "snapshots");
        if (directory.toAbsolutePath().normalize().equals(Path.of(settings.string("journal.dir")).toAbsolutePath()
                .normalize())) {
            throw new ConfigException(SettingNames.envName("snapshot.dir") + " must not be the journal directory");
        }
        return new SnapshotConfig(directory,
                settings.longValue("snapshot.every.commands", 0, Long.MAX_VALUE),
                settings.longValue("snapshot.interval.seconds", 0, 31_536_000) * 1000,
                settings.intValue("snapshot.keep", 1, 1000),
                settings.bool("snapshot.on.shutdown"),
                settings.bool("snapshot.enabled"),
                settings.oneOf("journal.retention", JournalRetention.Mode.KEEP, JournalRetention.Mode.DELETE,
                        JournalRetention.Mode.ARCHIVE),
                settings.directoryOr("journal.archive.dir", "journal.dir", "journal-archive"),
                settings.longValue("snapshot.write.mb.per.second", 0, 100_000) << 20);
    }
}
