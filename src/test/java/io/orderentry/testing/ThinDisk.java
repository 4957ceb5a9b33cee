package io.orderentry.testing;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A file system whose storage runs out underneath it, as on an overcommitted thin-provisioned volume: an ext4 image
 * (no ext4 journal, {@code errors=continue}) on a loop device, the image a sparse file on a small tmpfs. ext4 believes
 * it has room, so {@code write} into the page cache succeeds; pages that do not fit in the storage fail when they are
 * written back, and {@code fsync} reports the kernel's error for them (a real failed force, not an injected one).
 * Needs root, a loop device and {@code mkfs.ext4}; {@link #mount} answers null where that is not possible, so the
 * test can skip with a message.
 */
public final class ThinDisk {

    private static final long IMAGE_BYTES = 64L << 20;

    private final Path mountPoint;
    private final Path storage;

    private ThinDisk(final Path mountPoint, final Path storage) {
        this.mountPoint = mountPoint;
        this.storage = storage;
    }

    /**
     * Mounts a 64 MiB ext4 file system on {@code mountPoint} whose storage, a tmpfs on {@code storage}, holds what
     * mkfs wrote plus {@code roomBytes}.
     *
     * @return the disk, or null if this machine does not allow it (not root, no loop device, no mkfs.ext4)
     */
    public static ThinDisk mount(final Path mountPoint, final Path storage, final long roomBytes)
            throws IOException, InterruptedException {
        if (!Tmpfs.mount(storage, "16m")) {
            return null;
        }
        final ThinDisk disk = new ThinDisk(mountPoint, storage);
        final Path image = storage.resolve("disk.img");
        try (RandomAccessFile file = new RandomAccessFile(image.toFile(), "rw")) {
            file.setLength(IMAGE_BYTES);   // sparse: takes storage only where written
        }
        // few inodes, zeroed at once: no background initialisation writes into the storage behind the test's back
        if (Tmpfs.run("mkfs.ext4", "-q", "-F", "-O", "^has_journal", "-N", "64", "-m", "0", "-E",
                "lazy_itable_init=0", image.toString()) != 0) {
            disk.unmount();
            return null;
        }
        final long used = Files.getFileStore(storage).getTotalSpace() - Files.getFileStore(storage).getUsableSpace();
        Files.createDirectories(mountPoint);
        if (!disk.grow(((used + roomBytes) >> 10) + "k")
                || Tmpfs.run("mount", "-t", "ext4", "-o", "loop,errors=continue", image.toString(),
                        mountPoint.toString()) != 0) {
            disk.unmount();
            return null;
        }
        return disk;
    }

    /** Gives the storage a new size (e.g. "64m"); @return false if that failed */
    public boolean grow(final String size) throws IOException, InterruptedException {
        return Tmpfs.resize(storage, size);
    }

    /** Unmounts the file system (which frees its loop device) and its storage, lazily should a file still be open. */
    public void unmount() throws IOException, InterruptedException {
        Tmpfs.run("umount", "-l", mountPoint.toString());
        Tmpfs.unmount(storage);
    }
}
