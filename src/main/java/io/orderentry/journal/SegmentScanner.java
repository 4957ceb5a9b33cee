package io.orderentry.journal;

import io.orderentry.pipeline.OrderCommand;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

/**
 * Reads one segment: checks its header, then each record's length, CRC, sequence and timestamp, and hands
 * the decoded commands to a {@link RecordConsumer}. Decides whether a bad record at the end of the last
 * segment is a torn tail or corruption. Reuses one read buffer and one command across segments; owned by
 * the recovering thread.
 */
final class SegmentScanner {

    private final ByteBuffer buffer;
    private final ByteBuffer crcView;
    private final CRC32C crc = new CRC32C();
    private final RecordDecoder decoder;
    private final OrderCommand command = new OrderCommand();

    private FileChannel channel;
    private Path file;
    private long fileSize;
    private long bufferOffset;
    private int position;
    private int limit;

    private long lastSequence;
    private long lastTimestampMicros;
    private long untilSequence;
    private long records;
    private TruncatedTail truncatedTail;

    SegmentScanner(final SymbolLookup symbols, final int readBufferBytes) {
        buffer = ByteBuffer.allocateDirect(readBufferBytes).order(JournalFormat.BYTE_ORDER);
        crcView = buffer.duplicate().order(JournalFormat.BYTE_ORDER);
        decoder = new RecordDecoder(symbols);
    }

    /** Decodes who asked only for records above {@code sequence} (see {@link RecordDecoder#decodeOriginAfter}). */
    void decodeOriginAfter(final long sequence) {
        decoder.decodeOriginAfter(sequence);
    }

    /**
     * Reads {@code segment} to its end or to its torn tail.
     *
     * @param last                  whether this is the last segment, the only one that may have a torn tail
     * @param previousSequence      sequence of the last record before this segment (0 before the first)
     * @param previousTimestamp     timestamp of that record (0 before the first)
     * @throws JournalCorruptedException on a bad header, a sequence gap or a bad record that is not a torn tail
     * @throws UnknownSymbolException    on a record naming an instrument that is not configured
     */
    void scan(final Path segment, final boolean last, final long previousSequence, final long previousTimestamp,
              final RecordConsumer consumer) throws IOException {
        scan(segment, JournalFormat.SEGMENT_HEADER_SIZE, last, previousSequence, previousTimestamp, Long.MAX_VALUE,
                consumer);
    }

    /**
     * Reads {@code segment} from {@code startOffset} (the start of a record; the header is checked all the same)
     * to its end, its torn tail, or the last record numbered at most {@code untilSequence}, whichever comes
     * first; a record past {@code untilSequence} is neither checked nor consumed, and ends the scan.
     *
     * @param previousSequence  sequence of the last record before {@code startOffset}
     * @param previousTimestamp timestamp of that record
     */
    void scan(final Path segment, final long startOffset, final boolean last, final long previousSequence,
              final long previousTimestamp, final long untilSequence, final RecordConsumer consumer) throws IOException {
        file = segment;
        lastSequence = previousSequence;
        lastTimestampMicros = previousTimestamp;
        this.untilSequence = untilSequence;
        records = 0;
        truncatedTail = null;
        bufferOffset = 0;
        position = 0;
        limit = 0;
        try (FileChannel opened = FileChannel.open(segment, StandardOpenOption.READ)) {
            channel = opened;
            fileSize = opened.size();
            final long named = SegmentFiles.firstSequenceOf(segment);
            if (startOffset > JournalFormat.SEGMENT_HEADER_SIZE && startOffset > fileSize) {
                throw new JournalCorruptedException(segment, startOffset, "the segment ends at " + fileSize
                        + ", before the position to read from");
            }
            if (checkHeader(last, startOffset == JournalFormat.SEGMENT_HEADER_SIZE ? lastSequence : named - 1)) {
                if (startOffset > JournalFormat.SEGMENT_HEADER_SIZE) {
                    bufferOffset = startOffset;
                    position = 0;
                    limit = 0;
                }
                scanRecords(last, consumer);
            }
        } finally {
            channel = null;
        }
    }

    /** @return byte offset just after the last record consumed by the latest scan (the next record's offset) */
    long endOffset() {
        return bufferOffset + position;
    }

    /** @return sequence of the last good record of the scanned segment, or the previous one if it had none */
    long lastSequence() {
        return lastSequence;
    }

    /** @return timestamp of the last good record */
    long lastTimestampMicros() {
        return lastTimestampMicros;
    }

    /** @return good records in the scanned segment */
    long records() {
        return records;
    }

