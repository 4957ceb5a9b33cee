package io.orderentry.pipeline;

import com.lmax.disruptor.EventHandler;

/**
 * A stage of a ring whose work is split in two: {@link #apply} for each event, {@link #endOfBatch} once after the
 * last event of every batch. A stage that buffers (a file write, answers for an event loop) does its flush in
 * {@link #endOfBatch}, which is called whatever the type of the batch's last event: no early return in
 * {@link #apply} can skip it.
 *
 * <p>Several such stages whose work runs strictly one after another share one thread through {@link Sequential}.
 *
 * <p>Implementations must not override {@link #onEvent}.
 *
 * @param <T> the ring's event type
 */
public interface BatchStage<T> extends EventHandler<T> {

    /** Handles one event; called on the stage's thread, in ring order. */
    void apply(T event, long sequence);

    /** Completes the batch whose last event was just applied: flushes what {@link #apply} buffered. */
    void endOfBatch();

    /** Applies the event, then, after the last event of a batch, always ends the batch. */
    @Override
    default void onEvent(final T event, final long sequence, final boolean endOfBatch) {
        apply(event, sequence);
        if (endOfBatch) {
            endOfBatch();
        }
    }
}
