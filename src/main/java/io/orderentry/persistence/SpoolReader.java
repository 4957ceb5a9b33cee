package io.orderentry.persistence;

import io.orderentry.pipeline.EngineEvent;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.LongSupplier;

/**
 * Tails the spool that a {@link SpoolWriter} appends to, reading records only up to the sequence the
 * writer has published. When the current segment is exhausted while the writer has published more, the
 * rest is in the next segment: the writer never splits a record and publishes only whole ones.
 * Segments read to their end are deleted once every event in them is in the database.
 *
 * <p>Threads: every method except {@link #deletedBytes()} is called only on the persistence writer thread.
 */
final class SpoolReader implements EventSource, Closeable {

    private record Finished(Path path, long lastSequence, long bytes) {
    }

    private final Path directory;
    private final LongSupplier publishedSequence;
    private final ByteBuffer buffer;
    private final Deque<Finished> finished = new ArrayDeque<>();

    private FileChannel channel;
    private long segmentIndex;
    private long lastSequence;
    private volatile long deletedBytes;

    /**
     * @param directory         the spool directory the writer appends to
     * @param publishedSequence the writer's {@link SpoolWriter#flushedSequence()}
     * @param bufferBytes       read buffer; at least two records
     */
    SpoolReader(final Path directory, final LongSupplier publishedSequence, final int bufferBytes) {
        if (bufferBytes < 2 * SpoolCodec.MAX_RECORD_SIZE) {
            throw new IllegalArgumentException("spool read buffer of " + bufferBytes + " bytes is too small");
        }
        this.directory = directory;
        this.publishedSequence = publishedSequence;
        this.buffer = ByteBuffer.allocateDirect(bufferBytes);
        buffer.limit(0);
    }

    @Override
    public boolean next(final EngineEvent into) throws IOException {
        if (lastSequence >= publishedSequence.getAsLong()) {
            return false;
        }
        while (!wholeRecordBuffered()) {
            if (channel == null) {
                openSegment(segmentIndex + 1);
            }
            buffer.compact();
            final int read = channel.read(buffer);
            buffer.flip();
            if (read < 0) {
                if (buffer.hasRemaining()) {
                    throw new IOException("spool segment " + SpoolFiles.segment(directory, segmentIndex)
                            + " ends inside a record after sequence " + lastSequence);
                }
                finishSegment();
            }
        }
        SpoolCodec.decode(buffer, into);
        if (into.eventSequence <= lastSequence) {
            throw new IOException("spool sequence went from " + lastSequence + " to " + into.eventSequence);
        }
        lastSequence = into.eventSequence;
        return true;
    }

    /** @return the sequence of the last event read */
    long lastSequence() {
        return lastSequence;
    }

    /**
     * Deletes the segments that were read to their end and hold nothing above {@code persistedSequence}.
     *
     * @return how many segments were deleted
     */
    int deleteThrough(final long persistedSequence) throws IOException {
        int deleted = 0;
        while (!finished.isEmpty() && finished.peekFirst().lastSequence() <= persistedSequence) {
            final Finished segment = finished.removeFirst();
            try {
                Files.delete(segment.path());
            } catch (final NoSuchFileException alreadyGone) {
                throw new IOException("spool segment " + segment.path() + " vanished before it was deleted",
                        alreadyGone);
            }
            deletedBytes += segment.bytes();
            deleted++;
        }
        return deleted;
    }

    /** @return bytes of spool segments deleted since start; readable from any thread */
    long deletedBytes() {
        return deletedBytes;
    }

    @Override
    public void close() throws IOException {
        if (channel != null) {
            channel.close();
            channel = null;
        }
    }

    private boolean wholeRecordBuffered() {
        return buffer.remaining() >= Integer.BYTES
                && buffer.remaining() >= SpoolCodec.recordLength(buffer, buffer.position());
    }

    private void openSegment(final long index) throws IOException {
        final Path path = SpoolFiles.segment(directory, index);
        try {
            channel = FileChannel.open(path, StandardOpenOption.READ);
        } catch (final NoSuchFileException e) {
            throw new IOException("spool segment " + path + " is missing although sequence "
                    + publishedSequence.getAsLong() + " was published and " + lastSequence + " was read", e);
        }
        segmentIndex = index;
    }

    private void finishSegment() throws IOException {
        final long bytes = channel.size();
        channel.close();
        channel = null;
        finished.addLast(new Finished(SpoolFiles.segment(directory, segmentIndex), lastSequence, bytes));
    }
}