    /** @return bytes of the scanned segment */
    long fileSize() {
        return fileSize;
    }

    /** @return the torn tail found at the end of the scanned segment (not yet cut), or null */
    TruncatedTail truncatedTail() {
        return truncatedTail;
    }

    private boolean checkHeader(final boolean last, final long sequenceBefore) throws IOException {
        final long named = SegmentFiles.firstSequenceOf(file);
        if (named != sequenceBefore + 1) {
            throw new JournalCorruptedException(file, 0, "segment is named for sequence " + named + " but "
                    + (lastSequence + 1) + " is expected next (sequence gap between segments)");
        }
        final int headerBytes = (int) Math.min(fileSize, JournalFormat.SEGMENT_HEADER_SIZE);
        fill(headerBytes);
        boolean headerZero = true;
        for (int i = 0; i < headerBytes; i++) {
            headerZero &= buffer.get(i) == 0;
        }
        if (last && (fileSize < JournalFormat.SEGMENT_HEADER_SIZE || headerZero && zeroToEnd())) {
            if (fileSize > 0) {
                truncatedTail = new TruncatedTail(file, 0, fileSize, "torn segment header");
            }
            return false;
        }
        if (fileSize < JournalFormat.SEGMENT_HEADER_SIZE) {
            throw new JournalCorruptedException(file, 0, "segment of " + fileSize + " bytes has no complete header");
        }
        if (headerZero) {
            throw new JournalCorruptedException(file, 0, "segment header is all zero but the segment holds data");
        }
        final int magic = buffer.getInt(0);
        final int version = buffer.getInt(4);
        final long first = buffer.getLong(8);
        if (magic != JournalFormat.MAGIC) {
            throw new JournalCorruptedException(file, 0, String.format("bad magic number 0x%08X", magic));
        }
        if (version < JournalFormat.OLDEST_READABLE_VERSION || version > JournalFormat.VERSION) {
            throw new JournalCorruptedException(file, 0, "unsupported format version " + version
                    + " (this build reads " + JournalFormat.OLDEST_READABLE_VERSION + " to " + JournalFormat.VERSION
                    + ")");
        }
        if (first != named) {
            throw new JournalCorruptedException(file, 0, "header says first sequence " + first
                    + " but the file is named for " + named);
        }
        position = JournalFormat.SEGMENT_HEADER_SIZE;
        return true;
    }

    private void scanRecords(final boolean last, final RecordConsumer consumer) throws IOException {
        while (lastSequence < untilSequence) {
            final long offset = bufferOffset + position;
            final long available = fileSize - offset;
            if (available == 0) {
                return;
            }
            fill((int) Math.min(available, JournalFormat.MAX_RECORD_SIZE));
            if (available < Integer.BYTES) {
                rejectOrTruncate(last, offset, available, -1, "incomplete length field");
                return;
            }
            final int length = buffer.getInt(position);
            if (length < JournalFormat.MIN_RECORD_SIZE || length > JournalFormat.MAX_RECORD_SIZE) {
                rejectOrTruncate(last, offset, available, -1, "invalid record length " + length);
                return;
            }
            if (length > available) {
                rejectOrTruncate(last, offset, available, -1, "record of " + length + " bytes runs past the end of the file");
                return;
            }
            if (!crcMatches(position, length)) {
                rejectOrTruncate(last, offset, available, length, "CRC mismatch");
                return;
            }
            final long sequence = buffer.getLong(position + JournalFormat.SEQUENCE_OFFSET);
            if (sequence != lastSequence + 1) {
                throw new JournalCorruptedException(file, offset, "sequence " + sequence + " where "
                        + (lastSequence + 1) + " is expected (sequence gap)");
            }
            decoder.decode(buffer, position, length, command, file, offset);
            if (command.timestampMicros < lastTimestampMicros) {
                throw new JournalCorruptedException(file, offset, "timestamp " + command.timestampMicros
                        + " is before the previous record's " + lastTimestampMicros);
            }
            consumer.onRecord(command);
            lastSequence = sequence;
            lastTimestampMicros = command.timestampMicros;
            records++;
            position += length;
        }
    }

