package io.orderentry.journal;

import com.lmax.disruptor.BlockingWaitStrategy;
import com.lmax.disruptor.EventHandler;
import com.lmax.disruptor.EventTranslatorOneArg;
import com.lmax.disruptor.dsl.Disruptor;
import com.lmax.disruptor.dsl.ProducerType;
import com.lmax.disruptor.util.DaemonThreadFactory;
import io.orderentry.pipeline.OrderCommand;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The handler as the first stage of a real Disruptor 4 ring, with a probe standing in for the matcher. */
class JournalStageDisruptorTest {

    private static final EventTranslatorOneArg<OrderCommand, Long> NTH = (slot, ringSequence, n) -> Commands.nth(slot, n);

    @TempDir
    Path dir;

    private final Disruptor<OrderCommand> disruptor = new Disruptor<>(OrderCommand::new, 256,
            DaemonThreadFactory.INSTANCE, ProducerType.MULTI, new BlockingWaitStrategy());
    private final List<FailingFileChannel> channels = new ArrayList<>();
    private JournalWriter writer;
    private Probe probe;

    /** Stands in for the matcher: checks what it is allowed to see. */
    private final class Probe implements EventHandler<OrderCommand> {
        final List<String> violations = new CopyOnWriteArrayList<>();
        volatile long seen;
        volatile long seenFailed;
        private long expectedSequence = 1;

        @Override
        public void onEvent(final OrderCommand command, final long sequence, final boolean endOfBatch) {
            if (command.journalFailed) {
                seenFailed++;
            } else {
                if (command.sequence != expectedSequence) {
                    violations.add("sequence " + command.sequence + " where " + expectedSequence + " expected");
                }
                if (writer.lastSequence() < command.sequence) {
                    violations.add("saw sequence " + command.sequence + " before it was durable");
                }
                expectedSequence = command.sequence + 1;
            }
            seen++;
        }
    }

    private void start(final JournalConfig config) throws IOException {
        final JournalRecovery recovery = JournalReader.recover(config.directory(), Commands.SYMBOL_INDEX, c -> { });
        writer = JournalWriter.open(config, Commands.SYMBOLS, recovery, FailingFileChannel.factory(channels));
        final JournalStage journal = new JournalStage(writer, disruptor.getRingBuffer(), WallClock::currentTimeMicros);
        probe = new Probe();
        disruptor.handleEventsWith(journal).then(probe);
        disruptor.start();
    }

    @AfterEach
    void stop() throws Exception {
        disruptor.shutdown(10, TimeUnit.SECONDS);
        if (writer != null) {
            writer.close();
        }
    }

    private void publish(final long first, final long count) throws InterruptedException {
        for (long n = first; n < first + count; n++) {
            disruptor.publishEvent(NTH, n);
        }
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (probe.seen < first - 1 + count && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertEquals(first - 1 + count, probe.seen);
    }

    @Test
    void shouldLetTheMatcherSeeOnlyDurableCommandsInSequence() throws Exception {
        start(TestJournal.config(dir));
        publish(1, 20_000);
        assertEquals(List.of(), probe.violations);
        assertEquals(0, probe.seenFailed);
        disruptor.shutdown(10, TimeUnit.SECONDS);
        writer.close();
        final TestJournal.Replay replay = TestJournal.replay(dir);
        assertEquals(20_000, replay.records().size());
        for (int i = 0; i < 20_000; i += 997) {
            assertTrue(replay.records().get(i).sameCommandAs(Commands.nth(i + 1)));
        }
    }

    @Test
    void shouldGroupCommitWithFsync() throws Exception {
        start(new JournalConfig(dir, JournalSync.FSYNC, JournalConfig.DEFAULT_SEGMENT_SIZE, 64 * 1024));
        publish(1, 500);
        assertEquals(List.of(), probe.violations);
        assertTrue(writer.flushes() <= 500);
        assertTrue(writer.totalForceNanos() > 0);
    }

    @Test
    void shouldShowTheMatcherEveryCommandAfterAWriteFailureAsFailed() throws Exception {
        start(TestJournal.config(dir));
        publish(1, 100);
        channels.get(0).failWrites = true;
        publish(101, 100);
        assertEquals(List.of(), probe.violations);
        assertEquals(100, probe.seenFailed);
        assertFalse(writer.isHealthy());
        disruptor.shutdown(10, TimeUnit.SECONDS);
        writer.close();
        assertEquals(100, TestJournal.replay(dir).records().size());
    }
}
