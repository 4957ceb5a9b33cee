package io.orderentry.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tampering with a trail is found at the first affected record, named by file and line. */
class AuditVerifierTest {

    private static final int RECORDS = 40;

    @TempDir
    Path dir;
    private List<Path> files;

    @BeforeEach
    void writeATrailOfSeveralFiles() throws IOException {
        try (AuditTrail trail = AuditTrail.open(new AuditConfig(dir, AuditConfig.MIN_FILE_BYTES, AuditSync.NONE),
                () -> 1_700_000_000_000_000L)) {
            Trails.append(trail, 1, RECORDS, 3);
        }
        files = Trails.files(dir);
        assertTrue(files.size() >= 3, "files: " + files);
    }

    @Test
    void shouldFindAnIntactTrailIntactAcrossFiles() {
        final AuditVerification result = Trails.verify(dir);
        assertTrue(result.intact(), result.summary());
        assertEquals(RECORDS, result.records());
        assertEquals(files.size(), result.files());
        assertTrue(result.summary().startsWith("OK: 40 records"), result.summary());
    }

    @Test
    void shouldCatchEverySingleByteFlipOfARecordAtItsLine() throws IOException {
        final Path file = files.get(1);
        final byte[] original = Files.readAllBytes(file);
        final int line = 3;
        final long start = Trails.lineOffset(file, line);
        final long end = Trails.lineOffset(file, line + 1);
        for (long offset = start; offset < end; offset++) {
            Trails.flipByte(file, offset);
            final AuditVerification result = Trails.verify(dir);
            assertFalse(result.intact(), "flip at offset " + offset + " went unnoticed");
            assertEquals(file, result.brokenFile(), "flip at offset " + offset);
            assertEquals(line, result.brokenLine(), "flip at offset " + offset + ": " + result.reason());
            Files.write(file, original);
        }
    }

    @Test
    void shouldCatchADeletedLineAtTheLineThatNowStandsInItsPlace() {
        final Path file = files.get(1);
        final List<String> lines = Trails.lines(file);
        lines.remove(2);
        Trails.rewrite(file, lines);
        final AuditVerification result = Trails.verify(dir);
        assertBroken(result, file, 3, "seq");
    }

    @Test
    void shouldCatchTwoSwappedLinesAtTheFirstOfThem() {
        final Path file = files.get(1);
        final List<String> lines = Trails.lines(file);
        final String second = lines.get(1);
        lines.set(1, lines.get(2));
        lines.set(2, second);
        Trails.rewrite(file, lines);
        assertBroken(Trails.verify(dir), file, 2, "seq");
    }

    @Test
    void shouldCatchTheDeletedFirstRecord() {
        final Path file = files.get(0);
        final List<String> lines = Trails.lines(file);
        lines.remove(0);
        Trails.rewrite(file, lines);
        assertBroken(Trails.verify(dir), file, 1, "seq 2 where 1 was expected");
    }

    @Test
    void shouldCatchADeletedFileAtTheFirstLineOfTheNext() throws IOException {
        Files.delete(files.get(1));
        assertBroken(Trails.verify(dir), files.get(2), 1, "seq");
    }

    @Test
    void shouldCatchARecordRewrittenWithAFreshHashAtTheRecordAfterIt() throws IOException {
        final Path file = files.get(1);
        final List<String> lines = Trails.lines(file);
        final String forged = lines.get(1).replace("\"acct-", "\"evil-");
        final String content = forged.substring(0, forged.indexOf(",\"hash\":\"")) + "}";
        final String hash = java.util.HexFormat.of().formatHex(AuditFormat.sha256()
                .digest(content.getBytes(StandardCharsets.UTF_8)));
        lines.set(1, content.substring(0, content.length() - 1) + ",\"hash\":\"" + hash + "\"}");
        Trails.rewrite(file, lines);
        assertBroken(Trails.verify(dir), file, 3, "prevHash");
    }

    @Test
    void shouldReportATornLastLine() throws IOException {
        final Path last = files.get(files.size() - 1);
        Files.writeString(last, "{\"seq\":41", java.nio.file.StandardOpenOption.APPEND);
        assertBroken(Trails.verify(dir), last, Trails.lines(last).size(), "no line end");
    }

    @Test
    void shouldNotCallAnEmptyDirectoryIntact(@TempDir final Path empty) {
        final AuditVerification result = Trails.verify(empty);
        assertFalse(result.intact());
        assertNull(result.brokenFile());
    }

    @Test
    void shouldExitZeroWithASummaryWhenIntactAndOneNamingFileAndLineWhenBroken() {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(0, AuditVerifyCommand.run(dir, new PrintStream(out, true), new PrintStream(err, true)));
        assertTrue(out.toString().contains("OK: 40 records"), out.toString());

        Trails.flipByte(files.get(2), Trails.lineOffset(files.get(2), 2) + 12);
        out.reset();
        assertEquals(1, AuditVerifyCommand.run(dir, new PrintStream(out, true), new PrintStream(err, true)));
        assertTrue(out.toString().contains("BROKEN: " + files.get(2) + " line 2: "), out.toString());

        assertEquals(2, AuditVerifyCommand.run(dir.resolve("missing"), new PrintStream(out, true),
                new PrintStream(err, true)));
    }

    private static void assertBroken(final AuditVerification result, final Path file, final long line,
                                     final String reason) {
        assertFalse(result.intact(), "tampering went unnoticed");
        assertEquals(file, result.brokenFile(), result.summary());
        assertEquals(line, result.brokenLine(), result.summary());
        assertTrue(result.reason().contains(reason), result.summary());
    }
}
