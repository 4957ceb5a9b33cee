package io.orderentry.journal;

import io.orderentry.config.ConfigReader;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Where and how the journal writes. Read from the settings by {@link #from}; the constructor checks what the
 * journal's format needs.
 *
 * @param directory        the segment directory; created if missing
 * @param sync             whether a flush forces the data to the device
 * @param segmentSizeBytes a segment is rolled before a record would make it larger than this
 * @param writeBufferBytes size of the direct buffer that collects one group commit; a batch that does
 *                         not fit is written in several flushes
 */
public record JournalConfig(Path directory, JournalSync sync, long segmentSizeBytes, int writeBufferBytes) {

    /** Default segment size: 256 MiB. */
    public static final long DEFAULT_SEGMENT_SIZE = 256L * 1024 * 1024;
    /** Default write buffer: 1 MiB, several thousand records. */
    public static final int DEFAULT_WRITE_BUFFER = 1024 * 1024;
    /** Smallest segment size: a header and one record of the largest size. */
    public static final long MIN_SEGMENT_SIZE = JournalFormat.SEGMENT_HEADER_SIZE + JournalFormat.MAX_RECORD_SIZE;

    public JournalConfig {
        Objects.requireNonNull(directory, "directory");
        Objects.requireNonNull(sync, "sync");
        if (segmentSizeBytes < MIN_SEGMENT_SIZE) {
            throw new IllegalArgumentException("segmentSizeBytes must be >= " + MIN_SEGMENT_SIZE + ", was " + segmentSizeBytes);
        }
        if (writeBufferBytes < JournalFormat.MAX_RECORD_SIZE) {
            throw new IllegalArgumentException("writeBufferBytes must be >= " + JournalFormat.MAX_RECORD_SIZE
                    + ", was " + writeBufferBytes);
        }
    }

    /** @return fsync'd writes into {@code directory} with the default segment and buffer sizes */
    public static JournalConfig defaults(final Path directory) {
        return new JournalConfig(directory, JournalSync.FSYNC, DEFAULT_SEGMENT_SIZE, DEFAULT_WRITE_BUFFER);
    }

    /** @return the journal's settings: {@code journal.dir}, {@code journal.sync}, {@code journal.segment.bytes} */
    public static JournalConfig from(final ConfigReader settings) {
        return new JournalConfig(Path.of(settings.string("journal.dir")),
                settings.oneOf("journal.sync", JournalSync.FSYNC, JournalSync.NONE),
                settings.longValue("journal.segment.bytes", 1L << 20, 1L << 40), DEFAULT_WRITE_BUFFER);
    }
}
