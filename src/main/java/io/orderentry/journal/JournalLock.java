package io.orderentry.journal;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Exclusive ownership of a journal directory, so that two processes can never append to the same
 * journal. An OS file lock on {@value #FILE_NAME}: it is released when the process dies, even by
 * SIGKILL, so a crash never leaves a stale lock behind.
 */
public final class JournalLock implements AutoCloseable {

    /** The lock file inside the journal directory. */
    public static final String FILE_NAME = "journal.lock";

    private final FileChannel channel;
    private final FileLock lock;

    private JournalLock(final FileChannel channel, final FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Takes the lock; call before recovery, on the starting thread.
     *
     * @throws IOException if another process (or this one) holds it, naming the directory
     */
    public static JournalLock acquire(final Path directory) throws IOException {
        Files.createDirectories(directory);
        final Path file = directory.resolve(FILE_NAME);
        final FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        final FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (final OverlappingFileLockException | IOException e) {
            channel.close();
            throw new IOException("journal " + directory + " is already in use by this process", e);
        }
        if (lock == null) {
            channel.close();
            throw new IOException("journal " + directory + " is in use by another process (" + file
                    + " is locked); only one service may own a journal");
        }
        return new JournalLock(channel, lock);
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
