package io.orderentry.audit;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The file the {@link AuditTrail} writes: its name, day and length, the channel it is written through, and its
 * forces. A file is named when the trail starts it and created when its first bytes are written (in
 * {@link AuditSync#FSYNC} mode with its directory forced); bytes go at the file's end with positional writes. In
 * {@link AuditSync#NONE} mode the file is forced in the background every {@link AuditTrail#WRITE_BACK_BYTES}, and a
 * file the trail has moved on from is forced and closed in the background ({@link AuditBackgroundSync}); in
 * {@link AuditSync#FSYNC} mode the trail forces each batch ({@link #force}).
 *
 * <p>The chain, the records and what to do on a failure are the trail's; this class only says what the disk did:
 * every I/O error is thrown to the trail, and {@link #closeTruncated} and {@link #rewrite} cut the file back to its
 * last whole batch.
 *
 * <p>Threads: the trail's writer thread; {@link #path} from any thread.
 */
final class AuditFile {

    private final Path directory;
    private final AuditSync sync;
    private final AuditChannelFactory channels;
    /** Forces files off the answer path ({@code oe-audit-sync}); shut down by {@link #stopBackground()}. */
    private final AuditBackgroundSync background = new AuditBackgroundSync();

    private FileChannel channel;
    private volatile Path file;
    private long fileBytes;
    private long fileDay;
    private boolean unforced;
    private long writtenSinceForce;

    AuditFile(final Path directory, final AuditSync sync, final AuditChannelFactory channels) {
        this.directory = directory;
        this.sync = sync;
        this.channels = channels;
    }

    /** Goes on writing {@code newest}, {@code bytes} long, where the trail on disk ends. */
    void continueWith(final Path newest, final long bytes) throws IOException {
        channel = channels.open(newest, false);
        file = newest;
        fileBytes = bytes;
        fileDay = AuditFiles.epochDayOf(newest);
    }

    /** Names the next file, for UTC day {@code day} and its first record {@code firstSeq}; created when written. */
    void start(final long day, final long firstSeq) {
        file = AuditFiles.path(directory, day, firstSeq);
        fileDay = day;
        fileBytes = 0;
        unforced = false;
    }

    /** @return the file being written, or null before the first record of an empty trail; any thread */
    Path path() {
        return file;
    }

    /** @return the bytes written to the file (or, after {@link #cutBack}, the whole batches in it) */
    long bytes() {
        return fileBytes;
    }

    /** @return the UTC epoch day the file's records belong to */
    long day() {
        return fileDay;
    }

    /**
     * Writes {@code buffer}'s bytes (from 0 to its position) at the file's end, creating the file if needed, and
     * clears it; in {@link AuditSync#NONE} mode it then forces the file in the background if enough was written.
     *
     * @throws IOException with {@code buffer} as it was (or partly flipped: the trail resets it)
     */
    void write(final ByteBuffer buffer) throws IOException {
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
        unforced = true;
    }

    /** Forces what was written since the last force, if anything; the trail calls it per batch in FSYNC mode. */
    void force() throws IOException {
        if (unforced) {
            channel.force(false);
            unforced = false;
        }
    }

    /**
     * The trail moves on to a new file: this one is closed (in {@link AuditSync#FSYNC} mode, where every batch of it
     * is already forced), or forced and closed in the background. Written and forced first by the trail.
     *
     * @throws IOException if closing it failed (FSYNC mode); it is no longer this file's either way
     */
    void finish() throws IOException {
        final FileChannel previous = channel;
        channel = null;
        if (previous == null) {
            return;
        }
        if (sync == AuditSync.FSYNC) {
            previous.close();
        } else {
            retire(previous);
        }
    }

    /**
     * @return the bytes written since {@code from} (the start of a batch whose force failed), read back; null if
     *         there are none or no channel to read them from
     * @throws IOException if they cannot be read back whole
     */
    byte[] readBack(final long from) throws IOException {
        final long length = fileBytes - from;
        if (channel == null || length <= 0 || length > Integer.MAX_VALUE) {
            return null;
        }
        final ByteBuffer bytes = ByteBuffer.allocate((int) length);
        while (bytes.hasRemaining() && channel.read(bytes, from + bytes.position()) > 0) {
            // reads the batch back, to log its records
        }
        if (bytes.hasRemaining()) {
            throw new IOException("the batch read back short: " + bytes.position() + " of " + length + " bytes");
        }
        return bytes.array();
    }

    /** Takes the bytes after {@code length} out of the file's count: {@link #closeTruncated} cuts them off. */
    void cutBack(final long length) {
        fileBytes = length;
    }

    /** After a failure: truncates the file to its whole batches and closes it; errors are added to {@code cause}. */
    void closeTruncated(final IOException cause) {
        if (channel != null) {
            try (FileChannel closing = channel) {
                channel = null;
                closing.truncate(fileBytes);
            } catch (final IOException e) {
                cause.addSuppressed(e);
            }
        }
    }

    /**
     * After a failure: reopens the file (or creates it, if the failure came before it existed), cuts it back to its
     * last whole batch, writes {@code bytes} there with one write and forces it, whatever the sync mode (this disk
     * just failed, and it is rare). On a failure the reopened file is truncated and closed again.
     */
    void rewrite(final ByteBuffer bytes) throws IOException {
        FileChannel reopened = null;
        try {
            final boolean exists = Files.exists(file);
            reopened = channels.open(file, !exists);
            if (!exists && sync == AuditSync.FSYNC) {
                AuditFiles.syncDirectory(directory);
            }
            reopened.truncate(fileBytes);   // whatever a failed write left after the last whole batch
            long at = fileBytes;
            while (bytes.hasRemaining()) {
                at += reopened.write(bytes, at);
            }
            reopened.force(false);
            channel = reopened;
            reopened = null;
            fileBytes = at;
            unforced = false;
            writtenSinceForce = 0;
        } catch (final IOException e) {
            if (reopened != null) {
                try (FileChannel closing = reopened) {
                    closing.truncate(fileBytes);
                } catch (final IOException close) {
                    e.addSuppressed(close);
                }
            }
            throw e;
        }
    }

    /** At a clean stop: forces the file, metadata too (whatever the sync mode), and closes it. */
    void closeForced() throws IOException {
        if (channel != null) {
            try (FileChannel closing = channel) {
                channel = null;
                closing.force(true);
            }
        }
    }

    /** @return the first failed background force or close since the last {@link #clearBackgroundFailure}, or null */
    IOException backgroundFailure() {
        return background.failure();
    }

    /** Forgets a background failure the trail has dealt with. */
    void clearBackgroundFailure() {
        background.clearFailure();
    }

    /** Stops the background sync thread, after the forces submitted. */
    void stopBackground() {
        background.stop();
    }

    /**
     * Forces and closes a file the trail has moved on from, on a thread of its own. Its records are written
     * (all that {@link AuditSync#NONE} promises before an answer), so nothing waits for the force; done inline it
     * held every answer for the force's whole length, 50 ms on this project's machine once every 64 MiB of trail
     * (loadtest/RESULTS.md). A failure stops the trail at its next append or flush, and, unlike a failed write, until
     * a restart ({@link AuditTrail}'s {@code takeBackgroundFailure}).
     */
    private void retire(final FileChannel previous) {
        writtenSinceForce = 0;
        background.forceAndClose(previous, file);
    }

    /** Forces the current file in the background once {@link AuditTrail#WRITE_BACK_BYTES} were written since. */
    private void writeBack() {
        if (sync != AuditSync.NONE || writtenSinceForce < AuditTrail.WRITE_BACK_BYTES || background.busy()) {
            return;
        }
        writtenSinceForce = 0;
        background.force(channel, file);
    }
}
