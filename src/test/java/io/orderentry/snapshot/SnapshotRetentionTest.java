package io.orderentry.snapshot;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.orderentry.engine.EngineConfig;
import io.orderentry.journal.JournalConfig;
import io.orderentry.journal.JournalReader;
import io.orderentry.journal.JournalRetention;
import io.orderentry.journal.JournalSync;
import io.orderentry.journal.JournalWriter;
import io.orderentry.marketdata.MarketDataConfig;
import io.orderentry.testing.RandomCommands;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Retention removes only journal segments that no kept snapshot, and nothing PostgreSQL still lacks, needs: every
 * kept snapshot still replays to the journal's end, and an archived segment holds the original bytes.
 */
class SnapshotRetentionTest {

    private static final List<String> SYMBOLS = List.of("BTCUSD", "ETHUSD");
    private static final Map<String, Integer> INDEX = Map.of("BTCUSD", 0, "ETHUSD", 1);
    private static final Snapshotter.Layout LAYOUT = new Snapshotter.Layout(SYMBOLS, Map.of(), recorded -> List.of(),
            new EngineConfig(5_000, 400, 200, 2_000), 2_000,
            new MarketDataConfig(50, 100, 10, 10, 100, 65_536, 1_000, 1_000, 1 << 20, 1 << 24, 50, 20), true);

    @TempDir
    Path dir;

    @Test
    void segmentsBeforeTheOldestKeptSnapshotAreDeletedAndEveryKeptSnapshotStillReplaysToTheEnd() throws Exception {
        final Path journal = dir.resolve("journal");
        final Map<Long, byte[]> original = new java.util.HashMap<>();
        run(JournalRetention.Mode.DELETE, journal, () -> Long.MAX_VALUE, original);
        final List<Path> snapshots = new SnapshotStore(dir.resolve("snapshots"), 2).list();
        assertEquals(2, snapshots.size(), "the newest two are kept");
        final SnapshotStore store = new SnapshotStore(dir.resolve("snapshots"), 2);
        final long oldestKept = store.header(snapshots.get(1)).position().segmentFirstSequence();
        assertTrue(JournalReader.firstSegmentSequence(journal) > 1, "old segments were removed");
        assertEquals(oldestKept, JournalReader.firstSegmentSequence(journal),
                "every segment before the oldest kept snapshot's, none after");
        for (final Path snapshot : snapshots) {
            assertEquals(3_000, JournalReader.recover(journal, INDEX, store.header(snapshot).position(), c -> { })
                    .lastSequence(), "replays from " + snapshot.getFileName() + " to the end");
        }
    }

    @Test
    void archivedSegmentsHoldTheOriginalBytes() throws Exception {
        final Path journal = dir.resolve("journal");
        final Map<Long, byte[]> original = new java.util.HashMap<>();
        run(JournalRetention.Mode.ARCHIVE, journal, () -> Long.MAX_VALUE, original);
        final List<Path> archived;
        try (Stream<Path> files = Files.list(dir.resolve("archive"))) {
            archived = files.sorted().toList();
        }
        assertTrue(!archived.isEmpty());
        for (final Path gz : archived) {
            assertTrue(gz.toString().endsWith(".journal.gz"), gz.toString());
            final long first = Long.parseLong(gz.getFileName().toString().replace(".journal.gz", ""));
            try (InputStream in = new GZIPInputStream(Files.newInputStream(gz))) {
                assertArrayEquals(original.get(first), in.readAllBytes(), gz.getFileName().toString());
            }
            assertTrue(Files.notExists(journal.resolve(gz.getFileName().toString().replace(".gz", ""))));
        }
    }

    @Test
    void whileTheDatabaseLagsTheSnapshotItCanStartFromAndTheJournalAfterItAreKept() throws Exception {
        final Path journal = dir.resolve("journal");
        final AtomicLong persisted = new AtomicLong(-1);
        final Map<Long, byte[]> original = new java.util.HashMap<>();
        final List<Path> written = run(JournalRetention.Mode.DELETE, journal, persisted::get, original,
                (index, header) -> {
                    if (index == 1) {
                        persisted.set(header.eventSequence());   // the database got as far as the second snapshot
                    }
                });
        final SnapshotStore store = new SnapshotStore(dir.resolve("snapshots"), 2);
        final List<Path> kept = store.list();
        assertEquals(3, kept.size(), "the newest two and the one the database has reached: " + kept);
        assertTrue(kept.contains(written.get(1)), kept.toString());
        assertEquals(store.header(written.get(1)).position().segmentFirstSequence(),
                JournalReader.firstSegmentSequence(journal), "the journal from that snapshot on is kept");
    }

