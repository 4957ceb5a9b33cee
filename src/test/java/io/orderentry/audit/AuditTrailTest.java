package io.orderentry.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AuditTrailTest {

    private static final long DAY_ONE = Instant.parse("2026-11-22T10:00:00Z").toEpochMilli() * 1000;

    @TempDir
    Path dir;

    private final List<FailingChannel> channels = new ArrayList<>();
    private long now = DAY_ONE;
    private final LongSupplier clock = () -> now;

    private AuditTrail open(final long maxFileBytes, final AuditSync sync) throws IOException {
        return AuditTrail.open(new AuditConfig(dir, maxFileBytes, sync), clock, FailingChannel.factory(channels));
    }

    @Test
    void shouldChainEveryRecordToThePreviousOneAcrossSizeRotations() throws IOException {
        try (AuditTrail trail = open(AuditConfig.MIN_FILE_BYTES, AuditSync.FSYNC)) {
            Trails.append(trail, 1, 60, 7);
            assertEquals(60, trail.lastSeq());
        }
        final List<Path> files = Trails.files(dir);
        assertTrue(files.size() >= 3, "files: " + files);
        for (final Path file : files) {
            assertTrue(Files.size(file) <= AuditConfig.MIN_FILE_BYTES, file + " is over the limit");
        }
        final List<JsonNode> records = Trails.records(dir);
        assertEquals(60, records.size());
        assertEquals(AuditFormat.GENESIS_HASH, records.get(0).get("prevHash").asText());
        for (int i = 1; i < records.size(); i++) {
            assertEquals(i + 1, records.get(i).get("seq").asLong());
            assertEquals(records.get(i - 1).get("hash").asText(), records.get(i).get("prevHash").asText());
        }
        final List<String> firstFile = Trails.lines(files.get(0));
        final String lastOfFirstFile = firstFile.get(firstFile.size() - 1);
        final JsonNode firstOfSecondFile = records.get(firstFile.size());
        assertEquals(AuditFiles.firstSeqOf(files.get(1)), firstOfSecondFile.get("seq").asLong());
        assertTrue(lastOfFirstFile.contains("\"hash\":\"" + firstOfSecondFile.get("prevHash").asText() + "\""),
                "the first record of a new file chains to the last record of the previous file");
        assertTrue(Trails.verify(dir).intact(), Trails.verify(dir).summary());
    }

    @Test
    void shouldStartANewFileWhenTheUtcDayChanges() throws IOException {
        now = Instant.parse("2026-11-22T23:59:59.999999Z").toEpochMilli() * 1000 + 999;
        try (AuditTrail trail = open(AuditConfig.DEFAULT_FILE_BYTES, AuditSync.NONE)) {
            Trails.append(trail, 1, 3, 10);
            now = Instant.parse("2026-11-23T00:00:00.000001Z").toEpochMilli() * 1000 + 1;
            Trails.append(trail, 4, 5, 10);
        }
        final List<Path> files = Trails.files(dir);
        assertEquals(2, files.size());
        assertEquals("audit-2026-11-22-0000000000000000001.jsonl", files.get(0).getFileName().toString());
        assertEquals("audit-2026-11-23-0000000000000000004.jsonl", files.get(1).getFileName().toString());
        assertEquals("2026-11-23T00:00:00.000001Z", Trails.records(dir).get(3).get("time").asText());
        assertTrue(Trails.verify(dir).intact(), Trails.verify(dir).summary());
    }

    @Test
    void shouldContinueSeqAndChainAfterReopening() throws IOException {
        final String head;
        try (AuditTrail trail = open(AuditConfig.DEFAULT_FILE_BYTES, AuditSync.NONE)) {
            Trails.append(trail, 1, 5, 2);
            head = trail.headHash();
        }
        try (AuditTrail trail = open(AuditConfig.DEFAULT_FILE_BYTES, AuditSync.NONE)) {
            assertEquals(5, trail.tail().lastSeq());
            assertEquals(head, trail.tail().lastHash());
            assertEquals(5, trail.tail().lastAuditedJournalSequence());
            Trails.append(trail, 6, 8, 2);
        }
        assertEquals(1, Trails.files(dir).size(), "a reopened trail appends to its newest file on the same day");
        assertEquals(8, Trails.records(dir).size());
        assertTrue(Trails.verify(dir).intact(), Trails.verify(dir).summary());
    }

    @Test
    void shouldTakeTheHighestSequenceAuditedWhenTheLastStartNamedALowerOneAsAClusterMemberRestartedFromASnapshotDoes()
            throws IOException {
        try (AuditTrail trail = open(AuditConfig.DEFAULT_FILE_BYTES, AuditSync.NONE)) {
            Trails.append(trail, 1, 9, 3);
            final AuditEntry started = new AuditEntry();
            started.reset();
            started.kind = AuditKind.SERVICE_STARTED;
            started.journalSequence = 6;   // a cluster member restarted from its snapshot of command 6, then stopped
            trail.append(started);
            trail.flush();
        }
        try (AuditTrail trail = open(AuditConfig.DEFAULT_FILE_BYTES, AuditSync.NONE)) {
            assertEquals(9, trail.tail().lastAuditedJournalSequence(),
                    "commands 7..9 are audited already: replaying them again would record them twice");
        }
    }

    @Test
    void shouldTakeAStartsSequenceWhenNoCommandWasAuditedAfterIt() throws IOException {
        try (AuditTrail trail = open(AuditConfig.DEFAULT_FILE_BYTES, AuditSync.NONE)) {
            final AuditEntry started = new AuditEntry();
            started.reset();
            started.kind = AuditKind.SERVICE_STARTED;
            started.journalSequence = 40;   // a new trail beside a journal of 40 commands
            trail.append(started);
            trail.flush();
        }
        try (AuditTrail trail = open(AuditConfig.DEFAULT_FILE_BYTES, AuditSync.NONE)) {
            assertEquals(40, trail.tail().lastAuditedJournalSequence());
        }
    }

    @Test
    void shouldWriteNothingUntilFlushed() throws IOException {
        try (AuditTrail trail = open(AuditConfig.DEFAULT_FILE_BYTES, AuditSync.NONE)) {
            assertTrue(trail.append(Trails.placed(new AuditEntry(), 1)));
            assertTrue(Trails.files(dir).isEmpty(), "a file is created only when its first batch is written");
            assertEquals(0, trail.lastSeq());
            assertTrue(trail.flush());
            assertEquals(1, trail.lastSeq());
            assertEquals(1, Trails.records(dir).size());
        }
    }

    @Test
    void shouldNeverGoBackInTimeWhenTheClockDoes() throws IOException {
        try (AuditTrail trail = open(AuditConfig.DEFAULT_FILE_BYTES, AuditSync.NONE)) {
            Trails.append(trail, 1, 1, 1);
            now -= 5_000_000;
            Trails.append(trail, 2, 2, 1);
        }
        final List<JsonNode> records = Trails.records(dir);
        assertEquals(records.get(0).get("time"), records.get(1).get("time"));
    }

    @Test
    void shouldCutATornLastLineAndContinueTheChain() throws IOException {
        try (AuditTrail trail = open(AuditConfig.DEFAULT_FILE_BYTES, AuditSync.NONE)) {
            Trails.append(trail, 1, 4, 4);
        }
        final Path file = Trails.files(dir).get(0);
        final long good = Files.size(file);
        Files.write(file, "{\"seq\":5,\"time\":\"20".getBytes(StandardCharsets.US_ASCII), StandardOpenOption.APPEND);
        try (AuditTrail trail = open(AuditConfig.DEFAULT_FILE_BYTES, AuditSync.NONE)) {
            assertEquals(good, Files.size(file), "the torn bytes are cut");
            assertEquals(4, trail.tail().lastSeq());
            Trails.append(trail, 5, 6, 1);
        }
        assertTrue(Trails.verify(dir).intact(), Trails.verify(dir).summary());
    }

    @Test
    void shouldDeleteAnEmptyNewestFileAndContinueFromTheOneBefore() throws IOException {
        try (AuditTrail trail = open(AuditConfig.DEFAULT_FILE_BYTES, AuditSync.NONE)) {
            Trails.append(trail, 1, 3, 3);
        }
        final Path empty = AuditFiles.path(dir, AuditFiles.epochDay(now) + 1, 4);
        Files.createFile(empty);
        try (AuditTrail trail = open(AuditConfig.DEFAULT_FILE_BYTES, AuditSync.NONE)) {
            assertFalse(Files.exists(empty));
            assertEquals(3, trail.tail().lastSeq());
        }
    }

    @Test
    void shouldRefuseToExtendATrailWhoseLastRecordWasEdited() throws IOException {
        try (AuditTrail trail = open(AuditConfig.DEFAULT_FILE_BYTES, AuditSync.NONE)) {
            Trails.append(trail, 1, 3, 3);
        }
        final Path file = Trails.files(dir).get(0);
        Trails.flipByte(file, Trails.lineOffset(file, 3) + 10);
        final AuditTrailDamagedException e = assertThrows(AuditTrailDamagedException.class,
                () -> open(AuditConfig.DEFAULT_FILE_BYTES, AuditSync.NONE));
        assertEquals(file, e.file());
        assertEquals(3, e.line());
    }

    @Test
    void shouldKeepWhatAFailedWriteLeftOutLeaveOnlyWholeRecordsBehindAndWriteItAllOnResume() throws IOException {
        final AuditTrail trail = open(AuditConfig.DEFAULT_FILE_BYTES, AuditSync.NONE);
        Trails.append(trail, 1, 3, 3);
        final long good = Files.size(Trails.files(dir).get(0));
        channels.get(0).failWrites = true;
        final AuditEntry entry = new AuditEntry();
        assertTrue(trail.append(Trails.placed(entry, 4)));
        assertTrue(trail.append(Trails.placed(entry, 5)));
        assertFalse(trail.flush());
        assertFalse(trail.isHealthy());
        assertEquals("injected write failure", trail.failure().getMessage());
        assertEquals(2, trail.pendingRecords());
        assertEquals(good, Files.size(Trails.files(dir).get(0)), "the half-written batch is cut off");
        assertTrue(Trails.verify(dir).intact(), Trails.verify(dir).summary());
        assertFalse(trail.append(Trails.placed(entry, 6)), "not written yet");
        assertFalse(trail.flush());
        assertEquals(3, trail.pendingRecords(), "and kept, chained after the others");
        assertEquals(3, trail.lastSeq());
        assertTrue(trail.resume(), "a new channel to the same file writes");
        assertTrue(trail.isHealthy());
        assertEquals(6, trail.lastSeq());
        assertTrue(trail.append(Trails.placed(entry, 7)));
        assertTrue(trail.flush());
        trail.close();
        assertEquals(0, trail.unwrittenRecords());
        assertEquals(1, Trails.files(dir).size());
        assertEquals(7, Trails.records(dir).size());
        assertTrue(Trails.verify(dir).intact(), Trails.verify(dir).summary());
    }

    @Test
    void shouldTakeTheUnforcedBatchBackOutWhenForcingFailsInFsyncModeAndWriteItAgainOnResume() throws IOException {
        final long forced;
        try (AuditTrail trail = open(AuditConfig.DEFAULT_FILE_BYTES, AuditSync.FSYNC)) {
            Trails.append(trail, 1, 1, 1);
            forced = Files.size(Trails.files(dir).get(0));
            channels.get(0).failForce = true;
            assertTrue(trail.append(Trails.placed(new AuditEntry(), 2)));
            assertTrue(trail.append(Trails.placed(new AuditEntry(), 3)));
            assertFalse(trail.flush());
            assertFalse(trail.isHealthy());
            assertEquals("injected force failure", trail.failure().getMessage());
            assertEquals(1, trail.lastSeq(), "the records of the unforced batch are not in the trail");
            assertEquals(2, trail.pendingRecords(), "they are kept instead");
            assertEquals(forced, Files.size(Trails.files(dir).get(0)), "the file ends at the last forced batch");
            assertTrue(Trails.verify(dir).intact(), Trails.verify(dir).summary());
            assertTrue(trail.resume());
            assertEquals(3, trail.lastSeq());
        }
        assertEquals(3, Trails.records(dir).size());
        assertTrue(Trails.verify(dir).intact(), Trails.verify(dir).summary());
    }

    @Test
    void shouldCreateTheNewFileOnResumeWhenTheRollFailedToCreateIt() throws IOException {
        final boolean[] createsFail = {false};
        final AuditTrail trail = AuditTrail.open(new AuditConfig(dir, AuditConfig.DEFAULT_FILE_BYTES, AuditSync.NONE),
                clock, (path, create) -> {
                    if (create && createsFail[0]) {
                        throw new IOException("injected: No space left on device");
                    }
                    return AuditChannelFactory.FILES.open(path, create);
                });
        Trails.append(trail, 1, 2, 2);
        createsFail[0] = true;
        now += 86_400_000_000L;   // the UTC-midnight roll
        assertTrue(trail.append(Trails.placed(new AuditEntry(), 3)), "buffered: a file is created at its first write");
        assertFalse(trail.flush(), "the new day's file cannot be created");
        assertFalse(trail.resume());
        assertEquals(1, trail.pendingRecords());
        createsFail[0] = false;
        assertTrue(trail.resume());
        assertTrue(trail.append(Trails.placed(new AuditEntry(), 4)));
        trail.close();
        assertEquals(2, Trails.files(dir).size(), "the day's file, created on resume");
        assertEquals(4, Trails.records(dir).size());
        assertTrue(Trails.verify(dir).intact(), Trails.verify(dir).summary());
    }

    @Test
    void shouldGiveUpTheChainOnlyWhenMoreThanItsBoundWouldHaveToBeKept() throws IOException {
        final AuditTrail trail = AuditTrail.open(new AuditConfig(dir, AuditConfig.DEFAULT_FILE_BYTES, AuditSync.NONE),
                clock, FailingChannel.factory(channels), 2_000);
        Trails.append(trail, 1, 1, 1);
        channels.get(0).failWrites = true;
        long seq = 1;
        while (trail.resumable()) {
            trail.append(Trails.placed(new AuditEntry(), ++seq));
            trail.flush();
        }
        assertTrue(seq > 3, "a few records fit in 2,000 bytes: " + seq);
        assertEquals(0, trail.pendingRecords());
        assertEquals(seq - 1, trail.unwrittenRecords(), "every record after the failure is lost to the trail (logged)");
        channels.get(0).failWrites = false;
        assertFalse(trail.resume(), "the chain cannot go on in this process");
        assertFalse(trail.append(Trails.placed(new AuditEntry(), ++seq)));
        assertEquals(seq - 1, trail.unwrittenRecords());
        trail.close();
        assertEquals(1, Trails.records(dir).size());
        assertTrue(Trails.verify(dir).intact(), Trails.verify(dir).summary());
    }

    /** Forcing a finished file took 50 ms on ext4 under load; the answers waiting on the next batch must not wait. */
    @Test
    void shouldWriteTheNextFileWhileThePreviousOneIsStillBeingForced() throws IOException {
        final java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        long seq = 0;
        try (AuditTrail trail = open(4096, AuditSync.NONE)) {
            Trails.append(trail, ++seq, seq, 1);
            channels.get(0).holdForce = release;
            while (channels.size() < 2 && seq < 100) {
                // each record is flushed; the one that rolls is written to the second file while the first
                // file's force hangs
                Trails.append(trail, ++seq, seq, 1);
            }
            assertEquals(2, channels.size(), "the trail moved on to a second file");
            assertTrue(trail.isHealthy());
            release.countDown();
            while (channels.size() < 3 && seq < 200) {
                Trails.append(trail, ++seq, seq, 1);   // the next roll queues behind the first force, now released
            }
        }
        assertTrue(Trails.verify(dir).intact(), Trails.verify(dir).summary());
        assertEquals(seq, Trails.records(dir).size());
    }

    @Test
    void shouldForceTheCurrentFileInTheBackgroundAsItGrows() throws IOException {
        final java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        long seq = 0;
        try (AuditTrail trail = open(AuditConfig.DEFAULT_FILE_BYTES, AuditSync.NONE)) {
            Trails.append(trail, ++seq, seq, 1);
            final FailingChannel file = channels.get(0);
            file.holdForce = release;   // a background force now hangs; the trail must not wait for it
            long written = 0;
            while (written < 3 * AuditTrail.WRITE_BACK_BYTES) {
                Trails.append(trail, ++seq, seq + 99, 100);
                seq += 99;
                written = java.nio.file.Files.size(Trails.files(dir).get(0));
            }
            assertEquals(1, file.forcesStarted(), "one background force at a time, the first one still hanging");
            release.countDown();
        }
        assertEquals(1, channels.size(), "no roll");
        assertTrue(channels.get(0).forcesStarted() >= 2, "forced in the background, then at close");
        assertTrue(Trails.verify(dir).intact(), Trails.verify(dir).summary());
    }

    @Test
    void shouldStopTheTrailWhenThePreviousFileCannotBeForced() throws IOException {
        final AuditTrail trail = open(4096, AuditSync.NONE);
        long seq = 0;
        Trails.append(trail, ++seq, seq, 1);
        channels.get(0).failForce = true;
        // the failure may already stop the batch that rolled, or the next one: either way the trail stops
        while (channels.size() < 2 && seq < 100 && trail.append(Trails.placed(new AuditEntry(), ++seq))
                && trail.flush()) {
            assertTrue(trail.isHealthy());
        }
        trail.close();   // waits for the background force
        assertFalse(trail.isHealthy());
        assertTrue(trail.failure().getMessage().contains("injected force failure"), trail.failure().getMessage());
        assertFalse(trail.resumable(), "the forced file's records may be gone: only a restart, which reads them back");
    }

    @Test
    void shouldGiveEachRecordADifferentHash() throws IOException {
        try (AuditTrail trail = open(AuditConfig.DEFAULT_FILE_BYTES, AuditSync.NONE)) {
            final AuditEntry entry = Trails.placed(new AuditEntry(), 1);
            assertTrue(trail.append(entry));
            assertTrue(trail.append(entry));
            assertTrue(trail.flush());
        }
        final List<JsonNode> records = Trails.records(dir);
        assertNotEquals(records.get(0).get("hash"), records.get(1).get("hash"), "the same entry twice still chains");
    }

    @Test
    void shouldLetOnlyOneWriterOpenADirectoryUntilItCloses() throws IOException {
        final AuditTrail first = open(AuditConfig.DEFAULT_FILE_BYTES, AuditSync.NONE);
        final IOException e = assertThrows(IOException.class, () -> open(AuditConfig.DEFAULT_FILE_BYTES, AuditSync.NONE));
        assertTrue(e.getMessage().contains("in use"), e.getMessage());
        first.close();
        open(AuditConfig.DEFAULT_FILE_BYTES, AuditSync.NONE).close();
    }
}
