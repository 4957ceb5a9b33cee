package io.orderentry.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import io.orderentry.testing.Metrics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The disk figures of {@code /metrics}: per state directory, the bytes of its files (subdirectories included), and the
 * free and total bytes of the file system under it, also for a directory not made yet (snapshots before the first).
 */
class DiskUsageTest {

    @TempDir
    Path dir;

    @Test
    void shouldReportTheBytesOfADirectorysFilesAndItsFileSystemsFreeAndTotalBytes() throws Exception {
        final Path journal = Files.createDirectories(dir.resolve("journal"));
        Files.write(journal.resolve("segment-1"), new byte[1000]);
        Files.write(Files.createDirectories(journal.resolve("nested")).resolve("segment-2"), new byte[24]);
        final Map<String, Path> directories = new LinkedHashMap<>();
        directories.put("journal", journal);
        directories.put("snapshots", dir.resolve("snapshots"));
        final MetricsText metrics = new MetricsText();
        try (DiskUsage usage = new DiskUsage(directories)) {
            usage.register(metrics);
            final String text = metrics.render();
            assertEquals(1024.0, Metrics.series(text, "orders_directory_bytes{dir=\"journal\"}"));
            assertEquals(0.0, Metrics.series(text, "orders_directory_bytes{dir=\"snapshots\"}"), "not made yet: nothing in it");
            final double size = Metrics.series(text, "orders_disk_size_bytes{dir=\"journal\"}");
            final double free = Metrics.series(text, "orders_disk_free_bytes{dir=\"journal\"}");
            assertTrue(size > 0 && free >= 0 && free <= size, size + " " + free);
            assertEquals(size, Metrics.series(text, "orders_disk_size_bytes{dir=\"snapshots\"}"),
                    "a directory not made yet is on its parent's file system");

            Files.write(journal.resolve("segment-3"), new byte[2048]);
            usage.sample();
            assertEquals(3072.0, Metrics.series(metrics.render(), "orders_directory_bytes{dir=\"journal\"}"),
                    "each sample reads the directory anew");
        } finally {
            metrics.close();
        }
    }

}
