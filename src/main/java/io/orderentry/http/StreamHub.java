package io.orderentry.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.orderentry.app.Instrument;
import io.orderentry.journal.WallClock;
import io.orderentry.marketdata.BookSnapshot;
import io.orderentry.marketdata.BookUpdate;
import io.orderentry.marketdata.Channel;
import io.orderentry.marketdata.MarketDataConfig;
import io.orderentry.marketdata.MarketDataView;
import io.orderentry.marketdata.StreamTarget;
import io.orderentry.marketdata.StreamUpdate;
import io.orderentry.marketdata.SubscriberCounts;
import io.orderentry.marketdata.Ticker;
import io.orderentry.marketdata.TradeBatch;
import io.orderentry.marketdata.TradeHistory;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.ServerWebSocket;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;

/**
 * The stream sessions of one event loop. The market data consumer hands it each batch's updates
 * through {@link #deliver}; it renders each update once and passes it to that loop's subscribers.
 * It answers subscribe and unsubscribe requests with snapshots from the {@link MarketDataView}, and
 * runs the heartbeat and slow-client timer.
 *
 * <p>Hand-over bound: at most {@link #MAX_QUEUED_BATCHES} batches wait for this loop. If the loop
 * falls further behind, the consumer's next batches are dropped and the loop, when it catches up,
 * sends every session fresh snapshots (which include the dropped updates) before going on.
 *
 * <p>Threads: {@link #deliver} on the market data consumer thread (it only hops onto the loop);
 * everything else on this hub's event loop.
 */
final class StreamHub implements StreamTarget {

    /** Trades a trades snapshot carries, newest first. */
    static final int TRADES_IN_SNAPSHOT = 100;
    /** Batches that may wait for this loop before the consumer drops them. */
    static final int MAX_QUEUED_BATCHES = 4096;

    private final int loop;
    private final Vertx vertx;
    private final Context context;
    private final MarketDataAccess access;
    private final MarketDataView view;
    private final SubscriberCounts counts;
    private final MarketDataJson json;
    private final ObjectMapper mapper;
    private final Map<String, Instrument> instruments;
    private final Logger log;
    private final List<List<StreamSession>> subscribers;
    private final Set<StreamSession> sessions = new LinkedHashSet<>();
    private final String[] snapshotText;
    private final long[] snapshotSequence;
    private final long slowClientNanos;
    private final AtomicInteger queuedBatches = new AtomicInteger();
    private final AtomicBoolean overrun = new AtomicBoolean();

    StreamHub(final int loop, final Vertx vertx, final Context context, final MarketDataAccess access,
              final MarketDataJson json, final ObjectMapper mapper, final Map<String, Instrument> instruments,
              final Logger log) {
        this.loop = loop;
        this.vertx = vertx;
        this.context = context;
        this.access = access;
        this.view = access.stage().view();
        this.counts = access.stage().subscribers();
        this.json = json;
        this.mapper = mapper;
        this.instruments = instruments;
        this.log = log;
        final int slots = view.symbols() * Channel.COUNT;
        this.subscribers = new ArrayList<>(slots);
        for (int slot = 0; slot < slots; slot++) {
            subscribers.add(new ArrayList<>());
        }
        this.snapshotText = new String[slots];
        this.snapshotSequence = new long[slots];
        this.slowClientNanos = TimeUnit.MILLISECONDS.toNanos(access.config().slowClientMillis());
    }

    /** Registers with the consumer and starts the heartbeat timer. Called on the loop at verticle start. */
    void start() {
        access.stage().register(loop, this);
        vertx.setPeriodic(access.config().heartbeatMillis(), id -> tick());
    }

    /** Takes over an upgraded connection that {@link StreamMetrics#tryOpen} counted. */
    void open(final ServerWebSocket socket) {
        final MarketDataConfig config = access.config();
        final StreamSession session = new StreamSession(this, socket, access.metrics(), subscribers.size(),
                config.maxQueuedMessages());
        sessions.add(session);
        session.start(config.writeQueueBytes());
    }

    @Override
    public void deliver(final List<StreamUpdate> updates) {
        if (queuedBatches.incrementAndGet() > MAX_QUEUED_BATCHES) {
            queuedBatches.decrementAndGet();
            overrun.set(true);
            return;
        }
        context.runOnContext(ignored -> {
            queuedBatches.decrementAndGet();
            dispatch(updates);
        });
    }

    /** Handles one client message. */
    void request(final StreamSession session, final String text) {
        final StreamRequest request;
        try {
            request = StreamRequest.parse(mapper, instruments, text);
        } catch (final ApiException e) {
            session.send(json.error(e.error()));
            return;
        }
        final int slot = slot(request.symbol(), request.channel());
        switch (request.op()) {
            case SUBSCRIBE -> subscribe(session, slot);
            case UNSUBSCRIBE -> unsubscribe(session, slot);
            default -> throw new IllegalStateException("unhandled op " + request.op());
        }
    }

