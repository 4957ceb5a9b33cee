package io.orderentry.journal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JournalCorruptionTest {

    @TempDir
    Path dir;

    private List<Path> writeSegments(final int records) throws IOException {
        TestJournal.write(new JournalConfig(dir, JournalSync.NONE, 4096, 1024), records);
        return SegmentFiles.list(dir);
    }

    @Test
    void shouldRefuseAFlippedByteInTheMiddleOfTheLastSegmentNamingFileAndOffset() throws IOException {
        final Path segment = writeSegments(30).get(0);
        final long record = TestJournal.recordOffsets(segment).get(10);
        final long size = TestJournal.size(segment);
        TestJournal.flipByte(segment, record + 30);

        final JournalCorruptedException e = assertCorrupted(segment, record);
        assertTrue(e.getMessage().contains("CRC mismatch"), e.getMessage());
        assertTrue(e.getMessage().contains(segment.toString()) && e.getMessage().contains("offset " + record));
        assertEquals(size, TestJournal.size(segment), "nothing is truncated");
    }

    @Test
    void shouldRefuseABadCrcNearTheEndWhenAValidRecordFollows() throws IOException {
        final Path segment = writeSegments(30).get(0);
        final List<Long> offsets = TestJournal.recordOffsets(segment);
        final long record = offsets.get(offsets.size() - 2);
        TestJournal.flipByte(segment, record + 20);
        final JournalCorruptedException e = assertCorrupted(segment, record);
        assertTrue(e.getMessage().contains("followed by a valid record"), e.getMessage());
    }

    @Test
    void shouldRefuseAFlippedByteInASegmentThatIsNotTheLast() throws IOException {
        final List<Path> segments = writeSegments(200);
        assertTrue(segments.size() > 2);
        final Path segment = segments.get(1);
        final List<Long> offsets = TestJournal.recordOffsets(segment);
        final long record = offsets.get(offsets.size() - 1);
        TestJournal.flipByte(segment, record + 9);
        assertCorrupted(segment, record);
    }

    @Test
    void shouldRefuseATruncatedSegmentThatIsNotTheLast() throws IOException {
        final List<Path> segments = writeSegments(200);
        final Path segment = segments.get(0);
        final List<Long> offsets = TestJournal.recordOffsets(segment);
        final long record = offsets.get(offsets.size() - 1);
        TestJournal.truncate(segment, record + 10);
        assertCorrupted(segment, record);
    }

    @Test
    void shouldRefuseABadLengthInTheMiddle() throws IOException {
        final Path segment = writeSegments(30).get(0);
        final long record = TestJournal.recordOffsets(segment).get(5);
        TestJournal.write(segment, record, new byte[] {0, 0x10, 0, 0});
        final JournalCorruptedException e = assertCorrupted(segment, record);
        assertTrue(e.getMessage().contains("invalid record length"), e.getMessage());
    }

    @Test
    void shouldRefuseASequenceGapInsideASegment() throws IOException {
        final Path segment = writeSegments(30).get(0);
        final long record = TestJournal.recordOffsets(segment).get(7);
        TestJournal.patchLong(segment, record, JournalFormat.SEQUENCE_OFFSET, 9);
        final JournalCorruptedException e = assertCorrupted(segment, record);
        assertTrue(e.getMessage().contains("sequence 9 where 8 is expected"), e.getMessage());
    }

    @Test
    void shouldRefuseASequenceGapInTheLastRecord() throws IOException {
        final Path segment = writeSegments(30).get(0);
        final List<Long> offsets = TestJournal.recordOffsets(segment);
        final long record = offsets.get(offsets.size() - 1);
        TestJournal.patchLong(segment, record, JournalFormat.SEQUENCE_OFFSET, 31);
        assertCorrupted(segment, record);
    }

    @Test
    void shouldRefuseAMissingSegment() throws IOException {
        final List<Path> segments = writeSegments(200);
        Files.delete(segments.get(1));
        final JournalCorruptedException e = assertCorrupted(segments.get(2), 0);
        assertTrue(e.getMessage().contains("sequence gap between segments"), e.getMessage());
    }

    @Test
    void shouldRefuseADecreasingTimestamp() throws IOException {
        final Path segment = writeSegments(30).get(0);
        final long record = TestJournal.recordOffsets(segment).get(3);
        TestJournal.patchLong(segment, record, JournalFormat.TIMESTAMP_OFFSET, 1);
        assertCorrupted(segment, record);
    }

    @Test
    void shouldRefuseABadMagicNumberOrVersion() throws IOException {
        final Path segment = writeSegments(30).get(0);
        TestJournal.write(segment, 0, new byte[] {'X'});
        assertTrue(assertCorrupted(segment, 0).getMessage().contains("magic"));
        TestJournal.write(segment, 0, new byte[] {'J'});
        TestJournal.write(segment, 4, new byte[] {9});
        assertTrue(assertCorrupted(segment, 0).getMessage().contains("version 9"));
    }

    @Test
    void shouldRefuseAHeaderThatDisagreesWithTheFileName() throws IOException {
        final Path segment = writeSegments(30).get(0);
        TestJournal.write(segment, 8, new byte[] {2});
        assertCorrupted(segment, 0);
    }

    @Test
    void shouldRefuseAnUnknownSymbolName() throws IOException {
        final Path segment = writeSegments(30).get(0);
        final long firstOnBtcusd = TestJournal.recordOffsets(segment).get(2);
        final UnknownSymbolException e = assertThrows(UnknownSymbolException.class,
                () -> JournalReader.recover(dir, Map.of("ETHUSD", 0, "SOLUSD", 1), c -> { }));
        assertEquals("BTCUSD", e.getSymbol());
        assertEquals(segment, e.getFile());
        assertEquals(firstOnBtcusd, e.getOffset());
        assertTrue(e.getMessage().contains("configuration changed"), e.getMessage());
    }

    private JournalCorruptedException assertCorrupted(final Path file, final long offset) {
        final JournalCorruptedException e = assertThrows(JournalCorruptedException.class,
                () -> JournalReader.recover(dir, Commands.SYMBOL_INDEX, c -> { }));
        assertEquals(file, e.getFile(), e.getMessage());
        assertEquals(offset, e.getOffset(), e.getMessage());
        return e;
    }
}
