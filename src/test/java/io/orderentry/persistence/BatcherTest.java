package io.orderentry.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.orderentry.pipeline.EngineEvent;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class BatcherTest {

    private static final long DELAY = TimeUnit.MILLISECONDS.toNanos(100);

    private final List<EngineEvent> events = GeneratedEvents.generate(7, 2_500);
    private final Events.ListSource source = new Events.ListSource(events);
    private final RecordingSink sink = new RecordingSink();
    private long now = 1_000_000;
    private final Batcher batcher = new Batcher(source, sink, 1_000, DELAY, () -> now);

    @Test
    void fullBatchesAreWrittenAtOnceWithExactlyTheConfiguredNumberOfEvents() throws Exception {
        assertEquals(1_000, batcher.poll(false));
        assertEquals(1_000, batcher.poll(false));
        assertEquals(List.of(range(1, 1_000), range(1_001, 2_000)), sink.batches);
        assertEquals(0, batcher.poll(false), "the last 500 events wait for more or for the delay");
        assertEquals(500, batcher.pendingEvents());
    }

    @Test
    void aBatcherThatDoesNotSubmitSkipsWhatAnotherWriterStoredAndWritesOnFromTheMarkWhenItSubmitsAgain()
            throws Exception {
        batcher.submitting(false);   // a cluster member that follows
        assertEquals(0, batcher.poll(false));
        assertTrue(sink.batches.isEmpty());
        assertEquals(1_000, batcher.pendingEvents(), "it reads ahead one batch, no more");
        sink.storedElsewhereThrough(1_500);   // the leader wrote
        now += 10 * DELAY;
        assertEquals(0, batcher.poll(false));
        assertTrue(sink.batches.isEmpty(), "nothing is written while it follows, even when due");
        assertEquals(1_000, batcher.pendingEvents(), "events 1,501..2,500: what the mark covers is dropped");
        batcher.submitting(true);   // it leads now
        assertEquals(1_000, batcher.poll(false));
        assertEquals(List.of(range(1_501, 2_500)), sink.batches);
    }

    @Test
    void aPartialBatchIsWrittenOnceItsFirstEventHasWaitedTheDelayAndNotBefore() throws Exception {
        source.availableUpTo(10);
        assertEquals(0, batcher.poll(false));
        now += DELAY / 2;
        source.availableUpTo(25);
        assertEquals(0, batcher.poll(false));
        now += DELAY / 2 - 1;
        assertEquals(0, batcher.poll(false), "one nanosecond early");
        now += 1;
        assertEquals(25, batcher.poll(false));
        assertEquals(List.of(range(1, 25)), sink.batches);
    }

    @Test
    void theDelayCountsFromTheFirstEventOfEachBatch() throws Exception {
        source.availableUpTo(1);
        assertEquals(0, batcher.poll(false));
        now += DELAY;
        assertEquals(1, batcher.poll(false));
        now += 10 * DELAY;
        source.availableUpTo(2);
        assertEquals(0, batcher.poll(false), "a new batch starts its own delay");
        now += DELAY;
        assertEquals(1, batcher.poll(false));
    }

    @Test
    void anEmptyPeriodWritesNothing() throws Exception {
        source.availableUpTo(0);
        for (int i = 0; i < 50; i++) {
            now += DELAY;
            assertEquals(0, batcher.poll(false));
        }
        assertTrue(sink.batches.isEmpty());
        assertEquals(0, batcher.pendingEvents());
    }

    @Test
    void aFailedBatchIsOfferedAgainWithTheSameEvents() throws Exception {
        sink.failNext(2);
        assertThrows(SQLException.class, () -> batcher.poll(false));
        assertThrows(SQLException.class, () -> batcher.poll(false));
        assertEquals(1_000, batcher.poll(false));
        assertEquals(List.of(range(1, 1_000)), sink.batches);
    }

    @Test
    void aBatchStoredDespiteAFailedWriteIsNotWrittenTwice() throws Exception {
        sink.storeButFailNext();
        assertThrows(SQLException.class, () -> batcher.poll(false));
        assertEquals(1_000, batcher.poll(false), "the next batch, not the same one again");
        assertEquals(List.of(range(1, 1_000), range(1_001, 2_000)), sink.batches);
    }

    @Test
    void eventsTheSinkAlreadyHoldsAreSkipped() throws Exception {
        final RecordingSink ahead = new RecordingSink();
        final EventBatch stored = new EventBatch(1_200);
        for (int i = 0; i < 1_200; i++) {
            Events.copy(events.get(i), stored.slot());
            stored.commitSlot();
        }
        ahead.write(stored, ClaimTurn.NONE);
        final Batcher skipping = new Batcher(new Events.ListSource(events), ahead, 1_000, DELAY, () -> now);
        assertEquals(1_000, skipping.poll(false));
        assertEquals(range(1_201, 2_200), ahead.batches.get(1));
    }

    @Test
    void forcingWritesAPartialBatchAtOnce() throws Exception {
        source.availableUpTo(3);
        assertEquals(3, batcher.poll(true));
        assertEquals(0, batcher.poll(true), "nothing pending, nothing written");
    }

    @Test
    void aBatchDueWhileEveryLaneIsBusyLetsTheWriterSleepUntilALaneFinishes() throws Exception {
        final CountDownLatch release = new CountDownLatch(1);
        final RecordingSink slow = new RecordingSink();
        slow.holdWritesUntil(release);
        final Lanes lanes = Lanes.threaded(List.of(slow), "test-lane", () -> { }, () -> now);
        lanes.connect();
        final Batcher busy = new Batcher(source, lanes, 1_000, DELAY, () -> now);
        assertEquals(0, busy.poll(false), "the first batch is submitted and still being written");
        busy.poll(false);
        now += 10 * DELAY;
        assertEquals(0, busy.nanosUntilDue(), "the second batch is due");
        assertEquals(DELAY, busy.nanosToSleep(), "but no lane can take it: sleep until woken, do not spin");

        release.countDown();
        int written = 0;
        while (written < 2_000) {
            written += busy.poll(false);
            Thread.sleep(1);
        }
        assertEquals(List.of(range(1, 1_000), range(1_001, 2_000)), slow.batches);
        assertEquals(0, busy.poll(false), "the last 500 events are taken and wait for their delay");
        assertEquals(500, busy.pendingEvents());
        assertEquals(DELAY, busy.nanosToSleep());
        now += DELAY;
        assertEquals(0, busy.nanosToSleep(), "a free lane and a due batch: work now");
        lanes.close();
    }

    private static List<Long> range(final long first, final long last) {
        return LongStream.rangeClosed(first, last).boxed().toList();
    }
}
