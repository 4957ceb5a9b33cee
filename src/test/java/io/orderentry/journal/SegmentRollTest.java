package io.orderentry.journal;

import io.orderentry.pipeline.OrderCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SegmentRollTest {

    private static final long SEGMENT_SIZE = 4096;

    @TempDir
    Path dir;

    private JournalConfig config() {
        return new JournalConfig(dir, JournalSync.NONE, SEGMENT_SIZE, 2048);
    }

    @Test
    void shouldRollSegmentsNamedByTheirFirstSequenceAndNoLargerThanConfigured() throws IOException {
        TestJournal.write(config(), 1000);
        final List<Path> segments = SegmentFiles.list(dir);
        assertTrue(segments.size() > 10, "segments: " + segments.size());
        long expectedFirst = 1;
        for (final Path segment : segments) {
            assertEquals(expectedFirst, SegmentFiles.firstSequenceOf(segment));
            assertEquals(20 + JournalFormat.SEGMENT_SUFFIX.length(), segment.getFileName().toString().length());
            assertTrue(TestJournal.size(segment) <= SEGMENT_SIZE);
            expectedFirst += TestJournal.recordOffsets(segment).size();
        }
        assertEquals(1001, expectedFirst);
    }

    @Test
    void shouldReplayAcrossSegmentsInOrder() throws IOException {
        TestJournal.write(config(), 1000);
        final TestJournal.Replay replay = TestJournal.replay(dir);
        assertEquals(1000, replay.records().size());
        assertEquals(1000, replay.recovery().recordCount());
        assertEquals(SegmentFiles.list(dir).size(), replay.recovery().segmentCount());
        for (int i = 0; i < 1000; i++) {
            assertEquals(i + 1, replay.records().get(i).sequence());
            assertTrue(replay.records().get(i).sameCommandAs(Commands.nth(i + 1)));
        }
    }

    @Test
    void shouldAppendToTheLastSegmentAfterReopen() throws IOException {
        TestJournal.write(config(), 10);
        try (JournalWriter writer = TestJournal.reopen(config())) {
            TestJournal.append(writer, 11, 500);
        }
        assertEquals(1, SegmentFiles.firstSequenceOf(SegmentFiles.list(dir).get(0)));
        assertTrue(TestJournal.size(SegmentFiles.list(dir).get(0)) > SEGMENT_SIZE - JournalFormat.MAX_RECORD_SIZE);
        assertEquals(500, TestJournal.replay(dir).records().size());
    }

    /**
     * Only what the failed roll leaves behind: the append that needed the next segment fails with the cause, and every
     * record before the roll is durable, with no torn tail. The failure is not final: {@code resume()} creates
     * the segment afresh once it can (JournalWriterTest#shouldResumeAfterAFailedRollByCreatingTheNextSegmentAfresh).
     */
    @Test
    void shouldFailTheAppendThatRollsWhenTheNextSegmentCannotBeCreatedKeepingEverythingBeforeIt() throws IOException {
        final int[] created = {0};
        final SegmentChannelFactory secondCreateFails = (path, create) -> {
            if (create && ++created[0] == 2) {
                throw new AccessDeniedException(path.toString());
            }
            return SegmentChannelFactory.FILES.open(path, create);
        };
        final JournalWriter writer = JournalWriter.open(config(), Commands.SYMBOLS,
                JournalReader.recover(dir, Commands.SYMBOL_INDEX, c -> { }), secondCreateFails);
        final OrderCommand c = new OrderCommand();
        long sequence = 0;
        while (writer.append(nextOf(c, ++sequence))) {
            assertTrue(sequence < 1000, "the roll never failed");
        }
        assertTrue(writer.failure() instanceof AccessDeniedException);
        writer.close();
        final TestJournal.Replay replay = TestJournal.replay(dir);
        assertEquals(sequence - 1, replay.records().size(), "everything before the roll is durable");
        assertNull(replay.recovery().truncatedTail());
    }

    private static OrderCommand nextOf(final OrderCommand c,
                                                             final long sequence) {
        Commands.nth(c, sequence);
        c.sequence = sequence;
        c.timestampMicros = sequence;
        return c;
    }

    @Test
    void shouldStartAnEmptyJournalWithAnEmptySegmentAndReplayNothing() throws IOException {
        TestJournal.reopen(config()).close();
        final TestJournal.Replay replay = TestJournal.replay(dir);
        assertEquals(0, replay.records().size());
        assertEquals(0, replay.recovery().lastSequence());
        assertEquals(1, replay.recovery().segmentCount());
    }
}
