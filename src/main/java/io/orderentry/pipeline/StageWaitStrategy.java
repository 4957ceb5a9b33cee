package io.orderentry.pipeline;

import com.lmax.disruptor.AlertException;
import com.lmax.disruptor.EventHandler;
import com.lmax.disruptor.Sequence;
import com.lmax.disruptor.SequenceBarrier;
import com.lmax.disruptor.WaitStrategy;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A blocking wait strategy that also blocks while a stage waits for the stage before it, not only for the publisher.
 *
 * <p>Disruptor's {@code BlockingWaitStrategy} blocks until the ring's cursor reaches the wanted sequence, but then
 * busy-spins until the upstream stages it depends on have processed it. Here the matcher depends on the journal and
 * the reply stage on the order view and the audit trail, so with that strategy the matcher spun for the whole of every
 * fsync and the reply stage for every audit write: on a two-core machine two spinning threads took the CPU the event
 * loops needed (measured: a profile of the service under wrk showed most stage samples in that spin).
 *
 * <p>This strategy spins briefly on the upstream stage (it is usually just about done), then blocks. The two kinds of
 * wait block on different conditions: a first stage (its dependent sequence is the ring's cursor) is woken by the
 * publishers, a later stage only by the end of a batch of an upstream stage wrapped with {@link #signalling}. With one
 * condition for both, every publish woke the matcher while it waited for the journal's fsync, to find the journal
 * not done and sleep again (measured: the matcher woke 0.34-0.36 times per order against the journal's 0.26-0.29
 * batches). A later stage's wait is bounded at {@value #MAX_WAIT_MICROS} µs, so that an upstream stage that does not
 * signal can only delay it, never stall it, and a halted ring's alert reaches it within that bound.
 *
 * <p>Threads: any producer signals; each consumer thread waits on its own barrier.
 */
public final class StageWaitStrategy implements WaitStrategy {

    static final int SPINS = 200;
    static final long MAX_WAIT_MICROS = 1000;

    private final ReentrantLock lock = new ReentrantLock();
    /** What first stages wait on: signalled by the publishers. */
    private final Condition published = lock.newCondition();
    /** What later stages wait on: signalled by the upstream stages at the end of their batches. */
    private final Condition stageDone = lock.newCondition();
    /** Threads waiting for the publishers; a publisher takes the lock to signal only when there is one. */
    private final AtomicInteger publisherWaiters = new AtomicInteger();
    /** Threads waiting for an upstream stage; that stage takes the lock to signal only when there is one. */
    private final AtomicInteger stageWaiters = new AtomicInteger();

    @Override
    public long waitFor(final long sequence, final Sequence cursor, final Sequence dependentSequence,
                        final SequenceBarrier barrier) throws AlertException, InterruptedException {
        if (dependentSequence == cursor) {
            if (cursor.get() < sequence) {
                lock.lock();
                publisherWaiters.incrementAndGet();
                try {
                    while (cursor.get() < sequence) {
                        barrier.checkAlert();
                        published.await();
                    }
                } finally {
                    publisherWaiters.decrementAndGet();
                    lock.unlock();
                }
            }
            return cursor.get();
        }
        long available;
        int spins = 0;
        while ((available = dependentSequence.get()) < sequence) {
            barrier.checkAlert();
            if (spins < SPINS) {
                spins++;
                Thread.onSpinWait();
                continue;
            }
            lock.lock();
            stageWaiters.incrementAndGet();
            try {
                if (dependentSequence.get() < sequence) {
                    barrier.checkAlert();
                    stageDone.await(MAX_WAIT_MICROS, TimeUnit.MICROSECONDS);
                }
            } finally {
                stageWaiters.decrementAndGet();
                lock.unlock();
            }
        }
        return available;
    }

    /**
     * Wakes the stages waiting for the publishers (a publish, or an alert when the ring halts); costs one volatile
     * read when none waits. A waiter registers (a volatile increment) before it reads the sequence it waits for, and a
     * producer advances that sequence (a CAS on the cursor) before it reads the count here: either the waiter sees the
     * new sequence or the producer sees the waiter, so no wake-up is lost. Stages waiting for an upstream stage are
     * woken by that stage ({@link #signalling}), or by their bounded wait.
     */
    @Override
    public void signalAllWhenBlocking() {
        signal(publisherWaiters, published);
    }

    /** Wakes the stages waiting for an upstream stage, which has just published its sequence ({@link #signalling}). */
    private void signalStageDone() {
        signal(stageWaiters, stageDone);
    }

    private void signal(final AtomicInteger waiters, final Condition condition) {
        if (waiters.get() == 0) {
            return;
        }
        lock.lock();
        try {
            condition.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Wraps a stage that others on the same ring depend on, so that at the end of each of its batches it publishes
     * its sequence and wakes the stages waiting for it.
     *
     * @param handler the upstream stage
     * @param <T>     the ring's event type
     * @return a handler to register on the ring in place of {@code handler}
     */
    public <T> EventHandler<T> signalling(final EventHandler<T> handler) {
        return new Signalling<>(handler, this);
    }

    private static final class Signalling<T> implements EventHandler<T> {

        private final EventHandler<T> handler;
        private final StageWaitStrategy strategy;
        private Sequence sequence;

        Signalling(final EventHandler<T> handler, final StageWaitStrategy strategy) {
            this.handler = handler;
            this.strategy = strategy;
        }

        @Override
        public void onEvent(final T event, final long eventSequence, final boolean endOfBatch) throws Exception {
            handler.onEvent(event, eventSequence, endOfBatch);
            if (endOfBatch) {
                sequence.setVolatile(eventSequence);
                strategy.signalStageDone();
            }
        }

        @Override
        public void setSequenceCallback(final Sequence sequenceCallback) {
            this.sequence = sequenceCallback;
            handler.setSequenceCallback(sequenceCallback);
        }

        @Override
        public void onBatchStart(final long batchSize, final long queueDepth) {
            handler.onBatchStart(batchSize, queueDepth);
        }

        @Override
        public void onStart() {
            handler.onStart();
        }

        @Override
        public void onShutdown() {
            handler.onShutdown();
        }

        @Override
        public void onTimeout(final long timeoutSequence) throws Exception {
            handler.onTimeout(timeoutSequence);
        }

        @Override
        public String toString() {
            return handler.toString();
        }
    }
}
