package io.orderentry.snapshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.orderentry.engine.EngineConfig;
import io.orderentry.journal.JournalConfig;
import io.orderentry.journal.JournalPosition;
import io.orderentry.journal.JournalReader;
import io.orderentry.journal.JournalRetention;
import io.orderentry.journal.JournalSync;
import io.orderentry.journal.JournalTail;
import io.orderentry.journal.JournalWriter;
import io.orderentry.marketdata.MarketDataConfig;
import io.orderentry.testing.RandomCommands;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** verify-snapshot: OK for a snapshot the journal reproduces, the first difference for one it does not. */
class VerifySnapshotCommandTest {

    private static final List<String> SYMBOLS = List.of("BTCUSD", "ETHUSD");
    private static final Map<String, Integer> INDEX = Map.of("BTCUSD", 0, "ETHUSD", 1);
    private static final Snapshotter.Layout LAYOUT = new Snapshotter.Layout(SYMBOLS, Map.of("k", "v"),
            recorded -> List.of(), new EngineConfig(5_000, 400, 200, 2_000), 2_000,
            new MarketDataConfig(50, 100, 10, 10, 100, 65_536, 1_000, 1_000, 1 << 20, 1 << 24, 50, 20), false);

    @TempDir
    Path dir;
    private Path journal;
    private Path archive;
    private SnapshotStore store;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @BeforeEach
    void journal() throws IOException {
        journal = dir.resolve("journal");
        archive = dir.resolve("journal-archive");
        store = new SnapshotStore(dir.resolve("snapshots"), 5);
        try (JournalWriter writer = JournalWriter.open(new JournalConfig(journal, JournalSync.NONE, 64 * 1024, 8192),
                SYMBOLS.toArray(String[]::new), JournalReader.recover(journal, INDEX, c -> { }))) {
            RandomCommands.journal(writer, new Random(3), 1, 4_000, SYMBOLS.size());
        }
    }

    @Test
    void snapshotThatTheJournalReproducesIsOk() throws IOException {
        snapshotAt(1_500, 1_500);
        snapshotAt(3_000, 3_000);
        assertEquals(0, run(), err.toString());
        assertTrue(out.toString().contains("snapshot-00000000000000003000.snap: OK"), out.toString());
        assertTrue(out.toString().contains("3000 records replayed from the journal's start"), out.toString());
    }

    @Test
    void snapshotWhoseStateIsNotWhatItsPositionSaysIsReportedWithTheFirstDifference() throws IOException {
        snapshotAt(2_000, 2_050);   // its state holds 50 commands more than its position says
        assertEquals(1, run(), out.toString());
        assertTrue(out.toString().contains("DIFFERENT: engine: last order id"), out.toString());
    }

    @Test
    void withTheJournalsFirstSegmentGoneItReplaysFromTheOldestSnapshot() throws IOException {
        final List<Path> segments;
        try (var files = Files.list(journal)) {
            segments = files.filter(p -> p.toString().endsWith(".journal")).sorted().toList();
        }
        assertTrue(segments.size() > 2);
        final long older = Long.parseLong(segments.get(1).getFileName().toString().replace(".journal", "")) + 10;
        snapshotAt(older, older);
        snapshotAt(3_500, 3_500);
        Files.delete(segments.get(0));   // wholly before the older snapshot, as retention would delete it
        assertEquals(0, run(), err.toString() + out);
        assertTrue(out.toString().contains("replaying from snapshot-" + String.format("%020d", older) + ".snap"),
                out.toString());
        assertTrue(out.toString().contains((3_500 - older) + " records replayed from journal sequence " + older),
                out.toString());
    }

    @Test
    void withTheJournalsFirstSegmentsArchivedItReplaysFromTheJournalsStartThroughTheArchive() throws IOException {
        final long older = 3_000;
        snapshotAt(older, older);
        snapshotAt(3_500, 3_500);
        final List<Path> archived = new JournalRetention(journal, JournalRetention.Mode.ARCHIVE, archive)
                .removeBefore(positionOf(older));
        assertTrue(archived.size() >= 2, "retention archived " + archived);
        final List<Path> archiveBefore = list(archive);
        assertEquals(0, run(), err.toString() + out);
        assertTrue(out.toString().contains("the journal's first " + archived.size() + " segments are archived"),
                out.toString());
        assertTrue(out.toString().contains("snapshot-00000000000000003500.snap: OK"), out.toString());
        assertTrue(out.toString().contains("3500 records replayed from the journal's start"), out.toString());
        assertEquals(archiveBefore, list(archive), "the archive is only read");
        try (var files = Files.list(dir)) {
            assertTrue(files.noneMatch(p -> p.getFileName().toString().startsWith("verify-snapshot-")),
                    "the inflated segments are removed");
        }
    }

    @Test
    void aSegmentMissingFromTheArchiveIsReportedNotSkipped() throws IOException {
        snapshotAt(3_900, 3_900);
        final List<Path> archived = new JournalRetention(journal, JournalRetention.Mode.ARCHIVE, archive)
                .removeBefore(positionOf(3_800));
        assertTrue(archived.size() >= 3, "retention archived " + archived);
        Files.delete(list(archive).get(1));
        assertEquals(2, run(), out.toString());
        assertTrue(err.toString().contains("record") && err.toString().contains("is durable but"), err.toString());
    }

    @Test
    void noSnapshotAtAllCannotBeVerified() {
        assertEquals(2, run());
        assertTrue(err.toString().contains("no usable snapshot"), err.toString());
    }

    /** Writes a snapshot whose header says {@code position} and whose state follows the journal to {@code state}. */
    private void snapshotAt(final long position, final long state) throws IOException {
        final Replica replica = new Replica(SYMBOLS.size(), LAYOUT.limits(), LAYOUT.retainedFinalOrders(),
                LAYOUT.marketData());
        final JournalTail tail = new JournalTail(journal, INDEX, JournalPosition.START);
        tail.readUntil(position, c -> { });
        final JournalPosition at = tail.position();
        final JournalTail stateTail = new JournalTail(journal, INDEX, JournalPosition.START);
        stateTail.readUntil(state, replica);
        replica.endOfBatch();
        store.write(new SnapshotHeader(at, replica.state().matcher().lastEventSequence(), -1, 0, SYMBOLS, Map.of("k", "v")),
                replica.state());
    }

    private JournalPosition positionOf(final long sequence) throws IOException {
        final JournalTail tail = new JournalTail(journal, INDEX, JournalPosition.START);
        tail.readUntil(sequence, c -> { });
        return tail.position();
    }

    private static List<Path> list(final Path directory) throws IOException {
        try (var files = Files.list(directory)) {
            return files.sorted().toList();
        }
    }

    private int run() {
        return VerifySnapshotCommand.run(store, LAYOUT, journal, archive, INDEX,
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    }
}
