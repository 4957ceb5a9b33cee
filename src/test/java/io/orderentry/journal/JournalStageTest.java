package io.orderentry.journal;

import com.lmax.disruptor.RingBuffer;
import io.orderentry.pipeline.CommandType;
import io.orderentry.pipeline.OrderCommand;
import io.orderentry.pipeline.Refusal;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JournalStageTest {

    @TempDir
    Path dir;

    private final RingBuffer<OrderCommand> ring = RingBuffer.createSingleProducer(OrderCommand::new, 256);
    private final List<FailingFileChannel> channels = new ArrayList<>();
    private JournalWriter writer;
    private JournalStage handler;
    private long published;
    /** When set, the writer cannot open a segment file (so a resume fails). */
    private boolean refuseOpen;

    @AfterEach
    void closeWriter() throws IOException {
        if (writer != null) {
            writer.close();
        }
    }

    private void open(final JournalConfig config, final LongSupplier clock) throws IOException {
        final JournalRecovery recovery = JournalReader.recover(config.directory(), Commands.SYMBOL_INDEX, c -> { });
        final SegmentChannelFactory failing = FailingFileChannel.factory(channels);
        writer = JournalWriter.open(config, Commands.SYMBOLS, recovery, (path, create) -> {
            if (refuseOpen) {
                throw new IOException("injected open failure");
            }
            return failing.open(path, create);
        });
        handler = new JournalStage(writer, ring, clock);
    }

    private void open(final LongSupplier clock) throws IOException {
        open(TestJournal.config(dir), clock);
    }

    /** Publishes {@code size} commands and hands them to the handler as one batch; returns the first ring sequence. */
    private long batch(final int size) {
        final long first = published;
        for (int i = 0; i < size; i++) {
            final long s = ring.next();
            Commands.nth(ring.get(s), s + 1);
            ring.publish(s);
            handler.onEvent(ring.get(s), s, i == size - 1);
        }
        published += size;
        return first;
    }

    private OrderCommand slot(final long ringSequence) {
        return ring.get(ringSequence);
    }

    @Test
    void shouldAssignContiguousSequencesAndTimestampsThatNeverDecrease() throws IOException {
        final long[] clock = {100, 50, 200, 200, 150, 300};
        final int[] tick = {0};
        open(() -> clock[tick[0]++]);
        batch(2);
        batch(4);
        final long[] expected = {100, 100, 200, 200, 200, 300};
        for (int i = 0; i < 6; i++) {
            assertEquals(i + 1, slot(i).sequence);
            assertEquals(expected[i], slot(i).timestampMicros);
            assertFalse(slot(i).journalFailed);
        }
        assertEquals(6, handler.lastSequence());
    }

    @Test
    void shouldContinueFromTheRecoveredSequenceAndTimestamp() throws IOException {
        TestJournal.write(TestJournal.config(dir), 10);
        open(() -> 5);
        batch(3);
        assertEquals(11, slot(0).sequence);
        assertEquals(13, slot(2).sequence);
        assertEquals(10_000, slot(2).timestampMicros, "never below the last recovered timestamp");
        writer.close();
        final TestJournal.Replay replay = TestJournal.replay(dir);
        assertEquals(13, replay.records().size());
        assertTrue(replay.records().get(12).sameCommandAs(Commands.nth(3)));
    }

    @Test
    void shouldWriteAndFsyncOncePerBatch() throws IOException {
        open(new JournalConfig(dir, JournalSync.FSYNC, JournalConfig.DEFAULT_SEGMENT_SIZE, 64 * 1024), () -> 1);
        batch(1);
        batch(5);
        batch(20);
        assertEquals(3, writer.flushes());
        assertEquals(3, handler.batches());
        assertEquals(26, handler.recordsWritten());
        assertEquals(26, handler.lastSequence());
        assertTrue(handler.lastFsyncNanos() > 0);
        assertTrue(handler.totalFsyncNanos() >= handler.lastFsyncNanos());
    }

    @Test
    void shouldWriteABatchLargerThanTheBufferInSeveralFlushes() throws IOException {
        open(new JournalConfig(dir, JournalSync.NONE, JournalConfig.DEFAULT_SEGMENT_SIZE, 1024), () -> 1);
        batch(100);
        assertTrue(writer.flushes() > 5, "flushes: " + writer.flushes());
        assertEquals(100, handler.lastSequence());
        assertEquals(0, handler.failedSlots());
        writer.close();
        assertEquals(100, TestJournal.replay(dir).records().size());
    }

    @Test
    void shouldMarkEverySlotOfABatchThatCouldNotBeWritten() throws IOException {
        open(() -> 1);
        batch(5);
        channels.get(0).failWrites = true;
        final long first = batch(8);
        for (long s = first; s < first + 8; s++) {
            assertTrue(slot(s).journalFailed, "slot " + s);
        }
        for (long s = 0; s < first; s++) {
            assertFalse(slot(s).journalFailed, "slot " + s);
        }
        assertFalse(handler.isHealthy());
        assertEquals("injected write failure", handler.failure().getMessage());
        assertEquals(8, handler.failedSlots());
        assertEquals(5, handler.lastSequence());
    }

    @Test
    void shouldRetryAFailedWriterAtMostOnceASecondAndContinueTheSequenceOnceItWrites() throws IOException {
        final long[] now = {1_000_000};
        open(() -> now[0]);
        batch(2);
        channels.get(0).failForce = true;
        channels.get(0).failWrites = true;
        batch(3);
        long first = batch(1);                   // sees the failure: the first try comes a second later
        refuseOpen = true;                       // the cause is still there
        now[0] += 1_000_000;
        batch(2);                                // the first command tries to resume and fails; the second waits
        now[0] += 500_000;
        batch(1);                                // within the second: no try
        for (long s = first; s < first + 4; s++) {
            assertTrue(slot(s).journalFailed, "slot " + s);
            assertEquals(0, slot(s).sequence, "a command that was not journaled has no sequence");
        }
        assertEquals("injected open failure", handler.failure().getMessage());
        refuseOpen = false;                      // the cause has gone
        now[0] += 600_000;
        first = batch(3);
        for (long s = first; s < first + 3; s++) {
            assertFalse(slot(s).journalFailed, "slot " + s);
            assertEquals(3 + s - first, slot(s).sequence, "continues after the last durable record, 2");
        }
        assertTrue(handler.isHealthy());
        assertEquals(7, handler.failedSlots());
        writer.close();
        final TestJournal.Replay replay = TestJournal.replay(dir);
        assertEquals(5, replay.records().size(), "no record of a failed batch is in the journal");
        assertEquals(Recorded.of(slot(first + 2)), replay.records().get(4));
        assertNull(replay.recovery().truncatedTail());
    }

    @Test
    void shouldResumeAFailedWriterOnATickWhenNoCommandArrivesAndWriteNothingForTheTick() throws IOException {
        final long[] now = {1_000_000};
        open(() -> now[0]);
        batch(2);
        channels.get(0).failWrites = true;
        batch(1);                                // fails; seen by the next slot, which sets the first try
        tick();                                  // the first try comes a second later
        now[0] += 1_000_000;
        final long flushes = writer.flushes();
        final long s = tick();
        assertTrue(handler.isHealthy(), "resumed by the tick alone, so /ready turns 200 with no traffic");
        assertEquals(0, slot(s).sequence);
        assertFalse(slot(s).journalFailed);
        assertEquals(flushes, writer.flushes(), "a tick writes nothing");
        batch(1);
        assertEquals(3, slot(published - 1).sequence, "the sequence continues after the last durable record, 2");
        writer.close();
        assertEquals(3, TestJournal.replay(dir).records().size());
    }

    private long tick() {
        final long s = ring.next();
        ring.get(s).reset();
        ring.get(s).type = CommandType.TICK;
        ring.publish(s);
        handler.onEvent(ring.get(s), s, true);
        published++;
        return s;
    }

    @Test
    void shouldMarkOnlyTheRecordsAfterTheLastSuccessfulPartialFlush() throws IOException {
        open(new JournalConfig(dir, JournalSync.NONE, JournalConfig.DEFAULT_SEGMENT_SIZE, 1024), () -> 1);
        final int size = 60;
        for (int i = 0; i < size; i++) {
            if (i == size / 2) {
                channels.get(0).failWrites = true;
            }
            final long s = ring.next();
            Commands.nth(ring.get(s), s + 1);
            ring.publish(s);
            handler.onEvent(ring.get(s), s, i == size - 1);
        }
        final long durable = writer.lastSequence();
        assertTrue(durable > 0 && durable < size / 2, "durable: " + durable);
        for (int s = 0; s < size; s++) {
            assertEquals(s >= durable, slot(s).journalFailed, "slot " + s);
        }
        writer.close();
        assertEquals(durable, TestJournal.replay(dir).records().size());
    }

    @Test
    void shouldMarkAnUnencodableCommandAloneAndCarryOn() throws IOException {
        open(() -> 1);
        for (int i = 0; i < 3; i++) {
            final long s = ring.next();
            Commands.nth(ring.get(s), s + 1);
            if (i == 1) {
                ring.get(s).accountId = null;
            }
            ring.publish(s);
            handler.onEvent(ring.get(s), s, i == 2);
        }
        assertFalse(slot(0).journalFailed);
        assertTrue(slot(1).journalFailed);
        assertFalse(slot(2).journalFailed);
        assertEquals(1, slot(0).sequence);
        assertEquals(2, slot(2).sequence);
        assertEquals(1, handler.rejectedCommands());
        assertNotNull(handler.lastRejection());
        assertTrue(handler.isHealthy());
        assertEquals(0, handler.failedSlots());
    }

    @Test
    void shouldClearAStaleFailureFlagOfAReusedSlot() throws IOException {
        open(() -> 1);
        final long s = ring.next();
        Commands.nth(ring.get(s), 1);
        ring.get(s).journalFailed = true;
        ring.publish(s);
        handler.onEvent(ring.get(s), s, true);
        assertFalse(slot(s).journalFailed);
    }

    @Test
    void shouldSkipARejectedSlotWithoutWritingARecordOrConsumingASequence() throws IOException {
        open(() -> 1);
        for (int i = 0; i < 3; i++) {
            final long s = ring.next();
            if (i == 1) {
                rejected(ring.get(s));
            } else {
                Commands.nth(ring.get(s), s + 1);
            }
            ring.publish(s);
            handler.onEvent(ring.get(s), s, i == 2);
        }
        assertEquals(1, slot(0).sequence);
        assertEquals(0, slot(1).sequence);
        assertFalse(slot(1).journalFailed);
        assertEquals(2, slot(2).sequence, "the refusal must not consume a sequence");
        assertEquals(2, handler.recordsWritten());
        assertEquals(0, handler.rejectedCommands());
        final long sizeBefore = TestJournal.size(SegmentFiles.list(dir).get(0));
        final long flushesBefore = writer.flushes();
        final long s = ring.next();
        rejected(ring.get(s));
        ring.publish(s);
        handler.onEvent(ring.get(s), s, true);
        assertEquals(flushesBefore, writer.flushes(), "a batch of refusals writes nothing");
        assertEquals(sizeBefore, TestJournal.size(SegmentFiles.list(dir).get(0)));
        writer.close();
        final TestJournal.Replay replay = TestJournal.replay(dir);
        assertEquals(2, replay.records().size());
        assertTrue(replay.records().get(1).sameCommandAs(Commands.nth(3)));
    }

    private static void rejected(final OrderCommand c) {
        c.reset();
        c.type = CommandType.REJECTED;
        c.accountId = "acct-1";
        c.refusal = new Refusal(CommandType.PLACE, 422, "PRICE_NOT_ON_TICK", "price is off the tick", "price");
    }
}
