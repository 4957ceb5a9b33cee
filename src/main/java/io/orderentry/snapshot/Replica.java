package io.orderentry.snapshot;

import io.orderentry.engine.EngineConfig;
import io.orderentry.engine.Matcher;
import io.orderentry.journal.RecordConsumer;
import io.orderentry.marketdata.MarketDataConfig;
import io.orderentry.marketdata.MarketDataStage;
import io.orderentry.pipeline.EngineEvent;
import io.orderentry.pipeline.EventOutput;
import io.orderentry.pipeline.MatcherMetrics;
import io.orderentry.pipeline.MatcherStage;
import io.orderentry.pipeline.OrderCommand;
import io.orderentry.query.OrderStateView;

/**
 * A second copy of the service's state, kept by the snapshot writer's thread from the journal: journal records go
 * through a {@link Matcher} of its own, and each event it emits is applied at once to its own order view and market
 * data, as the output ring's consumers apply them in the service. Determinism makes it equal to the live state at
 * the same journal sequence, so a snapshot of it never stops the live engine.
 *
 * <p>Not thread safe: owned by the snapshot writer's thread.
 */
final class Replica implements EventOutput, RecordConsumer {

    private final OrderStateView view;
    private final MarketDataStage marketData;
    private final MatcherStage matcherStage;
    private final EngineEvent event = new EngineEvent();
    private long slot;
    private boolean pending;

    Replica(final int symbols, final EngineConfig limits, final int retainedFinalOrders,
            final MarketDataConfig marketDataConfig) {
        this.view = new OrderStateView(retainedFinalOrders, limits.dedupWindow());
        this.marketData = new MarketDataStage(symbols, 1, marketDataConfig);
        this.matcherStage = new MatcherStage(sink -> new Matcher(symbols, limits, sink), this, new MatcherMetrics());
    }

    /** Reserves the replica's engine storage as the live engine's is ({@code Matcher#reserveStorage}). */
    void reserveStorage() {
        matcherStage.matcher().reserveStorage();
    }

    /** @return the state, for writing or restoring a snapshot (call {@link #endOfBatch} first when writing) */
    ServiceState state() {
        return new ServiceState(matcherStage.matcher(), view, marketData);
    }

    @Override
    public void onRecord(final OrderCommand command) {
        matcherStage.replay(command);
    }

    /** Ends the batch of events applied since the last call, as the output ring's consumers do at a batch's end. */
    void endOfBatch() {
        if (pending) {
            view.endOfBatch();
            marketData.endOfBatch();
            pending = false;
        }
    }

    @Override
    public long next() {
        return ++slot;
    }

    @Override
    public EngineEvent get(final long sequence) {
        return event;
    }

    @Override
    public void publish(final long sequence) {
        view.apply(event, sequence);
        marketData.apply(event, sequence);
        pending = true;
    }
}
