package io.orderentry.audit;

import io.orderentry.journal.DirectoryLock;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The writer of the hash-chained trail and the only owner of the chain (seq and previous hash). {@link #append}
 * numbers, timestamps, renders and hashes a record into a reusable buffer; {@link #flush} hands the buffered
 * batch to the operating system with one positional {@code write} and, in {@link AuditSync#FSYNC} mode, one
 * {@code force(false)}. A batch larger than the buffer is written in several parts.
 *
 * <p>Files: a record that would take the current file past {@code maxFileBytes}, or whose time falls on
 * another UTC day than the file's, goes to a new file named after its day and seq (see {@link AuditFiles});
 * the previous file is written first and then forced and closed on a thread of its own ({@code oe-audit-sync},
 * which in {@link AuditSync#NONE} mode also forces the current file every {@link #WRITE_BACK_BYTES}; in
 * {@link AuditSync#FSYNC} mode every batch is already forced), and a file is only created when its first bytes
 * are written.
 * On {@link #open} the trail takes the directory's {@link DirectoryLock} (one writer per chain, until {@link #close()})
 * and continues where {@link AuditTailReader} found the chain's end: same seq, same hash, same newest file.
 *
 * <p>Failure: on an I/O error the trail truncates the file back to its last complete batch (best effort), closes
 * it and stays failed for good: the records that were buffered and every later one are logged at ERROR as
 * unwritten (never dropped silently), counted in {@link #unwrittenRecords()}, and {@link #append} and
 * {@link #flush} return false at once.
 *
 * <p>Threads: {@link #open} runs on the starting thread; from then on one thread at a time calls the rest (the
 * audit thread while the ring runs). The accessors documented as such may be called from any thread.
 */
public final class AuditTrail implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(AuditTrail.class);
    /**
     * In {@link AuditSync#NONE} mode, the current file is forced in the background after this many bytes, so that
     * the disk takes the trail as it comes: left to the end of a 64 MiB file, the write-back came all at once and
     * the journal's fsync queued behind it.
     */
    static final long WRITE_BACK_BYTES = 4L << 20;

    /** Bytes buffered before a write is forced in the middle of a batch. */
    static final int BUFFER_BYTES = 256 * 1024;

    private final Path directory;
    private final long maxFileBytes;
    private final AuditSync sync;
    private final AuditChannelFactory channels;
    private final LongSupplier clockMicros;
    private final AuditTail tail;
    private final DirectoryLock lock;
    private final AuditRecordEncoder encoder = new AuditRecordEncoder();
    private final ByteBuffer buffer = ByteBuffer.allocateDirect(BUFFER_BYTES);
    private final byte[] prevHash = new byte[AuditFormat.HASH_HEX_LENGTH];

    private FileChannel channel;
    private long fileBytes;
    /** Where the batch being written started in the current file, and the trail's counts before it. */
    private long batchStartBytes;
    private long batchStartLastSeq;
    private long batchStartRecords;
    private long fileDay;
    private long nextSeq;
    private long lastTimeMicros;
    private int bufferedRecords;
    private boolean unforced;
    private boolean closed;

    private volatile Path file;
    private volatile long lastSeq;
    private volatile long recordsWritten;
    private volatile long unwrittenRecords;
    private volatile IOException failure;
    /**
     * In {@link AuditSync#NONE} mode, one daemon thread ({@code oe-audit-sync}) that forces files off the answer
     * path, in order: the current file every {@link #WRITE_BACK_BYTES}, and a finished file before closing it.
     * Created on first use; shut down by {@link #close()}.
     */
    private volatile ExecutorService background;
    private Future<?> lastBackground;
    private long writtenSinceForce;
    private volatile IOException backgroundFailure;

    private AuditTrail(final AuditConfig config, final LongSupplier clockMicros, final AuditChannelFactory channels,
                       final AuditTail tail, final DirectoryLock lock) {
        this.directory = config.directory();
        this.maxFileBytes = config.maxFileBytes();
        this.sync = config.sync();
        this.channels = channels;
        this.clockMicros = clockMicros;
        this.tail = tail;
        this.lock = lock;
        this.nextSeq = tail.lastSeq() + 1;
        this.lastSeq = tail.lastSeq();
        System.arraycopy(tail.lastHash().getBytes(StandardCharsets.US_ASCII), 0, prevHash, 0, prevHash.length);
    }

    /**
     * Reads where the trail in {@code config.directory()} ends and opens it for appending there.
     *
     * @param clockMicros wall clock in microseconds since the epoch; record times never decrease even if it does
     * @throws AuditTrailDamagedException if the last record on disk is not sound
     * @throws IOException                if another process holds the directory, or the directory or the newest
     *                                    file cannot be read or opened
     */
    public static AuditTrail open(final AuditConfig config, final LongSupplier clockMicros) throws IOException {
        return open(config, clockMicros, AuditChannelFactory.FILES);
    }

    /** As {@link #open(AuditConfig, LongSupplier)}, writing through channels from {@code channels}. */
    public static AuditTrail open(final AuditConfig config, final LongSupplier clockMicros,
                                  final AuditChannelFactory channels) throws IOException {
        Objects.requireNonNull(clockMicros, "clockMicros");
        Objects.requireNonNull(channels, "channels");
        final DirectoryLock lock = DirectoryLock.acquire(config.directory(), DirectoryLock.AUDIT, "audit trail");
        try {
            final AuditTail tail = AuditTailReader.read(config.directory());
            final AuditTrail trail = new AuditTrail(config, clockMicros, channels, tail, lock);
            if (tail.newestFile() != null) {
                trail.channel = channels.open(tail.newestFile(), false);
                trail.file = tail.newestFile();
                trail.fileBytes = tail.newestFileBytes();
                trail.fileDay = AuditFiles.epochDayOf(tail.newestFile());
            }
            trail.markBatchStart();
            return trail;
        } catch (final IOException | RuntimeException e) {
            try {
                lock.close();
            } catch (final IOException release) {
                e.addSuppressed(release);
            }
            throw e;
        }
    }

    /**
     * Gives {@code entry} the next seq, the time (the clock, never below the previous record's) and the chain
     * hashes, and buffers it. Writes first if the buffer is full; moves to a new file first if the record belongs
     * to another UTC day or would overflow the file.
     *
     * @return true if buffered; false if the trail has failed (now or before): the entry was logged as unwritten
     */
    public boolean append(final AuditEntry entry) {
        requireOpen();
        takeBackgroundFailure();
        if (failure != null) {
            unwritten(entry.toString());
            return false;
        }
        final long time = Math.max(lastTimeMicros, clockMicros.getAsLong());
        final long day = AuditFiles.epochDay(time);
        final int length = encoder.encode(nextSeq, time, entry, prevHash);
        final long fileLength = fileBytes + buffer.position();
        final boolean ready;
        if (file == null) {
            startFile(day);
            ready = true;
        } else if (fileLength > 0 && (day != fileDay || fileLength + length > maxFileBytes)) {
            ready = roll(day);
        } else {
            ready = buffer.remaining() >= length || write();
        }
        if (!ready) {
            unwritten(new String(encoder.line(), 0, length - 1, StandardCharsets.UTF_8));
            return false;
        }
        if (length > buffer.remaining()) {
            throw new IllegalStateException("an audit record of " + length + " bytes exceeds the buffer");
        }
        buffer.put(encoder.line(), 0, length);
        System.arraycopy(encoder.line(), encoder.hashOffset(), prevHash, 0, prevHash.length);
        lastTimeMicros = time;
        nextSeq++;
        bufferedRecords++;
        return true;
    }

    /**
     * Writes the buffered records with one {@code write} and, in {@link AuditSync#FSYNC} mode, forces them. Call it
     * at the end of every batch, before anything that depends on the records being written (replies) runs.
     *
     * @return true if every appended record is written; false if the trail has failed (now or before)
     */
    public boolean flush() {
        requireOpen();
        takeBackgroundFailure();
        if (failure != null || !write()) {
            return false;
        }
        if (sync == AuditSync.FSYNC && unforced) {
            try {
                channel.force(false);
                unforced = false;
            } catch (final IOException e) {
                dropUnforcedBatch(e);
                return false;
            }
        }
        markBatchStart();
        return true;
    }

    /** Remembers where the next batch starts in the current file, to cut it off if forcing it fails. */
    private void markBatchStart() {
        batchStartBytes = fileBytes;
        batchStartLastSeq = lastSeq;
        batchStartRecords = recordsWritten;
    }

    /**
     * A force failed after the batch was written: whether its bytes reached the device is unknown, so, as the journal
     * does, the batch is taken back out of the file (its records go to the log, as every record that could not be
     * written does) and the trail fails. A restart audits the batch's journaled commands again as recovered.
     */
    private void dropUnforcedBatch(final IOException cause) {
        final long length = fileBytes - batchStartBytes;
        if (channel != null && length > 0 && length <= Integer.MAX_VALUE) {
            try {
                final ByteBuffer unforcedBytes = ByteBuffer.allocate((int) length);
                while (unforcedBytes.hasRemaining()
                        && channel.read(unforcedBytes, batchStartBytes + unforcedBytes.position()) > 0) {
                    // reads the batch back, to log its records
                }
                int start = 0;
                final byte[] bytes = unforcedBytes.array();
                for (int i = 0; i < unforcedBytes.position(); i++) {
                    if (bytes[i] == '\n') {
                        unwritten(new String(bytes, start, i - start, StandardCharsets.UTF_8));
                        start = i + 1;
                    }
                }
            } catch (final IOException e) {
                cause.addSuppressed(e);
            }
        }
        fileBytes = batchStartBytes;
        lastSeq = batchStartLastSeq;
        recordsWritten = batchStartRecords;
        fail(cause, "forcing");
    }

    /** @return what {@link #open} found on disk: the chain's end and the last audited journal sequence */
    public AuditTail tail() {
        return tail;
    }

    /** @return the seq of the last record written to the OS; any thread */
    public long lastSeq() {
        return lastSeq;
    }

    /** @return the hash of the last appended record; call it on the owning thread or after {@link #close()} */
    public String headHash() {
        return new String(prevHash, StandardCharsets.US_ASCII);
    }

    /** @return the file being written, or null before the first record of an empty trail; any thread */
    public Path currentFile() {
        return file;
    }

    /** @return records written since open; any thread */
    public long recordsWritten() {
        return recordsWritten;
    }

    /** @return records that could not be written and were logged instead; any thread */
    public long unwrittenRecords() {
        return unwrittenRecords;
    }

    /** @return false once a write, force, roll or create has failed, or after {@link #close()}; any thread */
    public boolean isHealthy() {
        return failure == null && !closed;
    }

    /** @return the I/O error that made the trail fail, or null; any thread */
    public IOException failure() {
        return failure;
    }

    /**
     * Writes what is buffered, forces the file (whatever the sync mode: a clean stop leaves nothing to the OS),
     * closes it and releases the directory. After a failure, which was reported when it happened, it only
     * releases the directory. Idempotent, and safe against a concurrent call: the ring's shutdown calls it from the
     * audit thread's {@code onShutdown} while the service's stop calls it too, and {@code Disruptor.shutdown} returns
     * without waiting for that thread.
     *
     * @throws IOException if the final write, force or close fails now
     */
    @Override
    public synchronized void close() throws IOException {
        if (closed) {
            return;
        }
        IOException error = null;
        try {
            closeFile();
        } catch (final IOException e) {
            error = e;
        }
        try {
            lock.close();
        } catch (final IOException e) {
            if (error == null) {
                error = e;
            } else {
                error.addSuppressed(e);
            }
        }
        if (error != null) {
            throw error;
        }
    }

    private void closeFile() throws IOException {
        stopBackground();
        takeBackgroundFailure();
        if (failure != null) {
            closed = true;
            return;
        }
        final boolean written = flush();
        closed = true;
        if (!written) {
            throw failure;
        }
        if (channel != null) {
            try (FileChannel closing = channel) {
                channel = null;
                closing.force(true);
            }
        }
    }

    /** Writes the buffer to the current file, creating it if needed; @return false on failure */
    private boolean write() {
        final int pending = buffer.position();
        if (pending == 0) {
            return true;
        }
        try {
            if (channel == null) {
                channel = channels.open(file, true);
                if (sync == AuditSync.FSYNC) {
                    AuditFiles.syncDirectory(directory);
                }
            }
            buffer.flip();
            long at = fileBytes;
            while (buffer.hasRemaining()) {
                at += channel.write(buffer, at);
            }
            buffer.clear();
            writtenSinceForce += at - fileBytes;
            fileBytes = at;
            writeBack();
        } catch (final IOException e) {
            buffer.limit(buffer.capacity()).position(pending);
            fail(e, "writing");
            return false;
        }
        unforced = true;
        recordsWritten += bufferedRecords;
        bufferedRecords = 0;
        lastSeq = nextSeq - 1;
        return true;
    }

    private boolean roll(final long day) {
        if (!flush()) {
            return false;
        }
        final FileChannel previous = channel;
        channel = null;
        if (previous != null) {
            if (sync == AuditSync.FSYNC) {
                try {
                    previous.close();   // every batch of it is already forced
                } catch (final IOException e) {
                    fail(e, "closing");
                    return false;
                }
            } else {
                retire(previous);
            }
        }
        startFile(day);
        return true;
    }

    /**
     * Forces and closes a file the trail has moved on from, on a thread of its own. Its records are written
     * (all that {@link AuditSync#NONE} promises before an answer), so nothing waits for the force; done inline it
     * held every answer for the force's whole length, 50 ms on this project's machine once every 64 MiB of trail
     * (loadtest/RESULTS.md). A failure stops the trail at its next append or flush, as a failed write would.
     */
    private void retire(final FileChannel previous) {
        writtenSinceForce = 0;
        forceInBackground(previous, file, true);
    }

    /** Forces the current file in the background once {@link #WRITE_BACK_BYTES} were written since the last time. */
    private void writeBack() {
        if (sync != AuditSync.NONE || writtenSinceForce < WRITE_BACK_BYTES
                || (lastBackground != null && !lastBackground.isDone())) {
            return;
        }
        writtenSinceForce = 0;
        forceInBackground(channel, file, false);
    }

    /** Forces {@code target} on the background thread, then closes it if asked; a failure stops the trail. */
    private void forceInBackground(final FileChannel target, final Path name, final boolean close) {
        inBackground(() -> {
            try {
                target.force(false);
            } catch (final java.nio.channels.ClosedChannelException e) {
                // closed since (the trail failed, or closed it after forcing it itself): nothing left to force
            } catch (final IOException e) {
                backgroundFailure = new IOException("forcing " + name + " in the background failed: "
                        + e.getMessage(), e);
            } finally {
                if (close) {
                    closeRecordingFailure(target, name);
                }
            }
        });
    }

    private void closeRecordingFailure(final FileChannel target, final Path name) {
        try {
            target.close();
        } catch (final IOException e) {
            if (backgroundFailure == null) {
                backgroundFailure = new IOException("closing " + name + " failed: " + e.getMessage(), e);
            }
        }
    }

    private void inBackground(final Runnable task) {
        ExecutorService executor = background;
        if (executor == null) {
            executor = Executors.newSingleThreadExecutor(runnable -> {
                final Thread thread = new Thread(runnable, "oe-audit-sync");
                thread.setDaemon(true);
                return thread;
            });
            background = executor;
        }
        lastBackground = executor.submit(task);
    }

    /** Waits until every background force has ended, and stops the background thread. */
    private void stopBackground() {
        final ExecutorService executor = background;
        if (executor == null) {
            return;
        }
        background = null;
        executor.shutdown();
        boolean interrupted = false;
        while (true) {
            try {
                if (executor.awaitTermination(1, TimeUnit.SECONDS)) {
                    break;
                }
            } catch (final InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops the trail, as a failed write would, if a background force failed. Writer thread. */
    private void takeBackgroundFailure() {
        final IOException failed = backgroundFailure;
        if (failed != null && failure == null) {
            fail(failed, "forcing in the background");
        }
    }

    private void startFile(final long day) {
        file = AuditFiles.path(directory, day, nextSeq);
        fileDay = day;
        fileBytes = 0;
        unforced = false;
        markBatchStart();   // what the batch wrote to the previous file is forced with that file
    }

    private void fail(final IOException cause, final String action) {
        LOG.error("audit: {} {} failed; {} buffered record(s) are not in the trail and follow in this log",
                action, file, bufferedRecords, cause);
        final byte[] bytes = new byte[buffer.position()];
        buffer.flip();
        buffer.get(bytes);
        int start = 0;
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == '\n') {
                unwritten(new String(bytes, start, i - start, StandardCharsets.UTF_8));
                start = i + 1;
            }
        }
        buffer.clear();
        bufferedRecords = 0;
        if (channel != null) {
            try (FileChannel closing = channel) {
                channel = null;
                closing.truncate(fileBytes);
            } catch (final IOException e) {
                cause.addSuppressed(e);
            }
        }
        failure = cause;
    }

    private void unwritten(final String record) {
        unwrittenRecords++;
        LOG.error("audit: record not written to the trail: {}", record);
    }

    private void requireOpen() {
        if (closed) {
            throw new IllegalStateException("the audit trail is closed");
        }
    }
}
