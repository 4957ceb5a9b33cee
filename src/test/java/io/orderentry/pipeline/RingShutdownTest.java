package io.orderentry.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.lmax.disruptor.BlockingWaitStrategy;
import com.lmax.disruptor.EventHandler;
import com.lmax.disruptor.dsl.Disruptor;
import com.lmax.disruptor.dsl.ProducerType;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A graceful stop's ring shutdown: drained rings end their stages; a stage stuck in a batch is halted and, if it
 * does not leave the batch, reported as still running, so that the caller leaves the files it writes open.
 */
class RingShutdownTest {

    /** A ring slot. */
    private static final class Slot {
        long value;
    }

    private final List<Thread> stageThreads = new CopyOnWriteArrayList<>();
    private final CountDownLatch release = new CountDownLatch(1);

    @AfterEach
    void releaseStuckStages() throws InterruptedException {
        release.countDown();
        for (final Thread thread : stageThreads) {
            thread.join(10_000);
        }
    }

    @Test
    void ringThatDrainsInTimeHandlesEverythingPublishedAndEndsItsStages() {
        final AtomicLong handled = new AtomicLong();
        final Disruptor<Slot> ring = ring((slot, sequence, endOfBatch) -> handled.incrementAndGet());
        for (int i = 0; i < 1_000; i++) {
            ring.publishEvent((slot, sequence) -> slot.value = sequence);
        }
        assertTrue(RingShutdown.drainOrHalt(ring, "test", stageThreads, 10_000, 5_000));
        assertEquals(1_000, handled.get(), "the drain handled every published event before the stage ended");
        assertFalse(stageThreads.get(0).isAlive());
    }

    @Test
    void stageStuckInABatchIsHaltedAndReportedStillRunningSoItsFilesStayOpen() throws InterruptedException {
        final CountDownLatch entered = new CountDownLatch(1);
        final Disruptor<Slot> ring = ring((slot, sequence, endOfBatch) -> {
            entered.countDown();
            release.await();
        });
        ring.publishEvent((slot, sequence) -> slot.value = sequence);
        assertTrue(entered.await(10, TimeUnit.SECONDS));

        assertFalse(RingShutdown.drainOrHalt(ring, "test", stageThreads, 200, 200),
                "a stage inside a write that does not return must not have its file closed under it");
        assertTrue(stageThreads.get(0).isAlive());

        release.countDown();
        stageThreads.get(0).join(10_000);
        assertFalse(stageThreads.get(0).isAlive(), "once out of its batch, the halted stage ends");
    }

    @Test
    void stageThatLeavesItsBatchAfterTheHaltIsJoined() throws InterruptedException {
        final CountDownLatch entered = new CountDownLatch(1);
        final AtomicLong handled = new AtomicLong();
        final Disruptor<Slot> ring = ring((slot, sequence, endOfBatch) -> {
            if (sequence == 0) {
                entered.countDown();
                release.await();
            }
            handled.incrementAndGet();
        });
        ring.publishEvent((slot, sequence) -> slot.value = sequence);
        assertTrue(entered.await(10, TimeUnit.SECONDS));
        for (int i = 0; i < 10; i++) {
            ring.publishEvent((slot, sequence) -> slot.value = sequence);
        }
        final Thread releaser = new Thread(() -> {
            try {
                Thread.sleep(500);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            release.countDown();
        });
        releaser.start();

        assertTrue(RingShutdown.drainOrHalt(ring, "test", stageThreads, 100, 10_000),
                "the stage left its batch within the join's time");
        assertFalse(stageThreads.get(0).isAlive());
        releaser.join();
        assertTrue(handled.get() >= 1 && handled.get() <= 11, "handled " + handled.get());
    }

    private Disruptor<Slot> ring(final EventHandler<Slot> handler) {
        final Disruptor<Slot> ring = new Disruptor<>(Slot::new, 64, runnable -> {
            final Thread thread = new Thread(runnable, "test-stage-" + stageThreads.size());
            stageThreads.add(thread);
            return thread;
        }, ProducerType.SINGLE, new BlockingWaitStrategy());
        ring.handleEventsWith(handler);
        ring.start();
        return ring;
    }
}
