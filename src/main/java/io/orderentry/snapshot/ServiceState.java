package io.orderentry.snapshot;

import io.orderentry.engine.Matcher;
import io.orderentry.marketdata.MarketDataStage;
import io.orderentry.query.OrderStateView;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * Every piece of state the journal determines, as a snapshot holds it: the engine (books, ids, dedup window), the
 * order view (open and retained orders) and the market data (books, recent trades, ticker), in that order.
 */
public record ServiceState(Matcher matcher, OrderStateView view, MarketDataStage marketData) implements SnapshotState {

    @Override
    public void write(final DataOutput out) throws IOException {
        matcher.writeSnapshot(out);
        view.writeSnapshot(out);
        marketData.writeSnapshot(out);
    }

    @Override
    public void restore(final DataInput in) throws IOException {
        matcher.restoreSnapshot(in);
        view.restoreSnapshot(in);
        marketData.restoreSnapshot(in);
    }
}
