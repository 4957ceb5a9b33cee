package io.orderentry.audit;

import io.orderentry.config.ConfigException;
import io.orderentry.config.ConfigReader;
import io.orderentry.config.SettingNames;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Where and how the audit trail is written, and how long its files stay. Immutable; read and checked by
 * {@link #from}.
 *
 * @param directory     the trail's directory, created if missing
 * @param maxFileBytes  a file is closed and the next one started before it would grow beyond this; a single
 *                      record larger than this still gets a file of its own
 * @param sync          whether each batch is forced to the device before replies are released
 * @param retentionDays files written more than this many UTC days ago are archived ({@link AuditArchiver}); 0 keeps
 *                      all
 * @param archive       where they go, compressed
 */
public record AuditConfig(Path directory, long maxFileBytes, AuditSync sync, int retentionDays, Path archive) {

    /** Smallest accepted {@link #maxFileBytes}: room for a few records of the largest size. */
    public static final long MIN_FILE_BYTES = 4096;
    /** Default {@link #maxFileBytes}: 64 MiB. */
    public static final long DEFAULT_FILE_BYTES = 64L << 20;
    /** The archive's directory beside the trail's when {@code audit.archive.dir} is empty. */
    private static final String DEFAULT_ARCHIVE = "audit-archive";

    public AuditConfig {
        Objects.requireNonNull(directory, "directory");
        Objects.requireNonNull(sync, "sync");
        Objects.requireNonNull(archive, "archive");
        if (maxFileBytes < MIN_FILE_BYTES) {
            throw new IllegalArgumentException("maxFileBytes must be at least " + MIN_FILE_BYTES + ", was "
                    + maxFileBytes);
        }
        if (retentionDays < 0) {
            throw new IllegalArgumentException("retentionDays must be >= 0, was " + retentionDays);
        }
    }

    /** As the canonical constructor, with every file kept and the archive beside the trail's directory. */
    public AuditConfig(final Path directory, final long maxFileBytes, final AuditSync sync) {
        this(directory, maxFileBytes, sync, 0, ConfigReader.parentOf(directory).resolve(DEFAULT_ARCHIVE));
    }

    /** @return the trail's settings: {@code audit.dir}, {@code audit.max.file.bytes}, {@code audit.sync}, retention */
    public static AuditConfig from(final ConfigReader settings) {
        final String dir = settings.string("audit.dir");
        if (dir.isEmpty()) {
            throw new ConfigException(SettingNames.envName("audit.dir")
                    + " must name a directory; the audit trail cannot be disabled");
        }
        return new AuditConfig(Path.of(dir), settings.longValue("audit.max.file.bytes", MIN_FILE_BYTES, 1L << 40),
                settings.oneOf("audit.sync", AuditSync.FSYNC, AuditSync.NONE),
                settings.intValue("audit.retention.days", 0, 100_000),
                settings.directoryOr("audit.archive.dir", "audit.dir", DEFAULT_ARCHIVE));
    }
}