    /**
     * A record at {@code offset} is bad. In the last segment it is a torn tail when everything from it to the
     * end of the file is zero, or when fewer than {@link JournalFormat#MAX_RECORD_SIZE} bytes remain and no
     * valid record follows it; anything else is corruption.
     *
     * @param length the bad record's length if it is plausible and within the file, else -1
     */
    private void rejectOrTruncate(final boolean last, final long offset, final long available, final int length,
                                  final String reason) throws IOException {
        if (!last) {
            throw new JournalCorruptedException(file, offset, reason + " in a segment that is not the last");
        }
        if (available < JournalFormat.MAX_RECORD_SIZE) {
            if (length > 0 && isValidRecordAt(position + length)) {
                throw new JournalCorruptedException(file, offset, reason + ", followed by a valid record");
            }
        } else if (zeroedPageInUnsyncedTail(offset, available)) {
            truncatedTail = new TruncatedTail(file, offset, available, reason + ", in a page of zeros followed by"
                    + " the rest of a batch that was never forced (a power loss writes the pages of an unforced write"
                    + " in any order)");
            return;
        } else if (!zeroToEnd()) {
            throw new JournalCorruptedException(file, offset, reason + ", with " + available
                    + " bytes after it, more than a torn write leaves");
        }
        truncatedTail = new TruncatedTail(file, offset, available, reason);
    }

    /** A page of the file system, the unit a power loss keeps or loses of an unforced write. */
    private static final int PAGE = 4096;

    /**
     * @return whether the bad record at {@code offset} lies at or just before a page of zeros, with no more after it
     *         than one write of the journal can leave unforced ({@link JournalConfig#DEFAULT_WRITE_BUFFER}): what a
     *         power loss in the middle of an unforced write leaves when a later page of it reached the disk and an
     *         earlier one did not. Everything from {@code offset} on was never acknowledged (a batch is answered only
     *         after its force), so it may be cut. Reads the file directly; leaves the scanner's position alone.
     */
    private boolean zeroedPageInUnsyncedTail(final long offset, final long available) throws IOException {
        if (available > JournalConfig.DEFAULT_WRITE_BUFFER + 2L * PAGE) {
            return false;
        }
        try (java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(file,
                java.nio.file.StandardOpenOption.READ)) {
            final java.nio.ByteBuffer page = java.nio.ByteBuffer.allocate(PAGE);
            for (long start = offset / PAGE * PAGE; start <= offset + JournalFormat.MAX_RECORD_SIZE
                    && start + PAGE <= fileSize; start += PAGE) {
                final long from = Math.max(start, offset);
                page.clear().limit((int) (start + PAGE - from));
                while (page.hasRemaining() && channel.read(page, from + page.position()) > 0) {
                    // reads the rest of the page
                }
                boolean zero = page.position() == page.limit();
                for (int i = 0; zero && i < page.position(); i++) {
                    zero = page.get(i) == 0;
                }
                if (zero) {
                    return true;
                }
            }
        }
        return false;
    }

    /** @return whether a complete record with a matching CRC starts at buffer index {@code at} */
    private boolean isValidRecordAt(final int at) {
        if (limit - at < JournalFormat.MIN_RECORD_SIZE) {
            return false;
        }
        final int length = buffer.getInt(at);
        return length >= JournalFormat.MIN_RECORD_SIZE && length <= JournalFormat.MAX_RECORD_SIZE
                && length <= limit - at && crcMatches(at, length);
    }

    private boolean crcMatches(final int at, final int length) {
        crcView.limit(at + length).position(at + JournalFormat.CRC_START);
        crc.reset();
        crc.update(crcView);
        return (int) crc.getValue() == buffer.getInt(at + 4);
    }

    /** @return whether every byte from the current position to the end of the file is zero; consumes them */
    private boolean zeroToEnd() throws IOException {
        while (true) {
            for (int i = position; i < limit; i++) {
                if (buffer.get(i) != 0) {
                    return false;
                }
            }
            position = limit;
            final long remaining = fileSize - bufferOffset - position;
            if (remaining == 0) {
                return true;
            }
            fill((int) Math.min(remaining, buffer.capacity()));
        }
    }

    /** Makes at least {@code bytes} bytes from the current position available in the buffer. */
    private void fill(final int bytes) throws IOException {
        if (limit - position >= bytes) {
            return;
        }
        if (position > 0) {
            buffer.limit(limit).position(position);
            buffer.compact();
            bufferOffset += position;
            limit -= position;
            position = 0;
        }
        while (limit < buffer.capacity() && bufferOffset + limit < fileSize) {
            buffer.limit(buffer.capacity()).position(limit);
            final int read = channel.read(buffer, bufferOffset + limit);
            if (read < 0) {
                break;
            }
            limit += read;
        }
        if (limit - position < bytes) {
            throw new EOFException(file + " ended at " + (bufferOffset + limit) + " while " + fileSize
                    + " bytes were expected: did it shrink during recovery?");
        }
    }
}
