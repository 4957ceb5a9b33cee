package io.orderentry.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.lmax.disruptor.EventHandler;
import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.dsl.Disruptor;
import com.lmax.disruptor.dsl.ProducerType;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

class StageWaitStrategyTest {

    /** A ring slot: the upstream stage marks it, the downstream stage checks the mark. */
    static final class Slot {
        long value;
        volatile boolean upstreamDone;
    }

    private static final int EVENTS = 20_000;
    private static final Duration LIVENESS = Duration.ofSeconds(60);

    @Test
    void downstreamStageSeesEveryEventOnlyAfterTheSignallingUpstreamStageProcessedIt() {
        assertTimeoutPreemptively(LIVENESS, () -> runPipeline(true));
    }

    @Test
    void anUpstreamStageThatDoesNotSignalDelaysItsDependentsButNeverStallsThem() {
        assertTimeoutPreemptively(LIVENESS, () -> runPipeline(false));
    }

    @Test
    void haltingTheRingWakesAStageBlockedOnItsUpstream() throws Exception {
        final StageWaitStrategy strategy = new StageWaitStrategy();
        final Disruptor<Slot> disruptor = new Disruptor<>(Slot::new, 64, Thread::new, ProducerType.SINGLE, strategy);
        final CountDownLatch upstreamEntered = new CountDownLatch(1);
        final CountDownLatch releaseUpstream = new CountDownLatch(1);
        final AtomicLong downstreamSeen = new AtomicLong();
        final EventHandler<Slot> upstream = (slot, sequence, end) -> {
            upstreamEntered.countDown();
            releaseUpstream.await();
        };
        disruptor.handleEventsWith(strategy.signalling(upstream))
                .then((slot, sequence, end) -> downstreamSeen.incrementAndGet());
        disruptor.start().publishEvent((slot, sequence) -> slot.value = 1);
        assertTrue(upstreamEntered.await(30, TimeUnit.SECONDS));
        assertTimeoutPreemptively(LIVENESS, () -> {
            releaseUpstream.countDown();
            disruptor.halt();
        });
        assertTrue(downstreamSeen.get() <= 1, "the downstream stage saw at most the one event");
    }

    private static void runPipeline(final boolean signal) throws Exception {
        final StageWaitStrategy strategy = new StageWaitStrategy();
        final Disruptor<Slot> disruptor = new Disruptor<>(Slot::new, 1024, Thread::new, ProducerType.MULTI, strategy);
        final AtomicLong outOfOrder = new AtomicLong();
        final AtomicLong sum = new AtomicLong();
        final CountDownLatch done = new CountDownLatch(EVENTS);
        final EventHandler<Slot> upstream = (slot, sequence, end) -> {
            if (sequence % 512 == 0) {
                LockSupport.parkNanos(200_000); // an fsync's worth of work now and then
            }
            slot.upstreamDone = true;
        };
        disruptor.handleEventsWith(signal ? strategy.signalling(upstream) : upstream)
                .then((slot, sequence, end) -> {
                    if (!slot.upstreamDone) {
                        outOfOrder.incrementAndGet();
                    }
                    slot.upstreamDone = false;
                    sum.addAndGet(slot.value);
                    done.countDown();
                });
        final RingBuffer<Slot> ring = disruptor.start();
        for (int i = 1; i <= EVENTS; i++) {
            final long value = i;
            ring.publishEvent((slot, sequence) -> slot.value = value);
        }
        done.await();
        disruptor.shutdown();
        assertEquals(0, outOfOrder.get(), "events the downstream stage saw before the upstream stage");
        assertEquals((long) EVENTS * (EVENTS + 1) / 2, sum.get());
    }
}
