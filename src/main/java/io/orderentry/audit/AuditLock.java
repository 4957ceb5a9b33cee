package io.orderentry.audit;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Exclusive ownership of an audit directory, so that two processes can never extend (or cut the tail of) the
 * same chain. An OS file lock on {@value #FILE_NAME}: released when the process dies, even by SIGKILL, so a
 * crash never leaves a stale lock behind. Taken by {@link AuditTrail#open}, released by its close.
 */
final class AuditLock implements AutoCloseable {

    /** The lock file inside the audit directory; not an audit file, so the chain ignores it. */
    static final String FILE_NAME = "audit.lock";

    private final FileChannel channel;
    private final FileLock lock;

    private AuditLock(final FileChannel channel, final FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /** @throws IOException if another process (or this one) holds the directory, naming it */
    static AuditLock acquire(final Path directory) throws IOException {
        Files.createDirectories(directory);
        final Path file = directory.resolve(FILE_NAME);
        final FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        final FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (final OverlappingFileLockException | IOException e) {
            channel.close();
            throw new IOException("audit trail " + directory + " is already in use by this process", e);
        }
        if (lock == null) {
            channel.close();
            throw new IOException("audit trail " + directory + " is in use by another process (" + file
                    + " is locked); only one service may write a trail");
        }
        return new AuditLock(channel, lock);
    }

    @Override
    public void close() throws IOException {
        try {
            lock.release();
        } finally {
            channel.close();
        }
    }
}
