package io.orderentry.pipeline;

import java.util.List;

/**
 * Several stages that must run one after another, on one thread: each event goes through every part in order,
 * and at the end of each batch every part ends its batch, in the same order. A later part therefore sees the
 * effects of the earlier ones on the same event (the order view before the answer that reads it), and ends its
 * batch only after the earlier ones have ended theirs (answers only after the audit records are written).
 *
 * <p>This replaces one thread per stage and a wake-up per stage per batch: on a machine with fewer cores than
 * threads, a hand-off between two threads costs more than the work of most stages (measured in
 * {@code bench/stages.sh}).
 *
 * <p>Threads: every part runs on the thread of this stage.
 *
 * @param <T> the ring's event type
 */
public final class Sequential<T> implements BatchStage<T> {

    private final BatchStage<T>[] parts;

    /** @param parts the stages, in the order each event and each end of batch goes through them */
    @SafeVarargs
    public Sequential(final BatchStage<T>... parts) {
        if (parts.length == 0) {
            throw new IllegalArgumentException("a sequential stage needs at least one part");
        }
        this.parts = parts.clone();
    }

    @Override
    public void apply(final T event, final long sequence) {
        for (final BatchStage<T> part : parts) {
            part.apply(event, sequence);
        }
    }

    @Override
    public void endOfBatch() {
        for (final BatchStage<T> part : parts) {
            part.endOfBatch();
        }
    }

    @Override
    public void onStart() {
        for (final BatchStage<T> part : parts) {
            part.onStart();
        }
    }

    @Override
    public void onShutdown() {
        for (final BatchStage<T> part : parts) {
            part.onShutdown();
        }
    }

    /** @return the parts, in order */
    public List<BatchStage<T>> parts() {
        return List.of(parts);
    }
}
