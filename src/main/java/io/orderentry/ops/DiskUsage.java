package io.orderentry.ops;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How full the disks under the service's directories are (journal, audit trail, spool, snapshots, a cluster member's
 * log), for {@code /metrics}: per directory, the bytes its files take and the free and total bytes of the file system
 * that holds it. A directory fills its disk long before anything fails, and an operator wants to be told while there
 * is still time (README, "Monitoring").
 *
 * <p>The figures are sampled on a thread of their own ({@code oe-disk-usage}) every {@link #PERIOD_SECONDS} seconds,
 * never on a scrape: a {@code statfs} and a walk of a directory are file-system calls, which an event loop must not
 * make. The gauges read the last sample. A directory that cannot be read (any failure, so that none ends the sampling)
 * is logged once per failure run and its figures read {@code NaN} until it can be again, so a scrape never shows a
 * stale figure as current.
 *
 * <p>Threads: {@link #register} and {@link #close} on the starting and stopping thread; the sampling on its own.
 */
public final class DiskUsage implements AutoCloseable {

    /** Seconds between two samples. */
    static final long PERIOD_SECONDS = 5;

    private static final Logger LOG = LoggerFactory.getLogger(DiskUsage.class);

    private final List<Directory> directories = new ArrayList<>();
    private ScheduledExecutorService sampler;

    /**
     * @param directories the directories to watch, by the name their figures carry in the {@code dir} label
     *                    ({@code journal}, {@code audit}, ...), in the order given
     */
    public DiskUsage(final Map<String, Path> directories) {
        directories.forEach((name, path) -> this.directories.add(new Directory(name, path)));
    }

    /** Takes a first sample, registers the figures and starts sampling; called once. */
    public void register(final MetricsText metrics) {
        sample();
        for (final Directory each : directories) {
            final String label = "dir=\"" + each.name + "\"";
            metrics.gauge("orders_directory_bytes", "Bytes of the files in the service's directory (NaN: it could not"
                    + " be read)", label, () -> each.bytes);
            metrics.gauge("orders_disk_free_bytes", "Bytes free for the service on the file system holding the"
                    + " directory (NaN: it could not be read)", label, () -> each.free);
            metrics.gauge("orders_disk_size_bytes", "Size of the file system holding the directory, in bytes",
                    label, () -> each.size);
        }
        sampler = Executors.newSingleThreadScheduledExecutor(runnable -> {
            final Thread thread = new Thread(runnable, "oe-disk-usage");
            thread.setDaemon(true);
            return thread;
        });
        sampler.scheduleWithFixedDelay(this::sample, PERIOD_SECONDS, PERIOD_SECONDS, TimeUnit.SECONDS);
    }

    /** Samples every directory once. */
    void sample() {
        for (final Directory each : directories) {
            each.sample();
        }
    }

    /** Stops sampling; the gauges keep their last figures. */
    @Override
    public void close() {
        if (sampler != null) {
            sampler.shutdownNow();
        }
    }

    /** One watched directory and its last sample, read by the scrape. */
    private static final class Directory {
        final String name;
        final Path path;
        volatile double bytes = Double.NaN;
        volatile double free = Double.NaN;
        volatile double size = Double.NaN;
        private boolean failing;

        Directory(final String name, final Path path) {
            this.name = name;
            this.path = path;
        }

        void sample() {
            try {
                // a directory made only when first needed (snapshots) holds nothing yet, on its parent's file system
                final boolean exists = Files.exists(path);
                final FileStore store = Files.getFileStore(exists ? path : existingAncestor(path));
                free = store.getUsableSpace();
                size = store.getTotalSpace();
                bytes = exists ? filesBytes(path) : 0;
                if (failing) {
                    LOG.info("disk usage: {} ({}) can be read again", name, path);
                    failing = false;
                }
            } catch (final IOException | RuntimeException e) {
                bytes = Double.NaN;
                free = Double.NaN;
                size = Double.NaN;
                if (!failing) {
                    LOG.warn("disk usage: {} ({}) cannot be read, its figures read NaN until it can: {}", name, path,
                            e.toString());
                    failing = true;
                }
            }
        }

        /** @return the nearest ancestor of {@code path} that exists */
        private static Path existingAncestor(final Path path) throws NoSuchFileException {
            for (Path each = path.toAbsolutePath().getParent(); each != null; each = each.getParent()) {
                if (Files.exists(each)) {
                    return each;
                }
            }
            throw new NoSuchFileException(path.toString());
        }

        /** @return the logical bytes of the regular files under {@code root}; a file deleted during the walk counts 0 */
        private static long filesBytes(final Path root) throws IOException {
            final long[] total = new long[1];
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(final Path file, final BasicFileAttributes attributes) {
                    if (attributes.isRegularFile()) {
                        total[0] += attributes.size();
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(final Path file, final IOException e) throws IOException {
                    if (e instanceof NoSuchFileException) {
                        return FileVisitResult.CONTINUE;   // a segment deleted or archived while we walked
                    }
                    throw e;
                }
            });
            return total[0];
        }
    }
}
