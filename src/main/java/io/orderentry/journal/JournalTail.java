package io.orderentry.journal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Follows a journal that is being written, from a position on: each {@link #readUntil} hands over the records
 * up to a sequence the writer has made durable, moving on to the next segment when the writer has rolled. It
 * never reads past that sequence, so it never sees a record being written, and it never changes a file. Used by
 * the snapshot writer to keep a copy of the state behind the live engine; the records' origin block (who asked) is
 * skipped, never decoded: the state does not depend on it.
 *
 * <p>Not thread safe: owned by one thread.
 */
public final class JournalTail {

    private static final int READ_BUFFER_BYTES = 1 << 20;

    private final Path directory;
    private final SegmentScanner scanner;
    private JournalPosition position;

    /**
     * @param from where to start: the position of the state the reader already holds
     */
    public JournalTail(final Path directory, final Map<String, Integer> symbolIndex, final JournalPosition from) {
        this.directory = directory;
        this.scanner = new SegmentScanner(new SymbolLookup(symbolIndex), READ_BUFFER_BYTES);
        this.scanner.decodeOriginAfter(Long.MAX_VALUE);   // state only: who asked is the audit trail's, never needed here
        this.position = from;
    }

    /** @return the position after the last record handed over */
    public JournalPosition position() {
        return position;
    }

    /**
     * Hands {@code consumer} every record after {@link #position()} up to {@code durableSequence}, which the
     * writer must have made durable (its {@code lastSequence()}).
     *
     * @return records handed over
     * @throws JournalCorruptedException if a record up to {@code durableSequence} is missing or damaged
     */
    public long readUntil(final long durableSequence, final RecordConsumer consumer) throws IOException {
        long records = 0;
        while (position.sequence() < durableSequence) {
            final Path segment = SegmentFiles.segmentPath(directory, position.segmentFirstSequence());
            scanner.scan(segment, position.offset(), false, position.sequence(), position.timestampMicros(),
                    durableSequence, consumer);
            records += scanner.records();
            position = new JournalPosition(position.segmentFirstSequence(), scanner.endOffset(),
                    scanner.lastSequence(), scanner.lastTimestampMicros());
            if (position.sequence() < durableSequence) {
                final Path next = SegmentFiles.segmentPath(directory, position.sequence() + 1);
                if (!Files.exists(next)) {
                    throw new JournalCorruptedException(segment, position.offset(), "record " + (position.sequence() + 1)
                            + " is durable but neither in this segment nor in " + next.getFileName());
                }
                position = new JournalPosition(position.sequence() + 1, JournalFormat.SEGMENT_HEADER_SIZE,
                        position.sequence(), position.timestampMicros());
            }
        }
        return records;
    }
}
