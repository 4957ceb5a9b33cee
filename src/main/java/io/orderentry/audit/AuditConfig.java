package io.orderentry.audit;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Where and how the audit trail is written. Immutable; validated on construction.
 *
 * @param directory    the trail's directory, created if missing
 * @param maxFileBytes a file is closed and the next one started before it would grow beyond this; a single
 *                     record larger than this still gets a file of its own
 * @param sync         whether each batch is forced to the device before replies are released
 */
public record AuditConfig(Path directory, long maxFileBytes, AuditSync sync) {

    /** Smallest accepted {@link #maxFileBytes}: room for a few records of the largest size. */
    public static final long MIN_FILE_BYTES = 4096;
    /** Default {@link #maxFileBytes}: 64 MiB. */
    public static final long DEFAULT_FILE_BYTES = 64L << 20;

    public AuditConfig {
        Objects.requireNonNull(directory, "directory");
        Objects.requireNonNull(sync, "sync");
        if (maxFileBytes < MIN_FILE_BYTES) {
            throw new IllegalArgumentException("maxFileBytes must be at least " + MIN_FILE_BYTES + ", was "
                    + maxFileBytes);
        }
    }
}