    /** Sends the slot's current snapshot; the session continues with the updates after it. */
    void snapshot(final StreamSession session, final int slot) {
        final int symbol = slot / Channel.COUNT;
        final long sequence;
        switch (Channel.of(slot % Channel.COUNT)) {
            case BOOK -> {
                final BookSnapshot book = view.currentBook(symbol);
                sequence = book.sequence();
                if (snapshotText[slot] == null || snapshotSequence[slot] != sequence) {
                    snapshotText[slot] = json.bookSnapshot(book);
                }
            }
            case TRADES -> {
                final TradeHistory history = view.trades(symbol);
                sequence = history.sequence();
                if (snapshotText[slot] == null || snapshotSequence[slot] != sequence) {
                    snapshotText[slot] = json.tradesSnapshot(symbol, sequence, history.recent(TRADES_IN_SNAPSHOT));
                }
            }
            case TICKER -> {
                final Ticker ticker = view.ticker(symbol);
                sequence = ticker.sequence();
                if (snapshotText[slot] == null || snapshotSequence[slot] != sequence) {
                    snapshotText[slot] = json.ticker(ticker, true);
                }
            }
            default -> throw new IllegalStateException("unhandled channel in slot " + slot);
        }
        snapshotSequence[slot] = sequence;
        session.snapshot(slot, sequence, snapshotText[slot]);
    }

    /** The session ended (closed by either side, or dropped as too slow); forgets its subscriptions. */
    void closed(final StreamSession session) {
        if (!sessions.remove(session)) {
            return;
        }
        for (int slot = 0; slot < subscribers.size(); slot++) {
            if (session.isSubscribed(slot)) {
                remove(session, slot);
            }
        }
        access.metrics().closed();
    }

    /** The connection reported an error; Vert.x closes it and {@link #closed} follows. */
    void failed(final StreamSession session, final Throwable failure) {
        log.debug("stream connection failed: {}", failure.toString());
    }

    private void subscribe(final StreamSession session, final int slot) {
        if (!session.isSubscribed(slot)) {
            if (session.subscriptions() >= access.config().maxSubscriptions()) {
                session.send(json.error(ApiError.badRequest("TOO_MANY_SUBSCRIPTIONS", "at most "
                        + access.config().maxSubscriptions() + " subscriptions per connection", null)));
                return;
            }
            counts.increment(loop, slot / Channel.COUNT, Channel.of(slot % Channel.COUNT));
            subscribers.get(slot).add(session);
            session.subscribed(slot);
        }
        if (!session.conflated()) {
            snapshot(session, slot);
        }
    }

    private void unsubscribe(final StreamSession session, final int slot) {
        final Channel channel = Channel.of(slot % Channel.COUNT);
        if (!session.isSubscribed(slot)) {
            session.send(json.error(ApiError.badRequest("NOT_SUBSCRIBED", "not subscribed to "
                    + channel.wireName() + " " + access.instruments().get(slot / Channel.COUNT).symbol(), null)));
            return;
        }
        remove(session, slot);
        session.send(json.unsubscribed(channel, slot / Channel.COUNT));
    }

    private void remove(final StreamSession session, final int slot) {
        subscribers.get(slot).remove(session);
        session.unsubscribed(slot);
        counts.decrement(loop, slot / Channel.COUNT, Channel.of(slot % Channel.COUNT));
    }

    private void dispatch(final List<StreamUpdate> updates) {
        if (overrun.getAndSet(false)) {
            resynchronize();
        }
        for (int i = 0; i < updates.size(); i++) {
            final StreamUpdate update = updates.get(i);
            final int slot = slot(update.symbol(), update.channel());
            final List<StreamSession> listeners = subscribers.get(slot);
            if (listeners.isEmpty()) {
                continue;
            }
            final String text = render(update);
            for (int s = 0; s < listeners.size(); s++) {
                listeners.get(s).update(slot, update.sequence(), text);
            }
        }
    }

    /** Batches were dropped: every subscription restarts from a snapshot newer than any of them. */
    private void resynchronize() {
        access.metrics().overrun();
        for (final StreamSession session : sessions) {
            if (!session.conflated()) {
                for (int slot = 0; slot < subscribers.size(); slot++) {
                    if (session.isSubscribed(slot)) {
                        snapshot(session, slot);
                    }
                }
            }
        }
    }

    private String render(final StreamUpdate update) {
        return switch (update.channel()) {
            case BOOK -> json.bookUpdate((BookUpdate) update);
            case TRADES -> json.tradesUpdate((TradeBatch) update);
            case TICKER -> json.ticker((Ticker) update, false);
        };
    }

    private void tick() {
        if (sessions.isEmpty()) {
            return;
        }
        final String heartbeat = json.heartbeat(WallClock.currentTimeMicros());
        final long now = System.nanoTime();
        for (final StreamSession session : new ArrayList<>(sessions)) {
            session.tick(now, slowClientNanos, heartbeat);
        }
    }

    private static int slot(final int symbol, final Channel channel) {
        return symbol * Channel.COUNT + channel.ordinal();
    }
}
