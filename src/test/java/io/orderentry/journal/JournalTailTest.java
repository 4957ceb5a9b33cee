package io.orderentry.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reading a journal from a position, as recovery after a snapshot and the snapshot writer's follower do: exactly
 * the records after the position, across segment rolls, never past the durable sequence asked for.
 */
class JournalTailTest {

    @TempDir
    Path dir;

    /** Small segments, so that the records roll over several of them. */
    private JournalConfig smallSegments() {
        return new JournalConfig(dir, JournalSync.NONE, 4096, 1024);
    }

    @Test
    void tailReadInSteps_handsOverEachRecordOnceAcrossSegmentRolls() throws IOException {
        final List<Recorded> expected = TestJournal.replay(writeRecords(500)).records();
        assertTrue(SegmentFiles.list(dir).size() > 3, "the records span several segments");
        final JournalTail tail = new JournalTail(dir, Commands.SYMBOL_INDEX, JournalPosition.START);
        final List<Recorded> seen = new ArrayList<>();
        for (final long until : new long[] {0, 1, 7, 7, 130, 131, 499, 500}) {
            tail.readUntil(until, c -> seen.add(Recorded.of(c)));
            assertEquals(until, tail.position().sequence());
            assertEquals(until, seen.size());
        }
        assertEquals(expected, seen);
    }

    @Test
    void recoveryFromATailPosition_replaysOnlyTheRecordsAfterIt() throws IOException {
        final List<Recorded> all = TestJournal.replay(writeRecords(400)).records();
        for (final long cut : new long[] {1, 57, 250, 399, 400}) {
            final JournalTail tail = new JournalTail(dir, Commands.SYMBOL_INDEX, JournalPosition.START);
            tail.readUntil(cut, c -> { });
            final List<Recorded> rest = new ArrayList<>();
            final JournalRecovery recovery = JournalReader.recover(dir, Commands.SYMBOL_INDEX, tail.position(),
                    c -> rest.add(Recorded.of(c)));
            assertEquals(all.subList((int) cut, all.size()), rest, "after " + cut);
            assertEquals(400, recovery.lastSequence());
            assertEquals(400 - cut, recovery.recordCount());
        }
    }

    @Test
    void writerContinuesAfterARecoveryFromAPosition() throws IOException {
        writeRecords(300);
        final JournalTail tail = new JournalTail(dir, Commands.SYMBOL_INDEX, JournalPosition.START);
        tail.readUntil(120, c -> { });
        final JournalRecovery recovery = JournalReader.recover(dir, Commands.SYMBOL_INDEX, tail.position(), c -> { });
        try (JournalWriter writer = JournalWriter.open(smallSegments(), Commands.SYMBOLS, recovery)) {
            TestJournal.append(writer, 301, 350);
        }
        assertEquals(350, TestJournal.replay(dir).records().size());
    }

    @Test
    void positionPastTheEndOfTheJournal_isRefusedAsCorruption() throws IOException {
        writeRecords(50);
        final JournalTail tail = new JournalTail(dir, Commands.SYMBOL_INDEX, JournalPosition.START);
        tail.readUntil(50, c -> { });
        final JournalPosition end = tail.position();
        final JournalPosition beyond = new JournalPosition(end.segmentFirstSequence(), end.offset() + 1000,
                end.sequence() + 10, end.timestampMicros());
        assertThrows(JournalCorruptedException.class,
                () -> JournalReader.recover(dir, Commands.SYMBOL_INDEX, beyond, c -> { }));
        final JournalPosition missingSegment = new JournalPosition(10_000, JournalFormat.SEGMENT_HEADER_SIZE, 9_999, 0);
        assertThrows(JournalCorruptedException.class,
                () -> JournalReader.recover(dir, Commands.SYMBOL_INDEX, missingSegment, c -> { }));
    }

    @Test
    void tailAskedForRecordsTheJournalDoesNotHave_failsInsteadOfWaitingOrSkipping() throws IOException {
        writeRecords(20);
        final JournalTail tail = new JournalTail(dir, Commands.SYMBOL_INDEX, JournalPosition.START);
        assertThrows(JournalCorruptedException.class, () -> tail.readUntil(25, c -> { }));
    }

    private Path writeRecords(final long count) throws IOException {
        Files.createDirectories(dir);
        TestJournal.write(smallSegments(), count);
        return dir;
    }
}