    @Test
    void aKeptSnapshotThatCannotBeReadHoldsBackTheJournalOnceAndIsCountedAsAFailedRetention() throws Exception {
        final Path journal = dir.resolve("journal");
        final SnapshotConfig config = new SnapshotConfig(dir.resolve("snapshots"), 0, 0, 2, false, true,
                JournalRetention.Mode.DELETE, dir.resolve("archive"), 0);
        final SnapshotStore store = new SnapshotStore(dir.resolve("snapshots"), 2);
        final Snapshotter after;
        final long firstSegmentBefore;
        try (JournalWriter writer = JournalWriter.open(new JournalConfig(journal, JournalSync.NONE, 16 * 1024, 4096),
                SYMBOLS.toArray(String[]::new), JournalReader.recover(journal, INDEX, c -> { }))) {
            final Random random = new Random(9);
            final Snapshotter before = new Snapshotter(config, LAYOUT, journal, INDEX, writer::lastSequence,
                    () -> Long.MAX_VALUE);
            before.start();
            for (long first = 1; first <= 2_000; first += 500) {
                RandomCommands.journal(writer, random, first, first + 499, SYMBOLS.size());
                before.request().get(30, TimeUnit.SECONDS);
            }
            before.close(10_000);   // its thread is done: every retention it ran has ended
            assertEquals(0, before.failedRetentions());
            // the newest snapshot damaged on disk: the next snapshot keeps it (the newest two) and cannot tell what
            // it needs
            Files.write(store.list().get(0), new byte[] {1, 2, 3});
            firstSegmentBefore = JournalReader.firstSegmentSequence(journal);

            after = new Snapshotter(config, LAYOUT, journal, INDEX, writer::lastSequence, () -> Long.MAX_VALUE);
            after.start();
            RandomCommands.journal(writer, random, 2_001, 2_500, SYMBOLS.size());
            after.request().get(30, TimeUnit.SECONDS);
            RandomCommands.journal(writer, random, 2_501, 3_000, SYMBOLS.size());
            after.request().get(30, TimeUnit.SECONDS);
            after.close(10_000);
        }
        assertEquals(1, after.failedRetentions(), "the retention after the damaged snapshot removed no segment and"
                + " counted it; the next one pruned the damaged file and went on");
        final List<Path> kept = store.list();
        assertEquals(2, kept.size(), kept.toString());
        assertTrue(JournalReader.firstSegmentSequence(journal) > firstSegmentBefore, "segments removed again");
        assertEquals(store.header(kept.get(1)).position().segmentFirstSequence(),
                JournalReader.firstSegmentSequence(journal), "retention works again once the damaged file is pruned");
    }

    /** A journal of 3,000 commands in small segments, a snapshot on request after every 500. */
    private List<Path> run(final JournalRetention.Mode mode, final Path journal,
                           final java.util.function.LongSupplier persisted, final Map<Long, byte[]> original)
            throws Exception {
        return run(mode, journal, persisted, original, (index, header) -> { });
    }

    private List<Path> run(final JournalRetention.Mode mode, final Path journal,
                           final java.util.function.LongSupplier persisted, final Map<Long, byte[]> original,
                           final java.util.function.BiConsumer<Integer, SnapshotHeader> afterEach) throws Exception {
        final SnapshotConfig config = new SnapshotConfig(dir.resolve("snapshots"), 0, 0, 2, false, true, mode,
                dir.resolve("archive"), 0);
        final List<Path> written = new ArrayList<>();
        try (JournalWriter writer = JournalWriter.open(new JournalConfig(journal, JournalSync.NONE, 16 * 1024, 4096),
                SYMBOLS.toArray(String[]::new), JournalReader.recover(journal, INDEX, c -> { }))) {
            final Snapshotter snapshotter = new Snapshotter(config, LAYOUT, journal, INDEX, writer::lastSequence,
                    persisted);
            snapshotter.start();
            final Random random = new Random(9);
            for (long first = 1; first <= 3_000; first += 500) {
                RandomCommands.journal(writer, random, first, first + 499, SYMBOLS.size());
                keepCopies(journal, original);
                final Path file = snapshotter.request().get(30, TimeUnit.SECONDS);
                written.add(file);
                afterEach.accept(written.size() - 1, new SnapshotStore(config.directory(), 2).header(file));
            }
            snapshotter.close(10_000);
        }
        return written;
    }

    /** Copies of the complete segments (all but the last), to compare archives with. */
    private static void keepCopies(final Path journal, final Map<Long, byte[]> original) throws IOException {
        final List<Path> segments;
        try (Stream<Path> files = Files.list(journal)) {
            segments = files.filter(p -> p.toString().endsWith(".journal")).sorted().toList();
        }
        for (int i = 0; i < segments.size() - 1; i++) {
            final long first = Long.parseLong(segments.get(i).getFileName().toString().replace(".journal", ""));
            if (!original.containsKey(first)) {
                // read only once: a segment copied in an earlier round may be gone by now (retention after the
                // previous snapshot), and each is complete, and copied, in the round that completed it
                original.put(first, Files.readAllBytes(segments.get(i)));
            }
        }
    }
}
