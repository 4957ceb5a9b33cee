package io.orderentry.bench.journal;

import io.orderentry.journal.JournalConfig;
import io.orderentry.journal.JournalReader;
import io.orderentry.journal.JournalSync;
import io.orderentry.journal.JournalWriter;
import io.orderentry.pipeline.OrderCommand;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.concurrent.TimeUnit;

/**
 * Measures group commit on this disk: appends batches of 1, 16, 64 and 256 records with
 * {@link JournalSync#FSYNC}, one flush (write + fsync) per batch, for a fixed time per batch size, and prints
 * records/s and the latency of fsync and of the whole flush (p50, p99, max).
 *
 * <p>Usage: {@code JournalFsyncBenchmark [dir] [secondsPerBatchSize]}, defaults
 * {@code target/journal-bench/fsync 5}. The directory is emptied first.
 */
public final class JournalFsyncBenchmark {

    private static final int[] BATCH_SIZES = {1, 16, 64, 256};

    private JournalFsyncBenchmark() {
    }

    public static void main(final String[] args) throws IOException {
        final Path root = Paths.get(args.length > 0 ? args[0] : "target/journal-bench/fsync");
        final double seconds = args.length > 1 ? Double.parseDouble(args[1]) : 5;
        JournalReplayBenchmark.deleteRecursively(root);
        System.out.printf("%6s %12s %10s %10s %10s %10s %10s %10s%n", "batch", "records/s", "batches/s",
                "fsync p50", "fsync p99", "fsync max", "flush p50", "flush p99");
        for (final int batch : BATCH_SIZES) {
            run(root.resolve("batch-" + batch), batch, seconds);
        }
        System.out.println("latencies in microseconds; flush = one write + one fsync of the whole batch");
    }

    private static void run(final Path dir, final int batch, final double seconds) throws IOException {
        final JournalConfig config = new JournalConfig(dir, JournalSync.FSYNC, JournalConfig.DEFAULT_SEGMENT_SIZE,
                JournalConfig.DEFAULT_WRITE_BUFFER);
        final Histogram fsync = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
        final Histogram flush = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
        try (JournalWriter writer = JournalWriter.open(config, BenchCommands.SYMBOLS,
                JournalReader.recover(dir, BenchCommands.symbolIndex(), c -> { }))) {
            final BenchCommands commands = new BenchCommands(7);
            final OrderCommand c = new OrderCommand();
            long sequence = 0;
            final long warmupEnd = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(500);
            long start = 0;
            long measured = 0;
            long batches = 0;
            final long end = warmupEnd + (long) (seconds * 1e9);
            while (true) {
                final long now = System.nanoTime();
                if (now >= end) {
                    break;
                }
                final boolean warm = now >= warmupEnd;
                if (warm && start == 0) {
                    start = now;
                }
                for (int i = 0; i < batch; i++) {
                    commands.next(c);
                    c.sequence = ++sequence;
                    c.timestampMicros = sequence;
                    writer.append(c);
                }
                final long flushStart = System.nanoTime();
                if (!writer.flush()) {
                    throw new IOException("flush failed", writer.failure());
                }
                if (warm) {
                    flush.recordValue(System.nanoTime() - flushStart);
                    fsync.recordValue(writer.lastForceNanos());
                    measured += batch;
                    batches++;
                }
            }
            final double elapsed = (System.nanoTime() - start) / 1e9;
            System.out.printf("%6d %,12.0f %,10.0f %10.0f %10.0f %10.0f %10.0f %10.0f%n", batch, measured / elapsed,
                    batches / elapsed, micros(fsync, 50), micros(fsync, 99), fsync.getMaxValue() / 1e3,
                    micros(flush, 50), micros(flush, 99));
        }
    }

    private static double micros(final Histogram histogram, final double percentile) {
        return histogram.getValueAtPercentile(percentile) / 1e3;
    }
}
