package io.orderentry.marketdata;

import com.lmax.disruptor.EventHandler;
import io.orderentry.engine.OrderStatus;
import io.orderentry.pipeline.EngineEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The market data consumer of the output ring. It keeps its own L2 book, trade history and ticker
 * per symbol, built only from engine events, and never reads the matcher:
 * <ul>
 *   <li>ORDER_UPDATED with status NEW or PARTIALLY_FILLED (the end of a place): the order rests
 *       {@code remainingQuantity} at its price and side;</li>
 *   <li>TRADE: the maker's level (the side opposite {@code takerSide}) loses {@code quantity} at the
 *       trade price;</li>
 *   <li>ORDER_UPDATED with status CANCELED: its level loses {@code quantity - filledQuantity};</li>
 *   <li>everything else leaves the book alone.</li>
 * </ul>
 * At the end of each batch it publishes the new immutable states to the {@link MarketDataView}, then
 * hands each event loop the updates its subscribers want, in one list, through its
 * {@link StreamTarget}. It runs in parallel with the reply stage and gates nothing but the ring's
 * wrap-around; nothing it does blocks.
 *
 * <p>Threads: {@link #onEvent} on its own consumer thread; {@link #register} on each event loop
 * before that loop accepts subscribers.
 */
public final class MarketDataStage implements EventHandler<EngineEvent> {

    private final SymbolMarket[] markets;
    private final MarketDataView view;
    private final SubscriberCounts subscribers;
    private final AtomicReferenceArray<StreamTarget> targets;
    private final List<List<StreamUpdate>> pending;
    private final int[] changed;
    private int changedCount;
    private long lastEventSequence;

    /**
     * @param symbols instruments, indexed from 0 as in the engine
     * @param loops   event loops that may register a target, indexed from 0
     */
    public MarketDataStage(final int symbols, final int loops, final MarketDataConfig config) {
        this.markets = new SymbolMarket[symbols];
        for (int symbol = 0; symbol < symbols; symbol++) {
            markets[symbol] = new SymbolMarket(symbol, config.tradesHistory());
        }
        this.view = new MarketDataView(symbols, config.tradesHistory(), config.snapshotMillis());
        this.subscribers = new SubscriberCounts(loops, symbols);
        this.targets = new AtomicReferenceArray<>(loops);
        this.pending = new ArrayList<>(loops);
        for (int loop = 0; loop < loops; loop++) {
            pending.add(new ArrayList<>());
        }
        this.changed = new int[symbols];
    }

    /** @return the published states, for readers on any thread */
    public MarketDataView view() {
        return view;
    }

    /** @return the per-loop subscriber counts the event loops keep up to date */
    public SubscriberCounts subscribers() {
        return subscribers;
    }

    /** Registers the target of event loop {@code loop}; must happen before that loop counts a subscriber. */
    public void register(final int loop, final StreamTarget target) {
        targets.set(loop, target);
    }

    @Override
    public void onEvent(final EngineEvent event, final long sequence, final boolean endOfBatch) {
        switch (event.type) {
            case TRADE -> market(event.symbol).trade(new Trade(event.tradeId, event.price, event.quantity,
                    event.takerSide, event.timestampMicros));
            case ORDER_UPDATED -> updated(event);
            case ORDER_ACCEPTED, COMMAND_COMPLETED, REQUEST_REJECTED, REPLAY_COMPLETED -> {
                // an accepted order rests, if at all, only at its ORDER_UPDATED; the others carry no market data
            }
            default -> throw new IllegalStateException("unknown event type " + event.type);
        }
        if (event.type.isSequenced()) {
            lastEventSequence = event.eventSequence;
        }
        if (endOfBatch) {
            flush();
        }
    }

    private void updated(final EngineEvent e) {
        if (e.status == OrderStatus.NEW || e.status == OrderStatus.PARTIALLY_FILLED) {
            market(e.symbol).rest(e.side, e.price, e.remainingQuantity);
        } else if (e.status == OrderStatus.CANCELED) {
            market(e.symbol).remove(e.side, e.price, e.quantity - e.filledQuantity);
        }
    }

    /** @return the symbol's state, noting it as changed in this batch */
    private SymbolMarket market(final int symbol) {
        final SymbolMarket market = markets[symbol];
        if (!market.changed()) {
            changed[changedCount++] = symbol;
        }
        return market;
    }

    private void flush() {
        for (int i = 0; i < changedCount; i++) {
            final SymbolMarket market = markets[changed[i]];
            market.flush();
            view.publish(changed[i], market.book(), market.history(), market.ticker());
            offer(market.bookUpdate());
            offer(market.tradeBatch());
            offer(market.tickerUpdate());
        }
        changedCount = 0;
        for (int loop = 0; loop < pending.size(); loop++) {
            final List<StreamUpdate> updates = pending.get(loop);
            if (!updates.isEmpty()) {
                final StreamTarget target = targets.get(loop);
                if (target == null) {
                    throw new IllegalStateException("stream updates for loop " + loop + " which never registered");
                }
                target.deliver(updates);
                pending.set(loop, new ArrayList<>());
            }
        }
        view.lastEventSequence(lastEventSequence);
    }

    /** Queues an update for every loop that has subscribers to it; read after the state was published. */
    private void offer(final StreamUpdate update) {
        if (update == null) {
            return;
        }
        for (int loop = 0; loop < pending.size(); loop++) {
            if (subscribers.get(loop, update.symbol(), update.channel()) > 0) {
                pending.get(loop).add(update);
            }
        }
    }
}
