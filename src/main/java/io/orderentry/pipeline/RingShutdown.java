package io.orderentry.pipeline;

import com.lmax.disruptor.TimeoutException;
import com.lmax.disruptor.dsl.Disruptor;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stops a ring at a graceful stop: drains it, or halts it when it does not drain in time, then waits for its stage
 * threads to end. Only when every one has ended may the files its stages write (journal, audit trail) be closed: a
 * halted stage may still be inside a batch, in a write or a force that has not returned, and closing the file under
 * it could cut a record in half. A stage thread that does not end is left to the process's exit, and the next start
 * recovers its files as after a crash.
 */
public final class RingShutdown {

    private static final Logger LOG = LoggerFactory.getLogger(RingShutdown.class);

    private RingShutdown() {
    }

    /**
     * @param name         the ring's name, for the log
     * @param stageThreads every thread the ring's stages run on
     * @param drainMillis  how long the ring may take to drain before it is halted
     * @param joinMillis   how long the stage threads may then take to end, all together
     * @return true if every stage thread has ended, so the files its stages write may be closed
     */
    public static boolean drainOrHalt(final Disruptor<?> ring, final String name, final List<Thread> stageThreads,
                                      final long drainMillis, final long joinMillis) {
        try {
            ring.shutdown(drainMillis, TimeUnit.MILLISECONDS);
        } catch (final TimeoutException e) {
            LOG.error("the {} ring did not drain in {} ms; halting it", name, drainMillis);
            ring.halt();
        }
        final long joinUntil = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(joinMillis);
        for (final Thread thread : stageThreads) {
            try {
                thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(joinUntil - System.nanoTime())));
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                LOG.error("interrupted while waiting for the {} ring's stages to end", name);
                return false;
            }
            if (thread.isAlive()) {
                LOG.error("{} did not end within {} ms of the {} ring's drain or halt", thread.getName(), joinMillis,
                        name);
                return false;
            }
        }
        return true;
    }
}
