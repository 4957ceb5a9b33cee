package io.orderentry.testing;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;

/**
 * A small tmpfs mounted on a directory, for tests that need a real full disk (the kernel's ENOSPC) rather than an
 * injected error. Mounting needs root; {@link #mount} says whether it worked so the test can skip with a message.
 */
public final class Tmpfs {

    private Tmpfs() {
    }

    /** Creates {@code dir} and mounts a tmpfs of {@code size} (e.g. "1m") on it; @return false if that is not allowed */
    public static boolean mount(final Path dir, final String size) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        return run("mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs", dir.toString()) == 0;
    }

    /** Gives the tmpfs on {@code dir} a new size, keeping its files; @return false if that failed */
    public static boolean resize(final Path dir, final String size) throws IOException, InterruptedException {
        return run("mount", "-o", "remount,size=" + size, dir.toString()) == 0;
    }

    /** Unmounts it (lazily, should a file still be open) */
    public static void unmount(final Path dir) throws IOException, InterruptedException {
        run("umount", "-l", dir.toString());
    }

    /**
     * Takes every free byte of the file system {@code dir} is on with the new file {@code dir/name}, writing until the
     * kernel answers ENOSPC, as another writer on the same disk would (the journal, the audit trail, anything). A
     * writer that checked the free space a moment before then gets ENOSPC from the kernel at its next write that needs
     * a new page. Delete the file to give the space back.
     *
     * @return the file
     */
    public static Path fill(final Path dir, final String name) throws IOException {
        final Path filler = dir.resolve(name);
        try (FileChannel channel = FileChannel.open(filler, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            for (int chunk = 1 << 16; chunk >= 1; chunk >>= 4) {   // 64 KiB, 4 KiB, 256, 16, 1 byte
                final ByteBuffer zeros = ByteBuffer.allocate(chunk);
                try {
                    while (true) {
                        zeros.clear();
                        while (zeros.hasRemaining()) {
                            channel.write(zeros);
                        }
                    }
                } catch (final IOException full) {
                    if (!String.valueOf(full.getMessage()).contains("No space left on device")) {
                        throw full;
                    }
                }
            }
        }
        return filler;
    }

    static int run(final String... command) throws IOException, InterruptedException {
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        process.getInputStream().readAllBytes();
        return process.waitFor(30, TimeUnit.SECONDS) ? process.exitValue() : -1;
    }
}
