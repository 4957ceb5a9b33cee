package io.orderentry.pipeline;

import com.lmax.disruptor.EventHandler;
import com.lmax.disruptor.Sequence;

/**
 * Runs a stage under a thread name of its own, so that profilers, {@code top -H}, {@code /proc} and the per-thread
 * figures of {@code /metrics} show which stage a thread is. Linux keeps the first 15 characters of the name.
 *
 * <p>Threads: {@link #onStart} renames the stage's thread before the stage's own {@code onStart}; everything else
 * is passed through unchanged.
 *
 * @param <T> the ring's event type
 */
public final class NamedStage<T> implements EventHandler<T> {

    private final String name;
    private final EventHandler<T> stage;

    /**
     * @param name  the thread's name, at most 15 characters so that it survives intact in the OS
     * @param stage the stage to run
     */
    public NamedStage(final String name, final EventHandler<T> stage) {
        if (name.isEmpty() || name.length() > 15) {
            throw new IllegalArgumentException("a stage thread name must have 1 to 15 characters: " + name);
        }
        this.name = name;
        this.stage = stage;
    }

    @Override
    public void onStart() {
        Thread.currentThread().setName(name);
        stage.onStart();
    }

    @Override
    public void onEvent(final T event, final long sequence, final boolean endOfBatch) throws Exception {
        stage.onEvent(event, sequence, endOfBatch);
    }

    @Override
    public void onBatchStart(final long batchSize, final long queueDepth) {
        stage.onBatchStart(batchSize, queueDepth);
    }

    @Override
    public void setSequenceCallback(final Sequence sequenceCallback) {
        stage.setSequenceCallback(sequenceCallback);
    }

    @Override
    public void onShutdown() {
        stage.onShutdown();
    }

    @Override
    public void onTimeout(final long sequence) throws Exception {
        stage.onTimeout(sequence);
    }

    @Override
    public String toString() {
        return name;
    }
}
