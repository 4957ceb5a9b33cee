package io.orderentry.audit;

import io.orderentry.journal.DirectoryLock;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Objects;
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
 * <p>Failure: on an I/O error the trail truncates the file back to its last complete batch (best effort) and closes
 * it. The records that were not written (the buffered ones, or in {@link AuditSync#FSYNC} mode the batch whose
 * force failed) and every record appended after it are chained as usual and kept in memory, in order, up to
 * {@link #MAX_PENDING_BYTES}; {@link #append} and {@link #flush} return false. Each is also logged at ERROR, so that
 * a process that dies before the trail writes again leaves them in its log. {@link #resume} (the audit stage calls it
 * once a second) reopens the file, cuts it back to the last whole batch again and writes the kept records with one
 * write and a force: the chain goes on as if nothing had happened. Kept records may take a file past its size or day:
 * the next record after them starts a new file. If more than {@link #MAX_PENDING_BYTES} would have to be kept, or a
 * batch whose force failed cannot be read back, the chain cannot go on in this process: the trail stays failed,
 * every later record is only logged and counted in {@link #unwrittenRecords()}, and {@link #resumable()} turns false
 * (a restart audits the journaled commands the trail lacks as recovered).
 *
 * <p>The current file (its channel, length, forces and the background ones) is {@link AuditFile}'s, the records
 * kept after a failure {@link AuditPending}'s; this class keeps the chain, the buffer and what to do on a failure.
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

    /**
     * The most record bytes kept in memory while the trail cannot write. While it cannot, order entry takes no new
     * requests, so what arrives is what was already in the rings: about 400 bytes per record, far below this.
     */
    static final int MAX_PENDING_BYTES = 64 << 20;

    private final long maxFileBytes;
    private final AuditSync sync;
    private final LongSupplier clockMicros;
    private final AuditTail tail;
    private final DirectoryLock lock;
    private final AuditRecordEncoder encoder = new AuditRecordEncoder();
    private final ByteBuffer buffer = ByteBuffer.allocateDirect(BUFFER_BYTES);
    private final byte[] prevHash = new byte[AuditFormat.HASH_HEX_LENGTH];

    /** The file being written: its channel, length and forces. */
    private final AuditFile current;
    /** Where the batch being written started in the current file, and the trail's counts before it. */
    private long batchStartBytes;
    private long batchStartLastSeq;
    private long batchStartRecords;
    private long nextSeq;
    private long lastTimeMicros;
    private int bufferedRecords;
    private boolean closed;

    private volatile long lastSeq;
    private volatile long recordsWritten;
    private volatile IOException failure;
    /** The records chained since the trail failed and not written yet. */
    private final AuditPending pending;
    private long resumeFailuresLogged;

    private AuditTrail(final AuditConfig config, final LongSupplier clockMicros, final AuditChannelFactory channels,
                       final AuditTail tail, final DirectoryLock lock, final int maxPendingBytes) {
        this.pending = new AuditPending(maxPendingBytes);
        this.maxFileBytes = config.maxFileBytes();
        this.sync = config.sync();
        this.current = new AuditFile(config.directory(), config.sync(), channels);
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
        return open(config, clockMicros, channels, MAX_PENDING_BYTES);
    }

    /** As {@link #open(AuditConfig, LongSupplier, AuditChannelFactory)}, keeping at most {@code maxPendingBytes}. */
    static AuditTrail open(final AuditConfig config, final LongSupplier clockMicros,
                           final AuditChannelFactory channels, final int maxPendingBytes) throws IOException {
        Objects.requireNonNull(clockMicros, "clockMicros");
        Objects.requireNonNull(channels, "channels");
        final DirectoryLock lock = DirectoryLock.acquire(config.directory(), DirectoryLock.AUDIT, "audit trail");
        try {
            final AuditTail tail = AuditTailReader.read(config.directory());
            final AuditTrail trail = new AuditTrail(config, clockMicros, channels, tail, lock, maxPendingBytes);
            if (tail.newestFile() != null) {
                trail.current.continueWith(tail.newestFile(), tail.newestFileBytes());
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
        if (failure != null && !pending.resumable()) {
            pending.unwritten(entry.toString());
            return false;
        }
        final long time = Math.max(lastTimeMicros, clockMicros.getAsLong());
        final long day = AuditFiles.epochDay(time);
        final int length = encoder.encode(nextSeq, time, entry, prevHash);
        final boolean ready;
        if (failure != null) {
            ready = false;
        } else if (current.path() == null) {
            startFile(day);
            ready = true;
        } else if (current.bytes() + buffer.position() > 0
                && (day != current.day() || current.bytes() + buffer.position() + length > maxFileBytes)) {
            ready = roll(day);
        } else {
            ready = buffer.remaining() >= length || write();
        }
        if (!ready) {
            pending.keep(encoder.line(), 0, length, 1);
        } else {
            if (length > buffer.remaining()) {
                throw new IllegalStateException("an audit record of " + length + " bytes exceeds the buffer");
            }
            buffer.put(encoder.line(), 0, length);
            bufferedRecords++;
        }
        System.arraycopy(encoder.line(), encoder.hashOffset(), prevHash, 0, prevHash.length);
        lastTimeMicros = time;
        nextSeq++;
        return ready;
    }

    /**
     * After a failure, writes the records kept since then: reopens the current file (or creates it, if the failure
     * came before it existed), cuts it back to the last whole batch, writes them with one write and forces them.
     * Call it on the writer thread, not more than about once a second while it keeps failing.
     *
     * @return true if the trail writes again (or never stopped); false if it still cannot, or never will in this
     *         process ({@link #resumable()})
     */
    public boolean resume() {
        requireOpen();
        takeBackgroundFailure();
        if (failure == null) {
            return true;
        }
        if (!pending.resumable()) {
            return false;
        }
        if (pending.records() != nextSeq - 1 - lastSeq || bufferedRecords != 0) {
            throw new IllegalStateException("audit: " + pending.records() + " kept record(s) do not follow seq "
                    + lastSeq + " up to " + (nextSeq - 1));
        }
        try {
            current.rewrite(pending.bytes());
        } catch (final IOException e) {
            if (resumeFailuresLogged++ % 60 == 0) {   // once a minute at one attempt a second
                LOG.error("audit: the trail still cannot write {} ({} record(s) kept); trying again", current.path(),
                        pending.records(), e);
            }
            return false;
        }
        LOG.warn("audit: the trail writes again: {} record(s) kept since it failed ({}) are now in {}, seq {} to {}",
                pending.records(), failure.getMessage(), current.path(), lastSeq + 1, nextSeq - 1);
        recordsWritten += pending.records();
        lastSeq = nextSeq - 1;
        markBatchStart();
        pending.clear();
        resumeFailuresLogged = 0;
        failure = null;
        current.clearBackgroundFailure();
        return true;
    }

    /** @return records chained since the trail failed and not yet written ({@link #resume}); any thread */
    public long pendingRecords() {
        return pending.records();
    }

    /** @return false once the trail has lost records and cannot continue its chain before a restart; any thread */
    public boolean resumable() {
        return pending.resumable();
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
        if (sync == AuditSync.FSYNC) {
            try {
                current.force();
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
        batchStartBytes = current.bytes();
        batchStartLastSeq = lastSeq;
        batchStartRecords = recordsWritten;
    }

    /**
     * A force failed after the batch was written: whether its bytes reached the device is unknown, so, as the journal
     * does, the batch is taken back out of the file and the trail fails; its records are kept, first, for
     * {@link #resume} to write again.
     */
    private void dropUnforcedBatch(final IOException cause) {
        try {
            final byte[] unforced = current.readBack(batchStartBytes);
            if (unforced != null) {
                pending.keep(unforced, 0, unforced.length, recordsWritten - batchStartRecords);
            }
        } catch (final IOException e) {
            cause.addSuppressed(e);
            pending.lose("the batch whose force failed cannot be read back (" + e.getMessage() + ")",
                    recordsWritten - batchStartRecords);
        }
        current.cutBack(batchStartBytes);
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
        return current.path();
    }

    /** @return records written since open; any thread */
    public long recordsWritten() {
        return recordsWritten;
    }

    /** @return records that could not be written and were logged instead; any thread */
    public long unwrittenRecords() {
        return pending.unwrittenRecords();
    }

    /**
     * @return false from a failed write, force, roll or create until {@link #resume} writes again, and after
     *         {@link #close()}; any thread
     */
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
        current.stopBackground();
        takeBackgroundFailure();
        if (failure != null && !resume()) {
            pending.lose("the trail is closing", pending.records());
            closed = true;
            return;
        }
        final boolean written = flush();
        closed = true;
        if (!written) {
            throw failure;
        }
        current.closeForced();
    }

    /** Writes the buffer to the current file, creating it if needed; @return false on failure */
    private boolean write() {
        final int buffered = buffer.position();
        if (buffered == 0) {
            return true;
        }
        try {
            current.write(buffer);
        } catch (final IOException e) {
            buffer.limit(buffer.capacity()).position(buffered);
            fail(e, "writing");
            return false;
        }
        recordsWritten += bufferedRecords;
        bufferedRecords = 0;
        lastSeq = nextSeq - 1;
        return true;
    }

    private boolean roll(final long day) {
        if (!flush()) {
            return false;
        }
        try {
            current.finish();
        } catch (final IOException e) {
            fail(e, "closing");
            return false;
        }
        startFile(day);
        return true;
    }

    /**
     * Stops the trail if a background force failed, for good: the records of a file whose force failed may be gone
     * from the disk (the kernel may drop pages it could not write), so the chain cannot go on from them in this
     * process; a restart reads the trail back and verifies it. Writer thread.
     */
    private void takeBackgroundFailure() {
        final IOException failed = current.backgroundFailure();
        if (failed != null && failure == null) {
            fail(failed, "forcing in the background");
            pending.lose("a written file could not be forced, so its records may not be on the disk",
                    pending.records());
        }
    }

    private void startFile(final long day) {
        current.start(day, nextSeq);
        markBatchStart();   // what the batch wrote to the previous file is forced with that file
    }

    private void fail(final IOException cause, final String action) {
        LOG.error("audit: {} {} failed; the trail keeps the records it could not write in memory and in this log,"
                + " and tries again every second", action, current.path(), cause);
        final byte[] bytes = new byte[buffer.position()];
        buffer.flip();
        buffer.get(bytes);
        buffer.clear();
        pending.keep(bytes, 0, bytes.length, bufferedRecords);
        bufferedRecords = 0;
        current.closeTruncated(cause);
        failure = cause;
    }

    private void requireOpen() {
        if (closed) {
            throw new IllegalStateException("the audit trail is closed");
        }
    }
}
