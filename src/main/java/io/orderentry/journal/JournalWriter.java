package io.orderentry.journal;

import io.orderentry.pipeline.OrderCommand;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Appends records to the journal's segment files. {@link #append} encodes into a reusable direct buffer;
 * {@link #flush} writes the buffered batch with one {@code FileChannel.write} and, in
 * {@link JournalSync#FSYNC} mode, one {@code force(false)}: a group commit.
 *
 * <p>On an I/O error the writer truncates the segment back to where the failed batch started (best
 * effort), closes it and stays failed: every later {@link #append} and {@link #flush} returns false at once,
 * {@link #isHealthy()} is false and {@link #failure()} holds the cause (with any error of the truncation
 * attached as suppressed), until {@link #resume} succeeds. Whether the bytes of a batch whose write or force
 * failed reached the device is unknown, so they are never acknowledged: {@link #resume} cuts the segment back to
 * its last durable byte (and forces that) before anything else is written, and the records of the failed batch
 * are appended again under the same sequences only if their commands are sent again. What was durable before the
 * failure was forced before it, so it is not affected.
 *
 * <p>Threads: {@link #open}, {@link #append}, {@link #flush} and {@link #close} are called by one thread at
 * a time, the journal thread once the ring runs. The accessors may be called from any thread.
 */
public final class JournalWriter implements AutoCloseable {

    private final Path directory;
    private final JournalSync sync;
    private final long segmentSize;
    private final SegmentChannelFactory channels;
    private final RecordEncoder encoder;
    private final ByteBuffer buffer;
    private final ByteBuffer crcView;
    private final ByteBuffer header = ByteBuffer.allocate(JournalFormat.SEGMENT_HEADER_SIZE);

    private FileChannel channel;
    /** The segment records are appended to; null between closing one segment and creating the next. */
    private Path currentSegment;
    private long segmentBytes;
    private long appendedSequence;
    private long appendedTimestampMicros;
    private int bufferedRecords;
    private boolean closed;

    private volatile long lastSequence;
    private volatile long lastTimestampMicros;
    private volatile long recordsWritten;
    private volatile long flushes;
    private volatile long lastForceNanos;
    private volatile long totalForceNanos;
    private volatile IOException failure;

    private JournalWriter(final JournalConfig config, final String[] symbolNames, final JournalRecovery recovery,
                          final SegmentChannelFactory channels) {
        this.directory = config.directory();
        this.sync = config.sync();
        this.segmentSize = config.segmentSizeBytes();
        this.channels = channels;
        this.encoder = new RecordEncoder(symbolNames, true);
        this.buffer = ByteBuffer.allocateDirect(config.writeBufferBytes()).order(JournalFormat.BYTE_ORDER);
        this.crcView = buffer.duplicate();
        this.appendedSequence = recovery.lastSequence();
        this.appendedTimestampMicros = recovery.lastTimestampMicros();
        this.lastSequence = recovery.lastSequence();
        this.lastTimestampMicros = recovery.lastTimestampMicros();
    }

    /**
     * Opens the journal for appending where recovery left it: the last segment, or a new segment named
     * {@code recovery.lastSequence() + 1} when there is none.
     *
     * @param config      directory, sync mode and sizes
     * @param symbolNames configured instrument names by index; records store the name
     * @param recovery    the result of {@link JournalReader#recover} on {@code config.directory()}
     * @throws IllegalArgumentException if {@code recovery} is for another directory or a symbol name is invalid
     * @throws IOException              if the segment cannot be opened or created
     */
    public static JournalWriter open(final JournalConfig config, final String[] symbolNames,
                                     final JournalRecovery recovery) throws IOException {
        return open(config, symbolNames, recovery, SegmentChannelFactory.FILES);
    }

    static JournalWriter open(final JournalConfig config, final String[] symbolNames, final JournalRecovery recovery,
                              final SegmentChannelFactory channels) throws IOException {
        Objects.requireNonNull(recovery, "recovery");
        if (!sameDirectory(config.directory(), recovery.directory())) {
            throw new IllegalArgumentException("recovery of " + recovery.directory() + " cannot open " + config.directory());
        }
        final JournalWriter writer = new JournalWriter(config, symbolNames, recovery, channels);
        if (recovery.lastSegment() == null) {
            writer.createSegment(recovery.lastSequence() + 1);
        } else {
            writer.reopenSegment(recovery.lastSegment(), recovery.lastSequence());
        }
        return writer;
    }

    /**
     * Encodes {@code command} into the buffer. Flushes first if the buffer cannot hold a record of the
     * largest size, and rolls to a new segment first if the record could make the segment exceed its size.
     *
     * @param command a complete command whose {@code sequence} is the previous one plus 1 and whose
     *                {@code timestampMicros} is not below the previous one
     * @return true if buffered; false if the writer has failed (now or before): nothing was buffered
     * @throws IllegalArgumentException if the command is incomplete, out of order or too large; nothing was
     *                                  buffered and the writer stays healthy
     * @throws IllegalStateException    if the writer is closed
     */
    public boolean append(final OrderCommand command) {
        requireOpen();
        if (failure != null) {
            return false;
        }
        if (command.sequence != appendedSequence + 1) {
            throw new IllegalArgumentException("sequence " + command.sequence + " does not follow " + appendedSequence);
        }
        if (command.timestampMicros < appendedTimestampMicros) {
            throw new IllegalArgumentException("timestamp " + command.timestampMicros + " is before "
                    + appendedTimestampMicros);
        }
        final long segmentEnd = segmentBytes + buffer.position();
        if (segmentEnd + JournalFormat.MAX_RECORD_SIZE > segmentSize && segmentEnd > JournalFormat.SEGMENT_HEADER_SIZE) {
            if (!roll()) {
                return false;
            }
        } else if (buffer.remaining() < JournalFormat.MAX_RECORD_SIZE && !flush()) {
            return false;
        }
        encoder.encode(command, buffer, crcView);
        appendedSequence = command.sequence;
        appendedTimestampMicros = command.timestampMicros;
        bufferedRecords++;
        return true;
    }

    /**
     * Makes the buffered records durable: one write and, in {@link JournalSync#FSYNC} mode, one force.
     * Does nothing when nothing is buffered.
     *
     * @return true if every appended record is now durable; false if the writer has failed (now or before)
     * @throws IllegalStateException if the writer is closed
     */
    public boolean flush() {
        requireOpen();
        if (failure != null) {
            return false;
        }
        if (buffer.position() == 0) {
            return true;
        }
        final long start = segmentBytes;
        buffer.flip();
        long end = start;
        try {
            while (buffer.hasRemaining()) {
                end += channel.write(buffer, end);
            }
            if (sync == JournalSync.FSYNC) {
                final long forceStart = System.nanoTime();
                channel.force(false);
                final long forceNanos = System.nanoTime() - forceStart;
                lastForceNanos = forceNanos;
                totalForceNanos += forceNanos;
            }
        } catch (final IOException e) {
            fail(e, start);
            return false;
        }
        buffer.clear();
        segmentBytes = end;
        recordsWritten += bufferedRecords;
        bufferedRecords = 0;
        flushes++;
        lastTimestampMicros = appendedTimestampMicros;
        lastSequence = appendedSequence;
        return true;
    }

    /** @return false once a write, force or roll has failed, or after {@link #close()} */
    public boolean isHealthy() {
        return failure == null && !closed;
    }

    /** @return the I/O error that made the writer fail, or null while it is healthy */
    public IOException failure() {
        return failure;
    }

    /** @return sequence of the last durable record (from recovery until the first flush) */
    public long lastSequence() {
        return lastSequence;
    }

    /** @return timestamp of the last durable record (from recovery until the first flush) */
    public long lastTimestampMicros() {
        return lastTimestampMicros;
    }

    /** @return records made durable since {@link #open} */
    public long recordsWritten() {
        return recordsWritten;
    }

    /** @return successful flushes that wrote at least one record */
    public long flushes() {
        return flushes;
    }

    /** @return nanoseconds the last {@code force} took; 0 in {@link JournalSync#NONE} mode */
    public long lastForceNanos() {
        return lastForceNanos;
    }

    /** @return nanoseconds spent in {@code force} since {@link #open} */
    public long totalForceNanos() {
        return totalForceNanos;
    }

    /**
     * Flushes what is buffered, forces it and closes the segment. Call on the journal thread or after it
     * stopped. Does nothing the second time.
     *
     * @throws IOException the cause if the final flush failed, or if closing failed
     */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        if (failure == null && !flush()) {
            closed = true;
            throw failure;
        }
        closed = true;
        if (channel != null) {
            try (FileChannel closing = channel) {
                channel = null;
                closing.force(true);
            }
        }
    }

    /**
     * Closes the current segment and starts the next. The closed segment is forced in every sync mode: only
     * the last segment may end in a torn record, so a machine crash must not leave one in an earlier segment.
     */
    private boolean roll() {
        if (!flush()) {
            return false;
        }
        try {
            if (sync == JournalSync.NONE) {
                channel.force(false);
            }
            channel.close();
            channel = null;
            currentSegment = null;
            createSegment(appendedSequence + 1);
            return true;
        } catch (final IOException e) {
            fail(e, -1);
            return false;
        }
    }

    private void createSegment(final long firstSequence) throws IOException {
        final Path path = SegmentFiles.segmentPath(directory, firstSequence);
        Files.createDirectories(directory);
        final FileChannel created = channels.open(path, true);
        try {
            writeHeader(created, firstSequence);
            if (sync == JournalSync.FSYNC) {
                created.force(false);
                SegmentFiles.syncDirectory(directory);
            }
        } catch (final IOException e) {
            closeAfterFailure(created, e);
            throw e;
        }
        channel = created;
        currentSegment = path;
        segmentBytes = JournalFormat.SEGMENT_HEADER_SIZE;
    }

    /**
     * Appends to the last segment where recovery left it; one of an older format version gets no record of this
     * version: it is rewritten with this version's header while it holds none, else forced, closed and followed by a
     * new segment from {@code lastSequence + 1}.
     */
    private void reopenSegment(final Path path, final long lastSequence) throws IOException {
        final FileChannel opened = channels.open(path, false);
        try {
            final long size = opened.size();
            if (size == 0 || size == JournalFormat.SEGMENT_HEADER_SIZE && versionOf(opened) != JournalFormat.VERSION) {
                writeHeader(opened, SegmentFiles.firstSequenceOf(path));
                segmentBytes = JournalFormat.SEGMENT_HEADER_SIZE;
            } else if (size < JournalFormat.SEGMENT_HEADER_SIZE) {
                throw new IOException(path + " has a partial header of " + size + " bytes: run recovery first");
            } else if (versionOf(opened) != JournalFormat.VERSION) {
                opened.force(false);
                opened.close();
                createSegment(lastSequence + 1);
                return;
            } else {
                segmentBytes = size;
            }
        } catch (final IOException e) {
            closeAfterFailure(opened, e);
            throw e;
        }
        channel = opened;
        currentSegment = path;
    }

    /** @return the format version in the header of a segment that has one */
    private static int versionOf(final FileChannel segment) throws IOException {
        final ByteBuffer version = ByteBuffer.allocate(Integer.BYTES).order(JournalFormat.BYTE_ORDER);
        while (version.hasRemaining()) {
            if (segment.read(version, 4 + version.position()) < 0) {
                throw new IOException("segment header ends early");
            }
        }
        return version.getInt(0);
    }

    /**
     * Leaves the failed state when the cause has gone (space freed, a transient error): opens the current segment
     * again and cuts it back to its last durable byte, or, when the failure came while starting the next segment,
     * creates that segment afresh (removing a partial one). Records appended but not made durable before the
     * failure are dropped: the next {@link #append} continues from {@link #lastSequence()} + 1.
     *
     * @return true if the writer is healthy again (or was); false if it is still failing ({@link #failure()} is the
     *         new cause) or closed
     */
    public boolean resume() {
        if (closed) {
            return false;
        }
        if (failure == null) {
            return true;
        }
        buffer.clear();
        bufferedRecords = 0;
        appendedSequence = lastSequence;
        appendedTimestampMicros = lastTimestampMicros;
        try {
            if (currentSegment == null) {
                final Path next = SegmentFiles.segmentPath(directory, lastSequence + 1);
                Files.deleteIfExists(next);   // a header at most: no record is written before the segment is complete
                createSegment(lastSequence + 1);
            } else {
                final FileChannel opened = channels.open(currentSegment, false);
                try {
                    opened.truncate(segmentBytes);
                    opened.force(false);
                } catch (final IOException e) {
                    closeAfterFailure(opened, e);
                    throw e;
                }
                channel = opened;
            }
        } catch (final IOException e) {
            failure = e;
            return false;
        }
        failure = null;
        return true;
    }

    private void writeHeader(final FileChannel target, final long firstSequence) throws IOException {
        SegmentFiles.encodeHeader(header, firstSequence);
        long at = 0;
        while (header.hasRemaining()) {
            at += target.write(header, at);
        }
    }

    /** Enters the failed state: truncates back to {@code truncateTo} unless it is negative, closes the segment. */
    private void fail(final IOException cause, final long truncateTo) {
        if (channel != null) {
            if (truncateTo >= 0) {
                try {
                    channel.truncate(truncateTo);
                    if (sync == JournalSync.FSYNC) {
                        channel.force(false);
                    }
                } catch (final IOException e) {
                    cause.addSuppressed(e);
                }
            }
            closeAfterFailure(channel, cause);
            channel = null;
        }
        buffer.clear();
        bufferedRecords = 0;
        failure = cause;
    }

    private static void closeAfterFailure(final FileChannel target, final IOException cause) {
        try {
            target.close();
        } catch (final IOException e) {
            cause.addSuppressed(e);
        }
    }

    private void requireOpen() {
        if (closed) {
            throw new IllegalStateException("journal writer is closed");
        }
    }

    private static boolean sameDirectory(final Path a, final Path b) {
        return a.toAbsolutePath().normalize().equals(b.toAbsolutePath().normalize());
    }
}
