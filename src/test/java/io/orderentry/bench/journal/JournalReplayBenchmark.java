package io.orderentry.bench.journal;

import io.orderentry.journal.JournalConfig;
import io.orderentry.journal.JournalPosition;
import io.orderentry.journal.JournalReader;
import io.orderentry.journal.JournalRecovery;
import io.orderentry.journal.JournalSync;
import io.orderentry.journal.JournalWriter;
import io.orderentry.pipeline.OrderCommand;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Writes a journal of realistic commands (sync NONE, to create it fast), then times recovery several times
 * and prints the median records/s and MB/s. The segments stay in the page cache after writing, so this
 * measures parsing, CRC and decoding rather than the disk.
 *
 * <p>Usage: {@code JournalReplayBenchmark [dir] [records] [runs] [origin]}, defaults
 * {@code target/journal-bench/replay 5000000 5 all}. The directory is emptied first. {@code origin}: {@code all}
 * decodes who asked (request id, address, key id) of every record, as a replay whose audit trail lacks them all would;
 * {@code none} skips it, as the service's replay does for the commands its trail already holds.
 */
public final class JournalReplayBenchmark {

    private JournalReplayBenchmark() {
    }

    public static void main(final String[] args) throws IOException {
        final Path dir = Paths.get(args.length > 0 ? args[0] : "target/journal-bench/replay");
        final long records = args.length > 1 ? Long.parseLong(args[1]) : 5_000_000;
        final int runs = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        final long originAfter = args.length > 3 && "none".equals(args[3]) ? Long.MAX_VALUE : 0;
        final Map<String, Integer> symbols = BenchCommands.symbolIndex();

        deleteRecursively(dir);
        final long writeStart = System.nanoTime();
        final JournalConfig config = new JournalConfig(dir, JournalSync.NONE, JournalConfig.DEFAULT_SEGMENT_SIZE,
                JournalConfig.DEFAULT_WRITE_BUFFER);
        try (JournalWriter writer = JournalWriter.open(config, BenchCommands.SYMBOLS,
                JournalReader.recover(dir, symbols, c -> { }))) {
            final BenchCommands commands = new BenchCommands(42);
            final OrderCommand c = new OrderCommand();
            final long startMicros = 1_767_225_600_000_000L;
            for (long s = 1; s <= records; s++) {
                commands.next(c);
                c.sequence = s;
                c.timestampMicros = startMicros + s / 3;
                if (!writer.append(c)) {
                    throw new IOException("append failed", writer.failure());
                }
            }
            if (!writer.flush()) {
                throw new IOException("flush failed", writer.failure());
            }
        }
        final double writeSeconds = (System.nanoTime() - writeStart) / 1e9;
        final long bytes = directorySize(dir);
        System.out.printf("wrote %,d records, %,.1f MB (%.1f bytes/record) in %.2f s (%,.0f records/s, sync NONE)%n",
                records, bytes / 1e6, (double) bytes / records, writeSeconds, records / writeSeconds);

        final double[] rates = new double[runs];
        final long[] checksum = new long[1];
        for (int run = 0; run < runs; run++) {
            checksum[0] = 0;
            final JournalRecovery recovery = JournalReader.recover(dir, symbols, JournalPosition.START, originAfter,
                    c -> checksum[0] += c.quantity ^ c.sequence ^ c.symbol ^ (c.accountId == null ? 0 : c.accountId.length()));
            if (recovery.recordCount() != records || recovery.truncatedTail() != null) {
                throw new IllegalStateException("unexpected recovery result " + recovery);
            }
            rates[run] = recovery.recordsPerSecond();
            System.out.printf("run %d: replayed %,d records in %.0f ms (%,.0f records/s, %,.0f MB/s) checksum %d%n",
                    run + 1, recovery.recordCount(), recovery.elapsedMillis(), recovery.recordsPerSecond(),
                    recovery.bytesRead() / 1e6 / (recovery.elapsedNanos() / 1e9), checksum[0]);
        }
        Arrays.sort(rates);
        final double median = rates[runs / 2];
        System.out.printf("median replay: %,.0f records/s, %,.0f MB/s (target >= 1,000,000 records/s)%n",
                median, median * bytes / records / 1e6);
    }

    static void deleteRecursively(final Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (final Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }

    private static long directorySize(final Path dir) throws IOException {
        try (Stream<Path> paths = Files.list(dir)) {
            long total = 0;
            for (final Path path : paths.toList()) {
                total += Files.size(path);
            }
            return total;
        }
    }
}
