package io.orderentry.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Archiving old audit files: compressed whole, the chain still verifies from the anchor without them and from the
 * first record with them, an edit inside the archive is found, and a trail whose files were all archived continues
 * the chain.
 */
class AuditArchiverTest {

    private static final long DAY_ONE = Instant.parse("2026-11-20T10:00:00Z").toEpochMilli() * 1000;
    private static final long DAY = AuditFiles.MICROS_PER_DAY;

    @TempDir
    Path root;
    private long now = DAY_ONE;
    private final LongSupplier clock = () -> now;

    private Path dir() {
        return root.resolve("audit");
    }

    private Path archive() {
        return root.resolve("archive");
    }

    /** Four days of records, 2,000 a day. */
    private void fourDays() throws IOException {
        try (AuditTrail trail = AuditTrail.open(new AuditConfig(dir(), AuditConfig.DEFAULT_FILE_BYTES, AuditSync.NONE),
                clock)) {
            for (int day = 0; day < 4; day++) {
                now = DAY_ONE + day * DAY;
                Trails.append(trail, 1 + day * 2_000L, (day + 1) * 2_000L, 50);
            }
        }
    }

    @Test
    void filesOlderThanTheCutoffAreArchivedAndTheChainVerifiesWithAndWithoutThem() throws IOException {
        fourDays();
        final long raw = Files.size(Trails.files(dir()).get(0)) + Files.size(Trails.files(dir()).get(1));
        final List<Path> archived = new AuditArchiver(dir(), archive())
                .archiveBefore(AuditFiles.epochDay(DAY_ONE + 2 * DAY));
        assertEquals(2, archived.size(), "the first two days");
        assertEquals(2, Trails.files(dir()).size(), "the last two days stay");
        final long compressed;
        try (Stream<Path> files = Files.list(archive())) {
            compressed = files.mapToLong(p -> p.toFile().length()).sum();
        }
        assertTrue(compressed * 5 <= raw, "compressed to at most a fifth: " + compressed + " of " + raw + " bytes");

        final AuditVerification anchored = AuditVerifier.verify(dir());
        assertTrue(anchored.intact(), anchored.summary());
        assertEquals(4_000, anchored.anchoredAt());
        assertEquals(8_000, anchored.records());
        assertTrue(anchored.summary().contains("anchor at archived seq 4000"), anchored.summary());

        final AuditVerification whole = AuditVerifier.verify(dir(), archive());
        assertTrue(whole.intact(), whole.summary());
        assertEquals(0, whole.anchoredAt());
        assertEquals(8_000, whole.records());
        assertEquals(4, whole.files());
    }

    @Test
    void anEditedRecordInsideTheArchiveIsFound() throws IOException {
        fourDays();
        new AuditArchiver(dir(), archive()).archiveBefore(AuditFiles.epochDay(DAY_ONE + 2 * DAY));
        final Path first;
        try (Stream<Path> files = Files.list(archive())) {
            first = files.sorted().findFirst().orElseThrow();
        }
        final String text;
        try (InputStream in = new GZIPInputStream(Files.newInputStream(first))) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(first))) {
            out.write(text.replaceFirst("\"acct-3\"", "\"acct-4\"").getBytes(StandardCharsets.UTF_8));
        }
        final AuditVerification verification = AuditVerifier.verify(dir(), archive());
        assertFalse(verification.intact(), verification.summary());
        assertEquals(first, verification.brokenFile());
    }

    @Test
    void aTrailWhoseFilesWereAllArchivedContinuesTheChainFromTheAnchor() throws IOException {
        fourDays();
        new AuditArchiver(dir(), archive()).archiveBefore(AuditFiles.epochDay(DAY_ONE + 10 * DAY));
        final List<Path> left = Trails.files(dir());
        assertEquals(1, left.size(), "never the newest file");
        Files.delete(left.get(0));   // as if it had been an empty newest file, which the trail deletes at start
        now = DAY_ONE + 5 * DAY;
        try (AuditTrail trail = AuditTrail.open(new AuditConfig(dir(), AuditConfig.DEFAULT_FILE_BYTES, AuditSync.NONE),
                clock)) {
            assertEquals(6_000, trail.lastSeq(), "continues after the last archived record");
            assertEquals(6_000, trail.tail().lastAuditedJournalSequence());
            Trails.append(trail, 6_001, 6_010, 5);
        }
        final AuditVerification verification = AuditVerifier.verify(dir());
        assertTrue(verification.intact(), verification.summary());
        assertEquals(6_010, verification.records());
    }
}
