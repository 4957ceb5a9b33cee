package io.orderentry.journal;

import io.orderentry.pipeline.OrderCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JournalWriterTest {

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(JournalSync.class)
    void shouldKeepFlushedRecordsAcrossReopenInEverySyncMode(final JournalSync sync) throws IOException {
        final JournalConfig config = new JournalConfig(dir, sync, JournalConfig.DEFAULT_SEGMENT_SIZE, 4096);
        try (JournalWriter writer = TestJournal.reopen(config)) {
            TestJournal.append(writer, 1, 100);
            assertEquals(100, writer.lastSequence());
            assertEquals(100, writer.recordsWritten());
            assertEquals(sync == JournalSync.FSYNC, writer.totalForceNanos() > 0);
            assertEquals(100, TestJournal.replay(dir).records().size(), "flushed records are readable before close");
        }
        try (JournalWriter writer = TestJournal.reopen(config)) {
            assertEquals(100, writer.lastSequence());
            assertEquals(100_000, writer.lastTimestampMicros());
            TestJournal.append(writer, 101, 150);
        }
        final TestJournal.Replay replay = TestJournal.replay(dir);
        assertEquals(150, replay.records().size());
        assertEquals(150, replay.recovery().lastSequence());
        assertNull(replay.recovery().truncatedTail());
        for (int i = 0; i < 150; i++) {
            assertTrue(replay.records().get(i).sameCommandAs(Commands.nth(i + 1)));
        }
    }

    @Test
    void shouldCreateTheDirectoryIfMissing() throws IOException {
        final Path nested = dir.resolve("a/b/journal");
        TestJournal.write(TestJournal.config(nested), 3);
        assertTrue(Files.exists(nested.resolve("00000000000000000001.journal")));
        assertEquals(3, TestJournal.replay(nested).records().size());
    }

    @Test
    void shouldFlushInSeveralWritesWhenTheBufferFills() throws IOException {
        final JournalConfig config = new JournalConfig(dir, JournalSync.NONE, JournalConfig.DEFAULT_SEGMENT_SIZE, 1024);
        try (JournalWriter writer = TestJournal.reopen(config)) {
            TestJournal.append(writer, 1, 200);
            assertTrue(writer.flushes() > 10, "flushes: " + writer.flushes());
        }
        assertEquals(200, TestJournal.replay(dir).records().size());
    }

    @Test
    void shouldTruncateTheFailedBatchAndRefuseAppendsUntilResumedWhenAWriteFails() throws IOException {
        final List<FailingFileChannel> channels = new ArrayList<>();
        final JournalWriter writer = JournalWriter.open(TestJournal.config(dir), Commands.SYMBOLS,
                JournalReader.recover(dir, Commands.SYMBOL_INDEX, c -> { }), FailingFileChannel.factory(channels));
        TestJournal.append(writer, 1, 10);
        final Path segment = dir.resolve("00000000000000000001.journal");
        final long durableSize = TestJournal.size(segment);

        channels.get(0).failWrites = true;
        final OrderCommand c = Commands.nth(11);
        c.sequence = 11;
        c.timestampMicros = 11_000;
        assertTrue(writer.append(c));
        assertFalse(writer.flush());

        assertFalse(writer.isHealthy());
        assertEquals("injected write failure", writer.failure().getMessage());
        assertEquals(durableSize, TestJournal.size(segment), "the half-written batch is cut off");
        assertEquals(10, writer.lastSequence());
        final OrderCommand next = Commands.nth(12);
        next.sequence = 11;
        assertFalse(writer.append(next), "appends fail fast while failed, until resume()");
        assertFalse(writer.flush());
        writer.close();

        final TestJournal.Replay replay = TestJournal.replay(dir);
        assertEquals(10, replay.records().size());
        assertNull(replay.recovery().truncatedTail());
    }

    @Test
    void shouldResumeAfterAFailedWriteFromTheLastDurableRecordLeavingNoTraceOfTheFailedBatch() throws IOException {
        final List<FailingFileChannel> channels = new ArrayList<>();
        final JournalWriter writer = JournalWriter.open(TestJournal.config(dir), Commands.SYMBOLS,
                JournalReader.recover(dir, Commands.SYMBOL_INDEX, c -> { }), FailingFileChannel.factory(channels));
        TestJournal.append(writer, 1, 10);
        channels.get(0).failWrites = true;
        channels.get(0).failTruncate = true;   // half the batch stays in the file: resume must cut it
        final OrderCommand lost = Commands.nth(11);
        lost.sequence = 11;
        lost.timestampMicros = 11_000;
        assertTrue(writer.append(lost));
        assertFalse(writer.flush());

        assertTrue(writer.resume(), "the cause has gone");
        assertTrue(writer.isHealthy());
        assertNull(writer.failure());
        final OrderCommand other = Commands.nth(20);
        other.sequence = 11;
        other.timestampMicros = 12_000;
        assertTrue(writer.append(other), "the sequence continues from the last durable record");
        assertTrue(writer.flush());
        writer.close();

        final TestJournal.Replay replay = TestJournal.replay(dir);
        assertEquals(11, replay.records().size());
        assertEquals(Recorded.of(other), replay.records().get(10), "record 11 is the one written after the resume");
        assertNull(replay.recovery().truncatedTail(), "nothing of the failed batch is left to cut");
    }

    @Test
    void shouldStayFailedWhileResumingFailsAndResumeOnceItCan() throws IOException {
        final List<FailingFileChannel> channels = new ArrayList<>();
        final boolean[] refuseOpen = {false};
        final SegmentChannelFactory failing = FailingFileChannel.factory(channels);
        final SegmentChannelFactory factory = (path, create) -> {
            if (refuseOpen[0]) {
                throw new IOException("injected open failure");
            }
            return failing.open(path, create);
        };
        final JournalWriter writer = JournalWriter.open(TestJournal.config(dir), Commands.SYMBOLS,
                JournalReader.recover(dir, Commands.SYMBOL_INDEX, c -> { }), factory);
        TestJournal.append(writer, 1, 5);
        channels.get(0).failWrites = true;
        final OrderCommand c = Commands.nth(6);
        c.sequence = 6;
        c.timestampMicros = 6_000;
        writer.append(c);
        assertFalse(writer.flush());
        refuseOpen[0] = true;
        assertFalse(writer.resume());
        assertEquals("injected open failure", writer.failure().getMessage(), "the new cause is kept");
        assertFalse(writer.append(c), "still failed");
        refuseOpen[0] = false;
        assertTrue(writer.resume());
        TestJournal.append(writer, 6, 8);
        writer.close();
        assertEquals(8, TestJournal.replay(dir).records().size());
    }

    @Test
    void shouldResumeAfterAFailedRollByCreatingTheNextSegmentAfresh() throws IOException {
        final List<FailingFileChannel> channels = new ArrayList<>();
        final boolean[] refuseCreate = {false};
        final SegmentChannelFactory failing = FailingFileChannel.factory(channels);
        final SegmentChannelFactory factory = (path, create) -> {
            if (create && refuseCreate[0]) {
                java.nio.file.Files.write(path, new byte[] {1, 2, 3});   // a partial file, as a failed create can leave
                throw new IOException("injected create failure");
            }
            return failing.open(path, create);
        };
        final JournalConfig small = new JournalConfig(dir, JournalSync.FSYNC, 1 << 20, 4096);
        final JournalWriter writer = JournalWriter.open(small, Commands.SYMBOLS,
                JournalReader.recover(dir, Commands.SYMBOL_INDEX, c -> { }), factory);
        refuseCreate[0] = true;
        long sequence = 0;
        final OrderCommand c = new OrderCommand();
        while (writer.isHealthy()) {   // until the segment is full and the roll's create fails
            sequence++;
            Commands.nth(c, sequence);
            c.sequence = sequence;
            c.timestampMicros = 1000 * sequence;
            if (writer.append(c)) {
                assertTrue(writer.flush() || !writer.isHealthy());
            }
        }
        assertEquals("injected create failure", writer.failure().getMessage());
        final long durable = writer.lastSequence();
        refuseCreate[0] = false;
        assertTrue(writer.resume());
        TestJournal.append(writer, durable + 1, durable + 3);
        writer.close();
        final TestJournal.Replay replay = TestJournal.replay(dir);
        assertEquals(durable + 3, replay.records().size());
        assertTrue(java.nio.file.Files.exists(dir.resolve(String.format("%020d.journal", durable + 1))),
                "the next segment starts after the last durable record");
    }

    @Test
    void shouldFailAndTruncateTheUnforcedBatchWhenForceFails() throws IOException {
        final List<FailingFileChannel> channels = new ArrayList<>();
        final JournalConfig config = new JournalConfig(dir, JournalSync.FSYNC, JournalConfig.DEFAULT_SEGMENT_SIZE, 4096);
        final JournalWriter writer = JournalWriter.open(config, Commands.SYMBOLS,
                JournalReader.recover(dir, Commands.SYMBOL_INDEX, c -> { }), FailingFileChannel.factory(channels));
        TestJournal.append(writer, 1, 5);
        channels.get(0).failForce = true;
        final OrderCommand c = Commands.nth(6);
        c.sequence = 6;
        c.timestampMicros = 6_000;
        assertTrue(writer.append(c));
        assertFalse(writer.flush());
        assertEquals("injected force failure", writer.failure().getMessage());
        assertEquals(5, TestJournal.replay(dir).records().size(), "the unforced batch is truncated back");
    }

    @Test
    void shouldAttachAFailedTruncationToTheCause() throws IOException {
        final List<FailingFileChannel> channels = new ArrayList<>();
        final JournalWriter writer = JournalWriter.open(TestJournal.config(dir), Commands.SYMBOLS,
                JournalReader.recover(dir, Commands.SYMBOL_INDEX, c -> { }), FailingFileChannel.factory(channels));
        TestJournal.append(writer, 1, 5);
        channels.get(0).failWrites = true;
        channels.get(0).failTruncate = true;
        final OrderCommand c = Commands.nth(6);
        c.sequence = 6;
        c.timestampMicros = 6_000;
        writer.append(c);
        assertFalse(writer.flush());
        assertEquals("injected truncate failure", writer.failure().getSuppressed()[0].getMessage());
        final TestJournal.Replay replay = TestJournal.replay(dir);
        assertEquals(5, replay.records().size());
        assertEquals(5, replay.recovery().lastSequence(), "recovery cuts the half-written record instead");
    }

    @Test
    void shouldFailWhenTheChannelWasClosedUnderIt() throws IOException {
        final List<FailingFileChannel> channels = new ArrayList<>();
        final JournalWriter writer = JournalWriter.open(TestJournal.config(dir), Commands.SYMBOLS,
                JournalReader.recover(dir, Commands.SYMBOL_INDEX, c -> { }), FailingFileChannel.factory(channels));
        channels.get(0).close();
        final OrderCommand c = Commands.nth(1);
        c.sequence = 1;
        writer.append(c);
        assertFalse(writer.flush());
        assertTrue(writer.failure() instanceof ClosedChannelException);
    }

    @Test
    void shouldRefuseUseAfterClose() throws IOException {
        final JournalWriter writer = TestJournal.reopen(TestJournal.config(dir));
        writer.close();
        writer.close();
        assertFalse(writer.isHealthy());
        final IllegalStateException e = assertThrows(IllegalStateException.class, () -> writer.append(Commands.nth(1)));
        assertTrue(e.getMessage().contains("closed"));
    }

    @Test
    void shouldRefuseTheRecoveryOfAnotherDirectory() throws IOException {
        final JournalRecovery other = JournalReader.recover(dir.resolve("other"), Commands.SYMBOL_INDEX, c -> { });
        assertThrows(IllegalArgumentException.class,
                () -> JournalWriter.open(TestJournal.config(dir), Commands.SYMBOLS, other));
    }

    @Test
    void shouldRefuseInvalidConfiguration() {
        assertThrows(IllegalArgumentException.class, () -> new JournalConfig(dir, JournalSync.NONE, 100, 4096));
        assertThrows(IllegalArgumentException.class, () -> new JournalConfig(dir, JournalSync.NONE, 1 << 20, 100));
        assertThrows(IllegalArgumentException.class, () -> new RecordEncoder(new String[] {"X".repeat(65)}, true));
        assertSame(JournalSync.FSYNC, JournalConfig.defaults(dir).sync());
    }
}
