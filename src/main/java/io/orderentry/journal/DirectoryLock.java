package io.orderentry.journal;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Exclusive ownership of a directory of durable files (the journal, the audit trail), so that two processes can
 * never append to, or cut the tail of, the same files. An OS file lock on a lock file inside the directory: it is
 * released when the process dies, even by SIGKILL, so a crash never leaves a stale lock behind.
 */
public final class DirectoryLock implements AutoCloseable {

    /** The journal directory's lock file. */
    public static final String JOURNAL = "journal.lock";
    /** The audit directory's lock file; not an audit file, so the chain ignores it. */
    public static final String AUDIT = "audit.lock";

    private final FileChannel channel;
    private final FileLock lock;

    private DirectoryLock(final FileChannel channel, final FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Takes the lock; call before reading or writing the directory, on the starting thread.
     *
     * @param directory the directory, created if missing
     * @param fileName  the lock file inside it ({@link #JOURNAL} or {@link #AUDIT})
     * @param what      what the directory holds, for the error message ("journal", "audit trail")
     * @throws IOException if another process (or this one) holds it, naming the directory
     */
    public static DirectoryLock acquire(final Path directory, final String fileName, final String what)
            throws IOException {
        Files.createDirectories(directory);
        final Path file = directory.resolve(fileName);
        final FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        final FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (final OverlappingFileLockException | IOException e) {
            channel.close();
            throw new IOException(what + " " + directory + " is already in use by this process", e);
        }
        if (lock == null) {
            channel.close();
            throw new IOException(what + " " + directory + " is in use by another process (" + file
                    + " is locked); only one service may own it");
        }
        return new DirectoryLock(channel, lock);
    }

    /** Releases the lock. */
    @Override
    public void close() throws IOException {
        try {
            lock.release();
        } finally {
            channel.close();
        }
    }
}
