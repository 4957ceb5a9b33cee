package io.orderentry.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * audit-verify's completeness check (issue 34): a trail whose chain is intact but which lacks a journaled command's
 * record, or holds one twice, is INCOMPLETE and says which; starts and edge refusals are not commands.
 */
class AuditCompletenessTest {

    @TempDir
    Path dir;

    @Test
    void shouldFindATrailHoldingEveryJournaledCommandOnceComplete() throws IOException {
        write(new long[] {1, 2, 3, 4, 5});
        final AuditVerification result = Trails.verify(dir);
        assertTrue(result.intact() && result.complete(), result.summary());
        assertEquals(1, result.firstCommand());
        assertEquals(5, result.lastCommand());
        assertTrue(result.summary().endsWith("; journaled commands 1..5, each once"), result.summary());
    }

    @Test
    void shouldFindATrailLackingACommandIncompleteAndNameTheFirstMissingRangeThoughItsChainIsIntact()
            throws IOException {
        write(new long[] {1, 2, 5, 6, 8});
        final AuditVerification result = Trails.verify(dir);
        assertTrue(result.intact(), "the chain itself is sound: " + result.summary());
        assertFalse(result.complete());
        assertTrue(result.summary().startsWith("INCOMPLETE: "), result.summary());
        assertTrue(result.summary().contains("journaled commands 1..8: 3 without a record, the first 3..4"),
                result.summary());
    }

    @Test
    void shouldFindACommandRecordedTwiceIncomplete() throws IOException {
        write(new long[] {1, 2, 2, 3});
        final AuditVerification result = Trails.verify(dir);
        assertFalse(result.complete());
        assertTrue(result.summary().contains("1 recorded again or out of order, the first 2"), result.summary());
    }

    @Test
    void shouldCountNeitherAStartNorAnEdgeRefusalAsACommand() throws IOException {
        try (AuditTrail trail = open()) {
            final AuditEntry entry = new AuditEntry();
            trail.append(Trails.placed(entry, 1));
            entry.reset();
            entry.kind = AuditKind.SERVICE_STARTED;
            entry.journalSequence = 1;   // a start names the last command replayed: not a second record of it
            trail.append(entry);
            entry.reset();
            entry.kind = AuditKind.REJECTED_AT_EDGE;
            trail.append(entry);
            trail.append(Trails.placed(entry, 2));
            trail.flush();
        }
        final AuditVerification result = Trails.verify(dir);
        assertTrue(result.complete(), result.summary());
        assertEquals(2, result.lastCommand());
    }

    @Test
    void shouldCheckATrailThatStartsAfterSequenceOneFromItsFirstCommand() throws IOException {
        write(new long[] {41, 42, 43});
        assertTrue(Trails.verify(dir).complete(), Trails.verify(dir).summary());
    }

    @Test
    void shouldExitThreeWhenIncompleteAndZeroWhenComplete() throws IOException {
        write(new long[] {1, 3});
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final PrintStream err = new PrintStream(new ByteArrayOutputStream(), true);
        assertEquals(AuditVerifyCommand.INCOMPLETE, AuditVerifyCommand.run(dir, new PrintStream(out, true), err));
        assertTrue(out.toString().contains("INCOMPLETE: "), out.toString());
        try (AuditTrail trail = open()) {
            final AuditEntry entry = new AuditEntry();
            trail.append(Trails.placed(entry, 4));
            trail.flush();
        }
        assertEquals(AuditVerifyCommand.INCOMPLETE, AuditVerifyCommand.run(dir, new PrintStream(out, true), err),
                "a later record does not fill an earlier gap");
    }

    @Test
    void shouldExitZeroForACompleteTrail() throws IOException {
        write(new long[] {7, 8});
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertEquals(AuditVerifyCommand.INTACT, AuditVerifyCommand.run(dir, new PrintStream(out, true),
                new PrintStream(new ByteArrayOutputStream(), true)));
        assertTrue(out.toString().contains("OK: 2 records"), out.toString());
    }

    private void write(final long[] journalSequences) throws IOException {
        try (AuditTrail trail = open()) {
            final AuditEntry entry = new AuditEntry();
            for (final long sequence : journalSequences) {
                Trails.placed(entry, sequence);
                trail.append(entry);
            }
            trail.flush();
        }
    }

    private AuditTrail open() throws IOException {
        return AuditTrail.open(new AuditConfig(dir, AuditConfig.DEFAULT_FILE_BYTES, AuditSync.NONE),
                () -> 1_700_000_000_000_000L);
    }
}
