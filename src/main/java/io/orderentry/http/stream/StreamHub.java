package io.orderentry.http.stream;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.orderentry.auth.TokenBucket;
import io.orderentry.http.ApiError;
import io.orderentry.http.ApiException;
import io.orderentry.http.ClientConnection;
import io.orderentry.http.PacedCloser;
import io.orderentry.http.json.MarketDataJson;
import io.orderentry.instrument.Instrument;
import io.orderentry.journal.WallClock;
import io.orderentry.marketdata.BookSnapshot;
import io.orderentry.marketdata.Channel;
import io.orderentry.marketdata.MarketDataConfig;
import io.orderentry.marketdata.MarketDataView;
import io.orderentry.marketdata.SubscriberCounts;
import io.orderentry.marketdata.Ticker;
import io.orderentry.marketdata.TradeHistory;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.internal.ContextInternal;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;

/**
 * The stream sessions of one event loop. The fan-out hands it each batch's updates, already rendered into
 * WebSocket frames, through {@link #deliver}; each session gets what it subscribed to in one write.
 * It answers subscribe and unsubscribe requests with snapshots from the {@link MarketDataView}, and
 * runs the heartbeat and slow-client timer. The private {@code orders} channel's requests go to this loop's
 * {@link OrderChannel}.
 *
 * <p>Hand-over bound: at most {@link #MAX_QUEUED_BATCHES} batches wait for this loop. If the loop
 * falls further behind, the consumer's next batches are dropped and the loop, when it catches up,
 * sends every session fresh snapshots (which include the dropped updates) before going on.
 *
 * <p>Threads: {@link #deliver} on the market data consumer thread (it only hops onto the loop);
 * everything else on this hub's event loop.
 */
final class StreamHub {

    /** Trades a trades snapshot carries, newest first. */
    static final int TRADES_IN_SNAPSHOT = 100;
    /**
     * Rounds that may wait for this loop before the consumer drops them. The consumer waits for the loops after
     * every round, so a loop that keeps up has one or two; each holds its frames (direct memory, up to a few hundred
     * KiB with a busy trades channel), so the bound also bounds that memory.
     */
    static final int MAX_QUEUED_BATCHES = 128;
    /** Bytes written in one go before the rest of a round waits behind the loop's other work. */
    static final long SLICE_BYTES = 256 * 1024;
    /** How long slices may follow one another before the loop polls its sockets again. */
    static final long MAX_CHAIN_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final StreamSession[] NO_SESSIONS = new StreamSession[0];

    /** A batch handed to this loop. */
    private record Round(StreamFanOut.Frame[] frames, long batchStartNanos) {
    }

    private final int loop;
    private final Vertx vertx;
    private final Context context;
    private final MarketDataAccess access;
    private final MarketDataView view;
    private final SubscriberCounts counts;
    private final MarketDataJson json;
    private final OrderChannel orders;
    private final StreamOrderEntry orderEntry;
    private final ObjectMapper mapper;
    private final Map<String, Instrument> instruments;
    private final Logger log;
    private final List<List<StreamSession>> subscribers;
    private final Set<StreamSession> sessions = new LinkedHashSet<>();
    private final byte[][] snapshotFrame;
    private final long[] snapshotSequence;
    private final long slowClientNanos;
    /** Where the sessions' {@link StreamInbound}s inflate; this loop's only. */
    private final byte[] inflateScratch;
    /**
     * Sessions found too slow at a heartbeat, closed {@value #CLOSES_PER_ROUND} every {@value #CLOSE_EVERY_MILLIS} ms
     * (10,000 within 5 s) rather than all at once; a session that caught up meanwhile stays open.
     */
    private final PacedCloser<StreamSession> tooSlow = new PacedCloser<>(CLOSES_PER_ROUND, this::closeIfStillTooSlow);
    static final int CLOSES_PER_ROUND = 100;
    /** Heartbeat intervals a connection logged in for order entry may stay silent before it is closed as dead. */
    static final int SILENT_HEARTBEATS = 3;
    /** How often the orders subscriptions' keys are checked against the keys file's last reload (once a second). */
    static final long REVOCATION_CHECK_MILLIS = 200;
    static final long CLOSE_EVERY_MILLIS = 50;
    private final AtomicInteger queuedBatches = new AtomicInteger();
    private final AtomicBoolean overrun = new AtomicBoolean();
    private final Queue<Round> rounds = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean pumping = new AtomicBoolean();
    private Round round;
    private StreamSession[] roundTargets = NO_SESSIONS;
    private int nextTarget;
    private boolean chained;
    private long chainStartNanos;

