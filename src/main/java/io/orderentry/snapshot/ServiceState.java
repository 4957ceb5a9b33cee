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

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ServiceState.class);

    @Override
    public void write(final DataOutput out) throws IOException {
        matcher.writeSnapshot(out);
        view.writeSnapshot(out);
        marketData.writeSnapshot(out);
    }

    @Override
    public void restore(final DataInput in) throws IOException {
        final long started = System.nanoTime();
        matcher.restoreSnapshot(in);
        final long engine = System.nanoTime();
        view.restoreSnapshot(in);
        view.restoreDedupWindow(matcher.rememberedOrderIds());   // not in the view's part: the engine's is the truth
        final long sequence = matcher.lastEventSequence();
        matcher.forEachBalance((account, asset, available, held) ->   // nor are the balances
                view.balances().restore(account, asset, available, held, sequence));
        final long orders = System.nanoTime();
        marketData.restoreSnapshot(in);
        LOG.info("snapshot: restored the engine ({} resting orders) in {} ms, the order view ({} orders) in {} ms, the"
                + " market data in {} ms", matcher.restingOrderCount(), (engine - started) / 1_000_000, view.size(),
                (orders - engine) / 1_000_000, (System.nanoTime() - orders) / 1_000_000);
    }
}
