package io.orderentry.journal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TornTailRecoveryTest {

    private static final int RECORDS = 20;

    @TempDir
    Path dir;

    private Path segment;
    private long lastRecord;
    private long end;

    private void writeJournal() throws IOException {
        TestJournal.write(TestJournal.config(dir), RECORDS);
        segment = dir.resolve("00000000000000000001.journal");
        final List<Long> offsets = TestJournal.recordOffsets(segment);
        lastRecord = offsets.get(offsets.size() - 1);
        end = TestJournal.size(segment);
    }

    @Test
    void shouldCutARecordTruncatedInTheMiddle() throws IOException {
        writeJournal();
        TestJournal.truncate(segment, lastRecord + 30);
        assertCutAndAppendable(lastRecord, 30, RECORDS - 1);
    }

    @Test
    void shouldCutARecordTruncatedInsideItsLengthField() throws IOException {
        writeJournal();
        TestJournal.truncate(segment, lastRecord + 2);
        assertCutAndAppendable(lastRecord, 2, RECORDS - 1);
    }

    @Test
    void shouldCutARecordTruncatedInsideItsHeader() throws IOException {
        writeJournal();
        TestJournal.truncate(segment, lastRecord + 12);
        assertCutAndAppendable(lastRecord, 12, RECORDS - 1);
    }

    @Test
    void shouldCutALastRecordWithAGarbageCrc() throws IOException {
        writeJournal();
        TestJournal.write(segment, lastRecord + 4, new byte[] {1, 2, 3, 4});
        assertCutAndAppendable(lastRecord, end - lastRecord, RECORDS - 1);
    }

    @Test
    void shouldCutALastRecordWithAGarbageLength() throws IOException {
        writeJournal();
        TestJournal.write(segment, lastRecord, new byte[] {(byte) 0xFF, (byte) 0xFF, 0, 0});
        assertCutAndAppendable(lastRecord, end - lastRecord, RECORDS - 1);
    }

    @Test
    void shouldCutTrailingZeros() throws IOException {
        writeJournal();
        TestJournal.appendBytes(segment, new byte[8192]);
        assertCutAndAppendable(end, 8192, RECORDS);
    }

    @Test
    void shouldCutAZeroedLastRecordFollowedByZeros() throws IOException {
        writeJournal();
        TestJournal.write(segment, lastRecord, new byte[(int) (end - lastRecord)]);
        TestJournal.appendBytes(segment, new byte[4096]);
        assertCutAndAppendable(lastRecord, end - lastRecord + 4096, RECORDS - 1);
    }

    @Test
    void shouldCutAZeroedPageOfAnUnforcedBatchAndTheRestOfTheBatchAfterIt() throws IOException {
        TestJournal.write(TestJournal.config(dir), 400);
        segment = dir.resolve("00000000000000000001.journal");
        final List<Long> offsets = TestJournal.recordOffsets(segment);
        end = TestJournal.size(segment);
        // a power loss kept the batch's later pages and lost an earlier one: that page reads as zeros
        final long page = (offsets.get(100) / 4096 + 1) * 4096;
        TestJournal.write(segment, page, new byte[4096]);
        int damaged = 0;
        while (damaged + 1 < offsets.size() && offsets.get(damaged + 1) <= page) {
            damaged++;
        }
        assertTrue(end > page + 4096, "records follow the zeroed page");
        assertCutAndAppendable(offsets.get(damaged), end - offsets.get(damaged), damaged);
    }

    @Test
    void shouldRefuseAZeroedPageFollowedByMoreThanOneUnforcedWriteCanLeave() throws IOException {
        TestJournal.write(new JournalConfig(dir, JournalSync.NONE, JournalConfig.DEFAULT_SEGMENT_SIZE, 1 << 20), 30_000);
        segment = dir.resolve("00000000000000000001.journal");
        final List<Long> offsets = TestJournal.recordOffsets(segment);
        final long page = (offsets.get(10) / 4096 + 1) * 4096;
        TestJournal.write(segment, page, new byte[4096]);
        assertTrue(TestJournal.size(segment) - page > JournalConfig.DEFAULT_WRITE_BUFFER + 8192);
        final JournalCorruptedException refused = org.junit.jupiter.api.Assertions.assertThrows(
                JournalCorruptedException.class, () -> TestJournal.replay(dir));
        assertTrue(refused.getMessage().contains("more than a torn write leaves"), refused.getMessage());
    }

    @Test
    void shouldCutATornSegmentHeaderAndRewriteIt() throws IOException {
        final JournalConfig config = new JournalConfig(dir, JournalSync.NONE, 4096, 1024);
        TestJournal.write(config, 100);
        final List<Path> segments = SegmentFiles.list(dir);
        segment = segments.get(segments.size() - 1);
        final long first = SegmentFiles.firstSequenceOf(segment);
        TestJournal.truncate(segment, 7);

        final TestJournal.Replay replay = TestJournal.replay(dir);
        assertEquals(new TruncatedTail(segment, 0, 7, "torn segment header"), replay.recovery().truncatedTail());
        assertEquals(first - 1, replay.recovery().lastSequence());
        assertEquals(0, TestJournal.size(segment));
        try (JournalWriter writer = JournalWriter.open(config, Commands.SYMBOLS, replay.recovery())) {
            TestJournal.append(writer, first, first + 5);
        }
        assertClean(first + 5);
    }

    @Test
    void shouldAcceptAnEmptyLastSegmentWithoutWarning() throws IOException {
        writeJournal();
        final Path empty = SegmentFiles.segmentPath(dir, RECORDS + 1);
        Files.createFile(empty);
        final TestJournal.Replay replay = TestJournal.replay(dir);
        assertNull(replay.recovery().truncatedTail());
        assertEquals(empty, replay.recovery().lastSegment());
        try (JournalWriter writer = JournalWriter.open(TestJournal.config(dir), Commands.SYMBOLS, replay.recovery())) {
            TestJournal.append(writer, RECORDS + 1, RECORDS + 2);
        }
        assertClean(RECORDS + 2);
    }

    private void assertCutAndAppendable(final long offset, final long bytesCut, final long survivors) throws IOException {
        final TestJournal.Replay replay = TestJournal.replay(dir);
        final TruncatedTail tail = replay.recovery().truncatedTail();
        assertNotNull(tail);
        assertEquals(segment, tail.file());
        assertEquals(offset, tail.offset());
        assertEquals(bytesCut, tail.bytesCut());
        assertEquals(offset, TestJournal.size(segment), "the file ends at the last good record");
        assertEquals(survivors, replay.records().size());
        assertEquals(survivors, replay.recovery().lastSequence());
        assertEquals(1000 * survivors, replay.recovery().lastTimestampMicros());

        try (JournalWriter writer = JournalWriter.open(TestJournal.config(dir), Commands.SYMBOLS, replay.recovery())) {
            assertEquals(survivors, writer.lastSequence());
            TestJournal.append(writer, survivors + 1, survivors + 3);
        }
        assertClean(survivors + 3);
    }

    private void assertClean(final long records) throws IOException {
        final TestJournal.Replay again = TestJournal.replay(dir);
        assertNull(again.recovery().truncatedTail());
        assertEquals(records, again.records().size());
        for (int i = 0; i < records; i++) {
            assertEquals(i + 1, again.records().get(i).sequence());
            assertTrue(again.records().get(i).sameCommandAs(Commands.nth(i + 1)));
        }
    }
}