    StreamHub(final int loop, final Vertx vertx, final Context context, final MarketDataAccess access,
              final MarketDataJson json, final OrderChannel orders, final StreamOrderEntry orderEntry,
              final ObjectMapper mapper, final Map<String, Instrument> instruments, final Logger log) {
        this.loop = loop;
        this.vertx = vertx;
        this.context = context;
        this.access = access;
        this.view = access.stage().view();
        this.counts = access.stage().subscribers();
        this.json = json;
        this.orders = orders;
        this.orderEntry = orderEntry;
        this.mapper = mapper;
        this.instruments = instruments;
        this.log = log;
        final int slots = view.symbols() * Channel.COUNT;
        this.subscribers = new ArrayList<>(slots);
        for (int slot = 0; slot < slots; slot++) {
            subscribers.add(new ArrayList<>());
        }
        this.snapshotFrame = new byte[slots][];
        this.snapshotSequence = new long[slots];
        this.slowClientNanos = TimeUnit.MILLISECONDS.toNanos(access.config().slowClientMillis());
        this.inflateScratch = new byte[access.config().input().maxMessageBytes() + 1];
    }

    /** Registers with the fan-out and starts the heartbeat and slow-close timers. Called on the loop at start. */
    void start() {
        access.fanOut().register(loop, this);
        vertx.setPeriodic(access.config().heartbeatMillis(), id -> tick());
        vertx.setPeriodic(CLOSE_EVERY_MILLIS, id -> tooSlow.round());
        vertx.setPeriodic(REVOCATION_CHECK_MILLIS, id -> orders.closeRevoked(sessions));
    }

    /**
     * Takes over an upgraded connection whose stream slots its {@link ClientConnection} holds; what its client sends
     * goes through a {@link StreamInbound} with a budget of its own.
     */
    void open(final ServerWebSocket socket) {
        final MarketDataConfig config = access.config();
        final StreamSession session = new StreamSession(this, socket, access.metrics(), subscribers.size(),
                config.maxQueuedMessages(), config.maxQueuedBytes(), config.totalQueuedBytes());
        sessions.add(session);
        final MarketDataConfig.StreamInput input = config.input();
        session.start(config.writeQueueBytes(), new StreamInbound(new StreamInbound.Owner() {
            @Override
            public void refused(final int inARow) {
                refusedMessage(session, inARow);
            }

            @Override
            public void violated(final short status, final String reason) {
                session.closeForPolicy(status, reason);
            }
        }, new TokenBucket(input.perSecond(), input.burst(), System.nanoTime()), input.maxMessageBytes(),
                inflateScratch));
        if (config.sendBufferBytes() > 0) {
            session.sendBuffer(config.sendBufferBytes());
        }
    }

