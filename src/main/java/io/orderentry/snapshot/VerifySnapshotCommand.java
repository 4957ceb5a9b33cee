package io.orderentry.snapshot;

import io.orderentry.journal.ArchivedJournal;
import io.orderentry.journal.JournalPosition;
import io.orderentry.journal.JournalReader;
import io.orderentry.journal.JournalTail;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * {@code java -jar order-entry.jar verify-snapshot [dir]}: replays the journal from its first record (from the journal
 * archive when retention archived the first segments, see {@link ArchivedJournal}; or, when they were deleted, from the
 * oldest older snapshot that verifies) up to the newest snapshot's position, and compares
 * the state that replay gives with the snapshot's, as clients would see it ({@link StateComparison}). Prints
 * {@code OK} and exits 0 when they are equal; prints the first difference and exits 1 when not; exits 2 when there is
 * no usable snapshot or the journal cannot be read to that position. Reads only; safe beside a running service.
 */
public final class VerifySnapshotCommand {

    private VerifySnapshotCommand() {
    }

    /**
     * @param store the snapshot directory
     */
    public static int run(final SnapshotStore store, final Snapshotter.Layout layout, final Path journal,
                          final Path journalArchive, final Map<String, Integer> symbolIndex, final PrintStream out,
                          final PrintStream err) {
        final long started = System.nanoTime();
        try {
            final SnapshotStore.Found newest = store.newestUsable(
                    header -> header.incompatibility(layout.instruments(), layout.differences()));
            if (newest == null) {
                err.println("verify-snapshot: no usable snapshot in " + store.directory());
                return 2;
            }
            final Replica loaded = replica(layout);
            store.read(newest.file(), loaded.state());
            final Replica replayed = replica(layout);
            final long until = newest.header().position().sequence();
            final ArchivedJournal archived = ArchivedJournal.fromStart(journal, journalArchive);
            final JournalPosition from;
            final JournalPosition reached;
            final long records;
            if (archived != null) {
                out.println("verify-snapshot: the journal's first " + archived.archivedSegments() + " segments are"
                        + " archived in " + journalArchive + "; replaying from the journal's start, inflating them one"
                        + " at a time");
                final Path parent = journal.toAbsolutePath().getParent();
                final Path work = Files.createTempDirectory(parent == null ? journal.toAbsolutePath() : parent,
                        "verify-snapshot-");
                final ArchivedJournal.Read read = archived.readUntil(work, symbolIndex, until, replayed);
                from = JournalPosition.START;
                reached = read.position();
                records = read.records();
            } else {
                from = startingPoint(store, layout, journal, newest, replayed, out);
                final JournalTail tail = new JournalTail(journal, symbolIndex, from);
                records = tail.readUntil(until, replayed);
                reached = tail.position();
            }
            replayed.endOfBatch();
            if (!reached.equals(newest.header().position())) {
                out.println("verify-snapshot " + newest.file().getFileName() + ": DIFFERENT: the snapshot says its"
                        + " state ends at " + newest.header().position() + ", the journal's record "
                        + reached.sequence() + " ends at " + reached);
                return 1;
            }
            final String difference = StateComparison.firstDifference(replayed.state(), loaded.state(),
                    layout.instruments());
            if (difference != null) {
                out.println("verify-snapshot " + newest.file().getFileName() + ": DIFFERENT: " + difference);
                return 1;
            }
            out.printf("verify-snapshot %s: OK (journal sequence %d, %d resting orders; %d records replayed from %s"
                    + " in %d ms)%n", newest.file().getFileName(), newest.header().position().sequence(),
                    loaded.state().matcher().restingOrderCount(), records,
                    from.sequence() == 0 ? "the journal's start" : "journal sequence " + from.sequence(),
                    (System.nanoTime() - started) / 1_000_000);
            return 0;
        } catch (final IOException | RuntimeException e) {
            err.println("verify-snapshot: " + e.getMessage());
            return 2;
        }
    }

    /**
     * The journal's start when its first segment is there; else the oldest snapshot older than the newest, loaded into
     * {@code replayed}.
     */
    private static JournalPosition startingPoint(final SnapshotStore store, final Snapshotter.Layout layout,
                                                 final Path journal, final SnapshotStore.Found newest,
                                                 final Replica replayed, final PrintStream out) throws IOException {
        if (JournalReader.firstSegmentSequence(journal) == 1) {
            return JournalPosition.START;
        }
        final List<Path> files = store.list();
        for (int i = files.size() - 1; i >= 0; i--) {
            final Path file = files.get(i);
            if (file.equals(newest.file())) {
                break;
            }
            try {
                final SnapshotHeader header = store.verify(file);
                if (header.incompatibility(layout.instruments(), layout.differences()) == null) {
                    store.read(file, replayed.state());
                    out.println("verify-snapshot: the journal's first segment is gone; replaying from " + file.getFileName());
                    return header.position();
                }
            } catch (final IOException e) {
                out.println("verify-snapshot: " + file.getFileName() + " is skipped: " + e.getMessage());
            }
        }
        throw new IOException("the journal's first segment is gone and no older snapshot verifies to replay from");
    }

    private static Replica replica(final Snapshotter.Layout layout) {
        return new Replica(layout.instruments().size(), layout.limits(), layout.retainedFinalOrders(),
                layout.marketData());
    }
}
