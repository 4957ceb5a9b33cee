package io.orderentry.journal;

import java.nio.file.Path;

/**
 * What {@link JournalReader#recover} found. Hand it to {@link JournalWriter#open} to continue appending.
 *
 * @param directory           the journal directory
 * @param lastSequence        sequence of the last good record; 0 for an empty journal
 * @param lastTimestampMicros timestamp of the last good record; 0 for an empty journal
 * @param recordCount         records replayed
 * @param bytesRead           bytes of segment files read
 * @param elapsedNanos        time spent reading, checking and replaying
 * @param segmentCount        segment files read
 * @param lastSegment         the segment to append to, or null when there is none yet
 * @param truncatedTail       the torn record that was cut off the last segment, or null if the tail was clean
 */
public record JournalRecovery(Path directory, long lastSequence, long lastTimestampMicros, long recordCount,
                              long bytesRead, long elapsedNanos, int segmentCount, Path lastSegment,
                              TruncatedTail truncatedTail) {

    /** @return records replayed per second, for the startup log line */
    public double recordsPerSecond() {
        return elapsedNanos == 0 ? 0 : recordCount * 1e9 / elapsedNanos;
    }

    /** @return milliseconds spent in recovery */
    public double elapsedMillis() {
        return elapsedNanos / 1e6;
    }
}
