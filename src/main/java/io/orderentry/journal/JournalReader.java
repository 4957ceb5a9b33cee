package io.orderentry.journal;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Recovery: reads every segment of a journal in order, verifies it and replays it. Called once at startup,
 * on the starting thread, before the {@link JournalWriter} is opened and before the input ring runs.
 */
public final class JournalReader {

    /** Bytes read from a segment file per read call. */
    static final int READ_BUFFER_BYTES = 4 * 1024 * 1024;

    private JournalReader() {
    }

    /**
     * Reads all segments of {@code directory} (created if missing) in sequence order, checks every record's
     * length, CRC32C, sequence (1, 2, 3, ... without gaps) and timestamp (never decreasing), and hands each
     * decoded command to {@code consumer}.
     *
     * <p>A torn record at the end of the last segment (the file ends inside it; or its CRC fails, fewer than
     * {@link JournalFormat#MAX_RECORD_SIZE} bytes remain from it and no valid record follows it; or every byte
     * from it to the end is zero) is cut off: the file is truncated to the last good record and forced, and
     * the cut is reported in {@link JournalRecovery#truncatedTail()} for the caller to log as a warning.
     * Any other damage throws and changes nothing on disk; the commands replayed before the damage have
     * been handed to the consumer by then, so the caller must not start.
     *
     * @param directory   the journal directory
     * @param symbolIndex configured instrument name to index
     * @param consumer    receives each command, in sequence order
     * @return the position to continue from, and figures for the startup log
     * @throws JournalCorruptedException on damage other than a torn tail; names the file and byte offset
     * @throws UnknownSymbolException    if a record names an instrument that is no longer configured
     * @throws IOException               if a file cannot be read or the torn tail cannot be cut
     */
    public static JournalRecovery recover(final Path directory, final Map<String, Integer> symbolIndex,
                                          final RecordConsumer consumer) throws IOException {
        return recover(directory, symbolIndex, JournalPosition.START, consumer);
    }

    /**
     * {@link #recover(Path, Map, RecordConsumer)} from a position (a snapshot's): the segments before the one holding
     * {@code from} are not read, and that one is read from {@code from}'s offset. The records before {@code from}
     * are therefore neither checked nor replayed.
     *
     * @throws JournalCorruptedException if the journal does not reach {@code from}: the segment is missing, or
     *                                   shorter than the offset
     */
    public static JournalRecovery recover(final Path directory, final Map<String, Integer> symbolIndex,
                                          final JournalPosition from, final RecordConsumer consumer)
            throws IOException {
        return recover(directory, symbolIndex, from, 0, consumer);
    }

    /**
     * {@link #recover(Path, Map, JournalPosition, RecordConsumer)}, decoding who asked (request id, address, key id)
     * only for the records above {@code originAfter}: the service's replay needs it only for the commands its audit
     * trail lacks, and the three strings a record would allocate are most of what format 2 adds to a replay's cost.
     *
     * @param originAfter the highest sequence whose command is handed over without who asked ({@code Long.MAX_VALUE}:
     *                    none has it; 0: every one has it)
     */
    public static JournalRecovery recover(final Path directory, final Map<String, Integer> symbolIndex,
                                          final JournalPosition from, final long originAfter,
                                          final RecordConsumer consumer) throws IOException {
        Objects.requireNonNull(consumer, "consumer");
        final long started = System.nanoTime();
        Files.createDirectories(directory);
        final List<Path> all = SegmentFiles.list(directory);
        final List<Path> segments = fromSegment(directory, all, from);
        final SegmentScanner scanner = new SegmentScanner(new SymbolLookup(symbolIndex), READ_BUFFER_BYTES);
        scanner.decodeOriginAfter(originAfter);
        long lastSequence = from.sequence();
        long lastTimestamp = from.timestampMicros();
        long records = 0;
        long bytes = 0;
        TruncatedTail truncatedTail = null;
        for (int i = 0; i < segments.size(); i++) {
            final boolean last = i == segments.size() - 1;
            final long offset = i == 0 ? from.offset() : JournalFormat.SEGMENT_HEADER_SIZE;
            scanner.scan(segments.get(i), offset, last, lastSequence, lastTimestamp, Long.MAX_VALUE, consumer);
            lastSequence = scanner.lastSequence();
            lastTimestamp = scanner.lastTimestampMicros();
            records += scanner.records();
            bytes += scanner.fileSize() - offset;
            truncatedTail = scanner.truncatedTail();
        }
        if (truncatedTail != null) {
            cut(truncatedTail);
        }
        final Path lastSegment = segments.isEmpty() ? null : segments.get(segments.size() - 1);
        return new JournalRecovery(directory, lastSequence, lastTimestamp, records, bytes,
                System.nanoTime() - started, segments.size(), lastSegment, truncatedTail);
    }

    /** @return the segments from the one holding {@code from} on; all of them for the start of the journal */
    private static List<Path> fromSegment(final Path directory, final List<Path> all, final JournalPosition from)
            throws JournalCorruptedException {
        if (from.sequence() == 0) {
            return all;
        }
        for (int i = 0; i < all.size(); i++) {
            if (SegmentFiles.firstSequenceOf(all.get(i)) == from.segmentFirstSequence()) {
                return all.subList(i, all.size());
            }
        }
        final Path expected = SegmentFiles.segmentPath(directory, from.segmentFirstSequence());
        throw new JournalCorruptedException(expected, from.offset(), "the journal has no segment " + expected.getFileName()
                + ", which holds the records after sequence " + from.sequence() + " (the snapshot's position)");
    }

    /** @return the first sequence of the oldest segment in {@code directory}, 0 when there is none */
    public static long firstSegmentSequence(final Path directory) throws IOException {
        if (!Files.isDirectory(directory)) {
            return 0;
        }
        final List<Path> segments = SegmentFiles.list(directory);
        return segments.isEmpty() ? 0 : SegmentFiles.firstSequenceOf(segments.get(0));
    }

    /** @return whether {@code directory} holds at least one segment file (a missing directory holds none) */
    public static boolean hasSegments(final Path directory) throws IOException {
        return Files.isDirectory(directory) && !SegmentFiles.list(directory).isEmpty();
    }

    private static void cut(final TruncatedTail tail) throws IOException {
        try (FileChannel channel = FileChannel.open(tail.file(), StandardOpenOption.WRITE)) {
            channel.truncate(tail.offset());
            channel.force(true);
        }
    }
}
