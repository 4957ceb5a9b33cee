package io.orderentry.marketdata;

import io.orderentry.engine.OrderStatus;
import io.orderentry.pipeline.BatchStage;
import io.orderentry.pipeline.EngineEvent;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The market data consumer of the output ring. It keeps its own L2 book, trade history and ticker
 * per symbol, built only from engine events, and never reads the matcher:
 * <ul>
 *   <li>ORDER_UPDATED with status NEW or PARTIALLY_FILLED (the end of a place, or of an amend that moved the
 *       order): the order rests {@code remainingQuantity} at its price and side;</li>
 *   <li>TRADE: the maker's level (the side opposite {@code takerSide}) loses {@code quantity} at the
 *       trade price;</li>
 *   <li>ORDER_UPDATED with status CANCELED (a cancel, a cancel-all, self-trade prevention of a maker): its level
 *       loses {@code quantity - filledQuantity};</li>
 *   <li>ORDER_AMENDED that moved the order (a new price or a larger quantity: {@code keptPriority} false): the
 *       order leaves its level, which loses {@code previousQuantity - filledQuantity} at {@code previousPrice}; what
 *       it then trades as a taker takes from the makers' levels, and its ORDER_UPDATED rests what remains at its new
 *       price (or nothing, when it ended FILLED, EXPIRED or REJECTED), as at the end of a place;</li>
 *   <li>ORDER_AMENDED that kept the order's place (same price, a quantity not larger): its level loses
 *       {@code previousQuantity - quantity} at once and the ORDER_UPDATED that ends the amend changes nothing, so that
 *       a reduction is one change of one level, even when a batch ends between the two events, and an amend to the
 *       same terms is none;</li>
 *   <li>everything else leaves the book alone.</li>
 * </ul>
 * At the end of each batch it publishes the new immutable states to the {@link MarketDataView}, then
 * hands the updates some subscriber wants, in one list, to the stream's {@link StreamTarget}, which
 * encodes each once and has the event loops write them. It then waits (at most
 * {@code maxDeliveryWaitMillis}) until the loops have written that batch: the events that arrive meanwhile
 * form the next batch, so the number of stream messages follows what the fan-out can write, not the
 * order rate, and the subscribers' sockets never take more of the event loops than that. It runs in
 * parallel with the reply stage and gates nothing but the ring's wrap-around.
 *
 * <p>Restart: {@link #writeSnapshot} saves what the engine's events determine, and {@link #restoreSnapshot}
 * puts it into a fresh stage, which then follows every later event exactly as the original would: same books,
 * trades, ticker (24 h volume included), view and, for the same batches, the same stream updates. The channel
 * sequences are saved and continued although batching, not the journal, sets them, so that a restored stage's
 * snapshots and updates are numbered on from the original's; subscribers reconnect after a restart anyway.
 *
 * <p>Threads: {@link #apply} and {@link #endOfBatch} on its own consumer thread; {@link #register} once, before any event loop
 * accepts subscribers; {@link #restoreSnapshot} before the stage runs; {@link #writeSnapshot} on the consumer
 * thread between batches, or while the stage does not run.
 */
public final class MarketDataStage implements BatchStage<EngineEvent> {

    /** Version of the market data section of a snapshot, its first {@code int}. */
    public static final int SNAPSHOT_VERSION = 1;
    /** The section's last {@code int} ("MDEN"): a reader that gets here has read exactly what was written. */
    private static final int SNAPSHOT_END = 0x4D44454E;

    private final SymbolMarket[] markets;
    private final MarketDataView view;
    private final SubscriberCounts subscribers;
    private final int loops;
    private final long maxDeliveryWaitNanos;
    private volatile StreamTarget target;
    private List<StreamUpdate> pending = new ArrayList<>();
    private final int[] changed;
    private int changedCount;
    private long lastEventSequence;
    private long batchStartNanos;
    /** The order an ORDER_AMENDED just reduced in place: the ORDER_UPDATED that ends that amend adds nothing. */
    private long amendedInPlace;

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
        this.loops = loops;
        this.maxDeliveryWaitNanos = TimeUnit.MILLISECONDS.toNanos(config.maxDeliveryWaitMillis());
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

    /** Registers the stream's fan-out; must happen before any event loop counts a subscriber. */
    public void register(final StreamTarget target) {
        this.target = target;
    }

    /**
     * Writes the state the engine's events determine. Call on the stage's thread between batches, or when it
     * does not run.
     *
     * <p>Format (big-endian, {@link DataOutput}): {@code int} version ({@link #SNAPSHOT_VERSION}), {@code long}
     * last engine event sequence applied, {@code int} symbol count, then per symbol in index order its book (both
     * sides, every level), kept trades, ticker, 24 h volume buckets and the book, trades and ticker channel
     * sequences (see {@link SymbolMarket#writeSnapshot}), and an end marker {@code int}. Every list is preceded by
     * its count. About 16 bytes per book level and 33 per trade; nothing but the output allocates.
     *
     * @throws IllegalStateException if called in the middle of a batch
     */
    public void writeSnapshot(final DataOutput out) throws IOException {
        if (changedCount != 0 || amendedInPlace != 0) {
            throw new IllegalStateException("market data snapshot in the middle of a batch or of an amend");
        }
        out.writeInt(SNAPSHOT_VERSION);
        out.writeLong(lastEventSequence);
        out.writeInt(markets.length);
        for (final SymbolMarket market : markets) {
            market.writeSnapshot(out);
        }
        out.writeInt(SNAPSHOT_END);
    }

    /**
     * Restores a state written by writeSnapshot into this freshly constructed stage (nothing applied yet), before
     * it runs, and publishes it to its MarketDataView so REST readers see it at once. Every channel of every
     * restored symbol continues from the snapshot's sequence, so a subscriber's snapshot and the updates after
     * it are consecutive. The view is published only once everything was read; after an exception this stage
     * is part restored and must be discarded.
     *
     * @throws IOException on a malformed or truncated input, or a snapshot for a different number of symbols than
     *         this stage has, when that cannot be handled (a snapshot with fewer symbols than configured is fine: new
     *         instruments start empty)
     * @throws IllegalStateException if this stage has applied events or restored a state already
     */
    public void restoreSnapshot(final DataInput in) throws IOException {
        if (lastEventSequence != 0 || changedCount != 0) {
            throw new IllegalStateException("market data can only be restored into a fresh stage");
        }
        for (final SymbolMarket market : markets) {
            if (!market.pristine()) {
                throw new IllegalStateException("market data can only be restored into a fresh stage");
            }
        }
        final int version = in.readInt();
        if (version != SNAPSHOT_VERSION) {
            throw new IOException("market data snapshot version " + version + ", this build reads version "
                    + SNAPSHOT_VERSION);
        }
        final long lastEvent = in.readLong();
        if (lastEvent < 0) {
            throw new IOException("market data snapshot last event sequence " + lastEvent + " is negative");
        }
        final int symbols = in.readInt();
        if (symbols < 0 || symbols > markets.length) {
            throw new IOException("market data snapshot holds " + symbols + " symbols but this stage has "
                    + markets.length + "; a snapshot may hold fewer (new instruments start empty), never more");
        }
        for (int symbol = 0; symbol < symbols; symbol++) {
            markets[symbol].restoreSnapshot(in);
        }
        final int end = in.readInt();
        if (end != SNAPSHOT_END) {
            throw new IOException("market data snapshot does not end after its " + symbols
                    + " symbols: found 0x" + Integer.toHexString(end) + " instead of the end marker");
        }
        for (int symbol = 0; symbol < symbols; symbol++) {
            final SymbolMarket market = markets[symbol];
            view.publish(symbol, market.book(), market.history(), market.ticker());
        }
        lastEventSequence = lastEvent;
        view.lastEventSequence(lastEvent);
    }

    @Override
    public void apply(final EngineEvent event, final long sequence) {
        if (batchStartNanos == 0) {
            batchStartNanos = System.nanoTime();
        }
        switch (event.type) {
            case TRADE -> market(event.symbol).trade(new Trade(event.tradeId, event.price, event.quantity,
                    event.takerSide, event.timestampMicros));
            case ORDER_UPDATED -> updated(event);
            case ORDER_AMENDED -> amended(event);
            case ORDER_ACCEPTED, BALANCE_CHANGED, COMMAND_COMPLETED, REQUEST_REJECTED, REPLAY_COMPLETED, TICK -> {
                // an accepted order rests, if at all, only at its ORDER_UPDATED; the others carry no market data
            }
            default -> throw new IllegalStateException("unknown event type " + event.type);
        }
        if (event.type.isSequenced()) {
            lastEventSequence = event.eventSequence;
        }
    }

    private void amended(final EngineEvent e) {
        if (e.keptPriority) {
            final long less = e.previousQuantity - e.quantity;
            if (less > 0) {
                market(e.symbol).remove(e.side, e.price, less);
            }
            amendedInPlace = e.orderId;
        } else {
            market(e.symbol).remove(e.side, e.previousPrice, e.previousQuantity - e.filledQuantity);
        }
    }

    private void updated(final EngineEvent e) {
        if (e.orderId == amendedInPlace) {
            amendedInPlace = 0;     // the end of an amend in place: its level already has the order's new remainder
            return;
        }
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

    /** Publishes the batch's states to the view and hands the stream its updates. */
    @Override
    public void endOfBatch() {
        for (int i = 0; i < changedCount; i++) {
            final SymbolMarket market = markets[changed[i]];
            market.flush();
            view.publish(changed[i], market.book(), market.history(), market.ticker());
            offer(market.bookUpdate());
            offer(market.tradeBatch());
            offer(market.tickerUpdate());
        }
        changedCount = 0;
        final long started = batchStartNanos;
        batchStartNanos = 0;
        if (pending.isEmpty()) {
            view.lastEventSequence(lastEventSequence);
            return;
        }
        final StreamTarget fanOut = target;
        if (fanOut == null) {
            throw new IllegalStateException("stream updates but no fan-out registered");
        }
        final List<StreamUpdate> updates = pending;
        pending = new ArrayList<>();
        fanOut.deliver(updates, started);
        // Published after the hand-off, so whoever sees this sequence also finds its updates with the stream,
        // and before the wait, so the REST view does not lag behind the subscribers' sockets.
        view.lastEventSequence(lastEventSequence);
        // Natural batching: while the event loops write this batch to their subscribers, events pile up
        // in the ring, and the next batch carries them all in one update per channel instead of many.
        fanOut.awaitDelivered(maxDeliveryWaitNanos);
    }

    /** Queues an update if any event loop has subscribers to it; read after the state was published. */
    private void offer(final StreamUpdate update) {
        if (update == null) {
            return;
        }
        for (int loop = 0; loop < loops; loop++) {
            if (subscribers.get(loop, update.symbol(), update.channel()) > 0) {
                pending.add(update);
                return;
            }
        }
    }
}