    /** @return whether this loop has a subscriber to any of the frames' slots; on the consumer thread */
    boolean wants(final StreamFanOut.Frame[] frames) {
        for (final StreamFanOut.Frame frame : frames) {
            if (counts.get(loop, frame.slot() / Channel.COUNT, Channel.of(frame.slot() % Channel.COUNT)) > 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * Hands a batch to this loop; called on the consumer thread, which must count it as written once for
     * every call ({@link StreamFanOut#written}), also when it is dropped.
     */
    void deliver(final StreamFanOut.Frame[] frames, final long batchStartNanos) {
        if (queuedBatches.incrementAndGet() > MAX_QUEUED_BATCHES) {
            queuedBatches.decrementAndGet();
            overrun.set(true);
            access.fanOut().written();
            return;
        }
        StreamFanOut.retain(frames);
        rounds.add(new Round(frames, batchStartNanos));
        if (pumping.compareAndSet(false, true)) {
            context.runOnContext(ignored -> pump());
        }
    }

    /** Handles one client message: order entry ({@link StreamOrderEntry}), or a subscription's. */
    void request(final StreamSession session, final String text) {
        final byte[] bytes = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        final PlaceMessage place = PlaceMessage.read(mapper.getFactory(), bytes);
        if (place != null) {
            orderEntry.place(session, place);
            return;
        }
        final StreamRequest request;
        try {
            final com.fasterxml.jackson.databind.JsonNode root = StreamRequest.read(mapper, text);
            final com.fasterxml.jackson.databind.JsonNode op = root.get("op");
            if (op != null && op.isTextual() && StreamOrderEntry.OPS.contains(op.textValue())) {
                orderEntry.request(session, root, op.textValue());
                return;
            }
            request = StreamRequest.parse(root, instruments);
        } catch (final ApiException e) {
            session.send(StreamFrames.text(json.error(e.error())));
            return;
        }
        if (request.orders()) {
            orders.request(session, request);
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
                if (snapshotFrame[slot] == null || snapshotSequence[slot] != sequence) {
                    snapshotFrame[slot] = StreamFrames.text(json.bookSnapshot(book));
                }
            }
            case TRADES -> {
                final TradeHistory history = view.trades(symbol);
                sequence = history.sequence();
                if (snapshotFrame[slot] == null || snapshotSequence[slot] != sequence) {
                    snapshotFrame[slot] = StreamFrames.text(json.tradesSnapshot(symbol, sequence,
                            history.recent(TRADES_IN_SNAPSHOT)));
                }
            }
            case TICKER -> {
                final Ticker ticker = view.ticker(symbol);
                sequence = ticker.sequence();
                if (snapshotFrame[slot] == null || snapshotSequence[slot] != sequence) {
                    snapshotFrame[slot] = StreamFrames.text(json.ticker(ticker, true));
                }
            }
            default -> throw new IllegalStateException("unhandled channel in slot " + slot);
        }
        snapshotSequence[slot] = sequence;
        session.snapshot(slot, sequence, snapshotFrame[slot]);
    }

    /**
     * A message of {@code session} was dropped for its budget: the first of a run is answered RATE_LIMITED, the rest
     * are not; a run of a whole burst closes the connection with 1008.
     */
    private void refusedMessage(final StreamSession session, final int inARow) {
        access.metrics().refusedMessage();
        final MarketDataConfig.StreamInput input = access.config().input();
        if (inARow >= input.burst()) {
            session.closeForPolicy(StreamSession.REFUSED, session.orderEntry().key() != null
                    ? "too many messages: over twice the key's request budget" : "too many messages: over "
                    + input.perSecond() + " a second");
        } else if (inARow == 1) {
            session.send(StreamFrames.text(json.error(new ApiError(429, "RATE_LIMITED", session.orderEntry().key() != null
                    ? "over this connection's message budget (twice its key's request budget); messages are dropped"
                    + " unread, without an answer, until it slows down"
                    : "over this connection's " + input.perSecond() + " messages a second (bursts of " + input.burst()
                    + "); messages are dropped unread until it slows down, and " + input.burst() + " in a row close"
                    + " the connection", null))));
        }
    }

    /** The session ended (closed by either side, or dropped as too slow); forgets its subscriptions. */
    void closed(final StreamSession session) {
        if (!sessions.remove(session)) {
            return;
        }
        if (session.compressing()) {
            access.metrics().deflateClients(-1);
        }
        for (int slot = 0; slot < subscribers.size(); slot++) {
            if (session.isSubscribed(slot)) {
                remove(session, slot);
            }
        }
        orders.closed(session);
        orderEntry.closed(session);
        access.metrics().closed();
    }

    /** The session was conflated and has drained: its orders subscription gets a fresh snapshot. */
    void resyncOrders(final StreamSession session) {
        orders.resync(session);
    }

    /** The connection reported an error; Vert.x closes it and {@link #closed} follows. */
    void failed(final StreamSession session, final Throwable failure) {
        log.debug("stream connection failed: {}", failure.toString());
    }

    /**
     * Subscribes and sends the snapshot. A subscribe to what the session already has is answered ALREADY_SUBSCRIBED
     * and sends nothing else: a snapshot (up to the whole book) per repeated message would let one client make the
     * loop render and write without bound; a client that wants a fresh snapshot unsubscribes first.
     */
    private void subscribe(final StreamSession session, final int slot) {
        if (session.isSubscribed(slot)) {
            session.send(StreamFrames.text(json.error(alreadySubscribed(Channel.of(slot % Channel.COUNT).wireName()
                    + " " + access.instruments().get(slot / Channel.COUNT).symbol()))));
            return;
        }
        if (session.subscriptions() >= access.config().maxSubscriptions()) {
            session.send(StreamFrames.text(json.error(ApiError.badRequest("TOO_MANY_SUBSCRIPTIONS", "at most "
                    + access.config().maxSubscriptions() + " subscriptions per connection", null))));
            return;
        }
        if (session.learnCompression()) {
            access.metrics().deflateClients(1);
        }
        counts.increment(loop, slot / Channel.COUNT, Channel.of(slot % Channel.COUNT));
        subscribers.get(slot).add(session);
        session.subscribed(slot);
        if (!session.conflated()) {
            snapshot(session, slot);
        }
    }

    /** @return the answer to a subscribe of what the session already follows ({@code what}: "book BTCUSD") */
    static ApiError alreadySubscribed(final String what) {
        return ApiError.badRequest("ALREADY_SUBSCRIBED", "already subscribed to " + what + "; unsubscribe first for a"
                + " fresh snapshot", null);
    }

    private void unsubscribe(final StreamSession session, final int slot) {
        final Channel channel = Channel.of(slot % Channel.COUNT);
        if (!session.isSubscribed(slot)) {
            session.send(StreamFrames.text(json.error(ApiError.badRequest("NOT_SUBSCRIBED", "not subscribed to "
                    + channel.wireName() + " " + access.instruments().get(slot / Channel.COUNT).symbol(), null))));
            return;
        }
        remove(session, slot);
        session.send(StreamFrames.text(json.unsubscribed(channel, slot / Channel.COUNT)));
    }

    private void remove(final StreamSession session, final int slot) {
        subscribers.get(slot).remove(session);
        session.unsubscribed(slot);
        counts.decrement(loop, slot / Channel.COUNT, Channel.of(slot % Channel.COUNT));
    }

    /**
     * Writes the waiting batches, in order, to every session of this loop, each session's part of a batch in one
     * write. It stops after about {@link #SLICE_BYTES} and continues in a new task; once slices have followed one
     * another for {@link #MAX_CHAIN_NANOS} it continues only after the loop's next I/O, so that the requests
     * waiting on this loop wait at most about that long for the stream, not for the whole round. Measures what the writes cost.
     */
    private void pump() {
        final long cpuStart = THREADS.getCurrentThreadCpuTime();
        if (!chained) {
            chainStartNanos = System.nanoTime();
        }
        chained = false;
        try {
            long budget = SLICE_BYTES;
            while (true) {
                if (round == null) {
                    round = rounds.poll();
                    if (round == null) {
                        pumping.set(false);
                        if (rounds.isEmpty() || !pumping.compareAndSet(false, true)) {
                            return;
                        }
                        continue;
                    }
                    queuedBatches.decrementAndGet();
                    if (overrun.getAndSet(false)) {
                        resynchronize();
                    }
                    roundTargets = sessions.toArray(NO_SESSIONS);
                    nextTarget = 0;
                }
                while (nextTarget < roundTargets.length && budget > 0) {
                    final int written = deliver(roundTargets[nextTarget++], round.frames());
                    if (written > 0) {
                        budget -= written;
                        access.metrics().delivered(System.nanoTime() - round.batchStartNanos());
                    }
                }
                if (nextTarget < roundTargets.length) {
                    if (System.nanoTime() - chainStartNanos < MAX_CHAIN_NANOS) {
                        chained = true;
                        context.runOnContext(ignored -> pump());
                    } else {
                        chained = false;
                        continueAfterIo();
                    }
                    return;
                }
                StreamFanOut.release(round.frames());
                round = null;
                roundTargets = NO_SESSIONS;
                access.fanOut().written();
            }
        } catch (final RuntimeException e) {
            // Nothing may leave this loop's stream stuck: the round is given up (its sessions are resent snapshots,
            // as after an overrun), its frames released and counted as written, and the pump goes on.
            log.error("stream: writing a market data round failed; its sessions get fresh snapshots", e);
            abandonRound();
        } finally {
            final long cpu = THREADS.getCurrentThreadCpuTime() - cpuStart;
            access.metrics().fanOutCpu(cpu);
            access.fanOut().roundCpu(cpu);
        }
    }

    /**
     * Writes a round to one session. A session that cannot take it (the only expected cause is a bug that breaks
     * its sequence) is closed with status 1011 rather than left with a gap or allowed to stop the other sessions.
     */
    private int deliver(final StreamSession session, final StreamFanOut.Frame[] frames) {
        try {
            return session.deliver(frames);
        } catch (final RuntimeException e) {
            log.error("stream: closing a connection that could not take a market data round", e);
            session.fail(e);
            return 0;
        }
    }

    /** Gives up the current round after a failure and keeps the pump going. */
    private void abandonRound() {
        if (round != null) {
            StreamFanOut.release(round.frames());
            round = null;
            roundTargets = NO_SESSIONS;
            access.fanOut().written();
        }
        overrun.set(true);
        chained = false;
        context.runOnContext(ignored -> pump());
    }

    /**
     * Continues the round after the loop has next polled its sockets. A task queued from a task would run in the
     * same pass over the task queue, and Netty looks at the time only every 64 tasks: a round of many slices would
     * hold the loop's requests for milliseconds. A task scheduled for a moment later is taken only at the next
     * pass, which comes after the loop's I/O.
     */
    private void continueAfterIo() {
        if (context instanceof ContextInternal internal) {
            internal.nettyEventLoop().schedule(() -> context.runOnContext(ignored -> pump()), 1, TimeUnit.MICROSECONDS);
        } else {
            context.runOnContext(ignored -> pump());
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

    private void tick() {
        if (sessions.isEmpty()) {
            return;
        }
        final byte[] heartbeat = StreamFrames.text(json.heartbeat(WallClock.currentTimeMicros()));
        final long now = System.nanoTime();
        for (final StreamSession session : new ArrayList<>(sessions)) {
            if (session.orderEntry().key() != null && orderEntrySilent(session, now)) {
                continue;
            }
            if (session.tick(now, slowClientNanos, heartbeat)) {
                tooSlow.add(session);
            }
        }
    }

    /**
     * The heartbeat of a connection logged in for order entry: it is pinged at every heartbeat, and one from which
     * nothing at all came (not even a pong) for {@value #SILENT_HEARTBEATS} heartbeat intervals is taken for dead and
     * closed (1008), so that a connection lost without a close frame is closed, and its cancel on disconnect runs, within
     * seconds rather than when TCP gives up.
     *
     * @return true if it was closed
     */
    private boolean orderEntrySilent(final StreamSession session, final long now) {
        final long silentNanos = now - session.lastReadNanos();
        final long limitNanos = SILENT_HEARTBEATS * TimeUnit.MILLISECONDS.toNanos(access.config().heartbeatMillis());
        if (silentNanos > limitNanos) {
            session.closeForPolicy(StreamSession.REFUSED, "heartbeat timeout: nothing received for "
                    + TimeUnit.NANOSECONDS.toMillis(silentNanos) + " ms");
            return true;
        }
        session.ping();
        return false;
    }

    private void closeIfStillTooSlow(final StreamSession session) {
        session.closeIfStillTooSlow(System.nanoTime(), slowClientNanos);
    }

    private static int slot(final int symbol, final Channel channel) {
        return symbol * Channel.COUNT + channel.ordinal();
    }
}
