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
 * <p>This strategy spins briefly on the upstream stage (it is usually just about done), then waits on the same
 * condition as for the publisher. An upstream stage wrapped with {@link #signalling} sets its sequence at the end
 * of each batch and then signals, so the wait ends as soon as the work is there. A wait is bounded at
 * {@value #MAX_WAIT_MICROS} µs so that an upstream stage that does not signal can only delay, never stall.
 *
 * <p>Threads: any producer signals; each consumer thread waits on its own barrier.
 */
public final class StageWaitStrategy implements WaitStrategy {

    static final int SPINS = 200;
    static final long MAX_WAIT_MICROS = 1000;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition advanced = lock.newCondition();
    /** Threads inside a wait; a producer takes the lock to signal only when there is one. */
    private final AtomicInteger waiters = new AtomicInteger();

    @Override
    public long waitFor(final long sequence, final Sequence cursor, final Sequence dependentSequence,
                        final SequenceBarrier barrier) throws AlertException, InterruptedException {
        if (cursor.get() < sequence) {
            lock.lock();
            waiters.incrementAndGet();
            try {
                while (cursor.get() < sequence) {
                    barrier.checkAlert();
                    advanced.await();
                }
            } finally {
                waiters.decrementAndGet();
                lock.unlock();
            }
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
            waiters.incrementAndGet();
            try {
                if (dependentSequence.get() < sequence) {
                    barrier.checkAlert();
                    advanced.await(MAX_WAIT_MICROS, TimeUnit.MICROSECONDS);
                }
            } finally {
                waiters.decrementAndGet();
                lock.unlock();
            }
        }
        return available;
    }

    /**
     * Wakes the waiting consumers; costs one volatile read when none waits. A waiter registers (a volatile
     * increment) before it reads the sequence it waits for, and a producer advances that sequence (a CAS on the
     * cursor, or {@link Sequence#setVolatile} for a signalling stage) before it reads the count here: either the
     * waiter sees the new sequence or the producer sees the waiter, so no wake-up is lost.
     */
    @Override
    public void signalAllWhenBlocking() {
        if (waiters.get() == 0) {
            return;
        }
        lock.lock();
        try {
            advanced.signalAll();
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
                strategy.signalAllWhenBlocking();
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
