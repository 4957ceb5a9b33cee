package io.orderentry.query;

import io.orderentry.pipeline.BatchStage;
import io.orderentry.pipeline.EngineEvent;

/**
 * The output ring's stage that keeps the {@link OrderStateView} up to date: the first part of the order stage
 * ({@code oe-orders}), so that the audit trail, the replies and the account feeds after it see each event's order
 * state. The view itself is the state the event loops read; a snapshot replica applies events to its own view
 * without a ring.
 *
 * <p>Threads: the order stage's thread, the view's only writer.
 */
public final class OrderViewStage implements BatchStage<EngineEvent> {

    private final OrderStateView view;

    public OrderViewStage(final OrderStateView view) {
        this.view = view;
    }

    @Override
    public void apply(final EngineEvent event, final long sequence) {
        view.apply(event, sequence);
    }

    @Override
    public void endOfBatch() {
        view.endOfBatch();
    }
}
