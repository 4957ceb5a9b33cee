package io.orderentry.persistence;

import io.orderentry.pipeline.EngineEvent;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Appends encoded events to the spool's segment files through one buffer. Nothing is forced to the
 * device: the spool only has to outlive the database being away, not the process, because the
 * journal regenerates it at the next start.
 *
 * <p>Threads: {@link #append}, {@link #flush} and {@link #close} are called only by the persistence
 * stage's thread. {@link #flushedSequence()} and {@link #flushedBytes()} may be read from any thread;
 * every record up to {@code flushedSequence()} is in the files (written to the OS) before the value is
 * published, so a reader on another thread may read up to it.
 */
final class SpoolWriter implements Closeable {

    private final Path directory;
    private final long segmentBytes;
    private final ByteBuffer buffer;

    private FileChannel channel;
    private long segmentIndex;
    private long segmentPosition;
    private long bufferedSequence;
    private long bytes;
    private volatile long flushedSequence;
    private volatile long flushedBytes;
    private long maxBytes = Long.MAX_VALUE;
    private long minFreeBytes;
    private java.util.function.LongSupplier removedBytes = () -> 0;

    /**
     * @param directory    an existing directory without segments (see {@link SpoolFiles#reset})
     * @param segmentBytes a segment is closed once it would grow past this
     * @param bufferBytes  bytes buffered before they are written to the OS; at least two records
     */
    SpoolWriter(final Path directory, final long segmentBytes, final int bufferBytes) {
        if (bufferBytes < 2 * SpoolCodec.MAX_RECORD_SIZE || segmentBytes < bufferBytes) {
            throw new IllegalArgumentException("spool buffer of " + bufferBytes + " bytes and segments of "
                    + segmentBytes + " bytes are too small");
        }
        this.directory = directory;
        this.segmentBytes = segmentBytes;
        this.buffer = ByteBuffer.allocateDirect(bufferBytes);
    }

    /**
     * Encodes one sequenced event into the buffer. The buffer is written out first when it is full, and
     * a new segment is started when the record might not fit into the current one: no record spans two
     * segments, and none is published before it is whole.
     */
    void append(final EngineEvent event) throws IOException {
        if (segmentPosition + buffer.position() + SpoolCodec.MAX_RECORD_SIZE > segmentBytes) {
            flush();
            rollSegment();
        } else if (buffer.remaining() < SpoolCodec.MAX_RECORD_SIZE) {
            flush();
        }
        SpoolCodec.encode(event, buffer);
        bufferedSequence = event.eventSequence;
    }

    /** Writes everything buffered to the current segment and publishes it to readers. */
    void flush() throws IOException {
        if (buffer.position() == 0) {
            return;
        }
        if (channel == null) {
            rollSegment();
        }
        buffer.flip();
        final int length = buffer.remaining();
        while (buffer.hasRemaining()) {
            channel.write(buffer);
        }
        buffer.clear();
        segmentPosition += length;
        bytes += length;
        flushedBytes = bytes;
        flushedSequence = bufferedSequence;
    }

    /**
     * Bounds the spool on disk: a new segment is started only while the spool's files (written less removed) stay
     * within {@code maxBytes} with it, and the file system keeps {@code minFreeBytes} free after it, for the journal
     * and the audit trail that may share it. Call before the first {@link #append}.
     *
     * @param removedBytes bytes of segments the reader has deleted since start
     */
    void limits(final long maxBytes, final long minFreeBytes, final java.util.function.LongSupplier removedBytes) {
        this.maxBytes = maxBytes;
        this.minFreeBytes = minFreeBytes;
        this.removedBytes = removedBytes;
    }

    /** @return the sequence of the last event a reader may read; 0 before the first flush */
    long flushedSequence() {
        return flushedSequence;
    }

    /** @return bytes written to segment files since start */
    long flushedBytes() {
        return flushedBytes;
    }

    /** Closes the current segment; buffered events that were not flushed are dropped. */
    @Override
    public void close() throws IOException {
        if (channel != null) {
            channel.close();
            channel = null;
        }
    }

    private void rollSegment() throws IOException {
        final long onDisk = bytes - removedBytes.getAsLong();
        if (onDisk + segmentBytes > maxBytes) {
            throw new IOException("the spool holds " + onDisk + " bytes and another segment of " + segmentBytes
                    + " would pass ORDERS_PERSISTENCE_SPOOL_MAX_BYTES (" + maxBytes + ")");
        }
        final long usable;
        try {
            usable = Files.getFileStore(directory).getUsableSpace();
        } catch (final IOException e) {
            throw new IOException("the spool directory " + directory + " cannot be used: " + e, e);
        }
        if (usable - segmentBytes < minFreeBytes) {
            throw new IOException("the spool's file system has " + usable + " bytes free, and another segment of "
                    + segmentBytes + " would leave less than ORDERS_PERSISTENCE_SPOOL_MIN_FREE_BYTES (" + minFreeBytes
                    + ") for the journal and the audit trail");
        }
        if (channel != null) {
            channel.close();
        }
        segmentIndex++;
        channel = FileChannel.open(SpoolFiles.segment(directory, segmentIndex), StandardOpenOption.CREATE_NEW,
                StandardOpenOption.WRITE);
        segmentPosition = 0;
    }
}
