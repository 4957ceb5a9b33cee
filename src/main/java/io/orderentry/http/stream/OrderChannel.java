package io.orderentry.http.stream;

import io.orderentry.account.AccountFeedStage;
import io.orderentry.account.OrderUpdate;
import io.orderentry.account.SnapshotAssembly;
import io.orderentry.auth.ApiKey;
import io.orderentry.http.AccessControl;
import io.orderentry.http.ApiError;
import io.orderentry.http.EdgeRefusals;
import io.orderentry.http.HttpParts;
import io.orderentry.http.RequestIds;
import io.orderentry.http.json.MarketDataJson;
import io.orderentry.http.json.OrderFeedJson;
import io.orderentry.http.rest.InputGateway;
import io.orderentry.query.OrderStateView;
import io.vertx.core.Context;
import io.vertx.core.http.HttpHeaders;
import java.util.Collection;
import java.util.List;
import org.slf4j.Logger;

/**
 * The private {@code orders} channel of one event loop's stream sessions (API.md, "Accounts and authentication",
 * "Private stream"): who may subscribe, and the hand-over between the order stage's {@link AccountFeedStage} and the
 * sessions.
 *
 * <h2>Subscribing</h2>
 * With authentication on, the key is the message's {@code apiKey}, else the upgrade request's
 * {@code Authorization: Bearer} header, checked as a REST read is ({@link AccessControl.Gate#admitSecret}): a
 * {@code read} or {@code trade} key follows its own account; no key, a malformed header, an unknown or revoked key, an
 * {@code admin} key, a spent budget, or an {@code accountId} that is not the key's is answered with an error message
 * (UNAUTHENTICATED, INVALID_API_KEY, PERMISSION_DENIED, RATE_LIMITED, ACCOUNT_MISMATCH) and the connection is closed
 * with status 1008; failed authentications are audited as REST ones are. With authentication off the message names
 * {@code accountId}. The subscription then goes to the order stage ({@link AccountFeedStage#subscribe}), woken by a tick
 * through the input ring, which adds it to the account's feed and tells it the feed's sequence. The snapshot is then
 * built here, on the loop, {@value #SNAPSHOT_CHUNK} open orders per task read from the order view, the updates that
 * arrive meanwhile kept beside it, and completed at the stage's mark ({@link SnapshotAssembly}): {@code oe-orders},
 * which sends every order answer, never reads an account's open orders. A second subscribe to the same account is
 * answered ALREADY_SUBSCRIBED and changes nothing (a snapshot costs this loop a read of the account's open orders);
 * one naming another account replaces the first (a fresh snapshot, of that account). Subscribes, as every message,
 * take a token of the connection's budget ({@link StreamInbound}), which bounds the snapshots a key can ask for.
 *
 * <h2>Revocation</h2>
 * The subscription remembers the key that admitted it. When the keys file is read again (every second, see
 * {@code AuthWiring}) the hub's timer ({@link #closeRevoked}) closes every orders subscription whose key was revoked or
 * removed, with an INVALID_API_KEY error and status 1008, within about a second of the reload.
 *
 * <h2>Falling behind</h2>
 * A session conflated by its backlog bounds, or one whose loop let too many updates wait
 * ({@link OrderFeedSubscription}), asks the stage again for a snapshot and drops the account's updates until it
 * arrives, as market data subscriptions get fresh snapshots: the engine is never slowed.
 *
 * <p>Threads: every method runs on this loop, the order stage's messages having hopped onto it.
 */
final class OrderChannel implements OrderFeedSubscription.Receiver {

    /** Open orders read per event loop task while a snapshot is built. */
    static final int SNAPSHOT_CHUNK = 256;

    private final AccountFeedStage feeds;
    private final OrderStateView view;
    private final InputGateway input;
    private final AccessControl access;
    private final AccessControl.Gate gate;
    private final EdgeRefusals refusals;
    private final StreamMetrics metrics;
    private final MarketDataJson errors;
    private final OrderFeedJson json;
    private final Context context;
    private final int maxSubscriptions;
    private final int maxQueued;
    private final Logger log;
    /** The keys' {@link io.orderentry.auth.KeyRing#version} that {@link #closeRevoked} last looked at. */
    private Object keysSeen;
    /** The key {@link #account} last admitted; read right after it, on this loop. */
    private String admittedKeyId;

    OrderChannel(final HttpParts settings, final Context context, final MarketDataJson errors) {
        this.feeds = settings.orderFeeds();
        this.view = settings.view();
        this.input = settings.input();
        this.access = settings.access();
        this.gate = access.gate();
        this.refusals = new EdgeRefusals(settings.input(), settings.json().mapper(), settings.status());
        this.metrics = settings.marketData().metrics();
        this.errors = errors;
        this.json = new OrderFeedJson(settings.marketData().instruments());
        this.context = context;
        this.maxSubscriptions = settings.marketData().config().maxSubscriptions();
        this.maxQueued = settings.marketData().config().maxQueuedMessages();
        this.log = settings.log();
    }

    /** Handles a subscribe or unsubscribe of the orders channel. */
    void request(final StreamSession session, final StreamRequest request) {
        switch (request.op()) {
            case SUBSCRIBE -> subscribe(session, request);
            case UNSUBSCRIBE -> unsubscribe(session);
            default -> throw new IllegalStateException("unhandled op " + request.op());
        }
    }

    /** The session ended: its subscription leaves its feed. */
    void closed(final StreamSession session) {
        end(session);
    }

    /** The session was conflated and has drained: a fresh snapshot, and the updates from there. */
    void resync(final StreamSession session) {
        final OrderFeedSubscription subscription = session.orders();
        if (subscription == null) {
            return;
        }
        metrics.ordersResync();
        session.ordersAwaitSnapshot();
        subscription.assembly(null);
        feeds.subscribe(subscription);
        input.tick();
    }

    /**
     * From the order stage: the subscription is in its feed after update {@code sequence}. Starts building its
     * snapshot on this loop, {@value #SNAPSHOT_CHUNK} orders per task ({@link #readChunk}); the updates that arrive
     * meanwhile are kept in the assembly (at most {@code ws.max.queued.messages}, else it starts again).
     */
    @Override
    public void startsAfter(final OrderFeedSubscription subscription, final long sequence) {
        if (subscription.closed() || subscription.session().orders() != subscription) {
            return;
        }
        final SnapshotAssembly assembly = new SnapshotAssembly(subscription.accountId(), sequence, maxQueued);
        subscription.assembly(assembly);
        subscription.session().ordersAwaitSnapshot();
        readChunk(subscription, assembly);
    }

    /** From the order stage: the mark; the snapshot is complete as of {@code sequence} and is sent. */
    @Override
    public void marked(final OrderFeedSubscription subscription, final long sequence) {
        final SnapshotAssembly assembly = subscription.assembly();
        final StreamSession session = subscription.session();
        if (assembly == null || !assembly.read() || subscription.closed() || session.orders() != subscription) {
            return;     // the mark of an assembly given up since (the session fell behind and starts again)
        }
        subscription.assembly(null);
        if (session.ordersSnapshot(subscription, sequence, json.snapshot(subscription.accountId(), sequence,
                assembly.complete(sequence)))) {
            metrics.ordersSent(1);
        }
    }

    /** Reads one chunk of the account's open orders, then yields the loop; asks the stage for a mark once all are read. */
    private void readChunk(final OrderFeedSubscription subscription, final SnapshotAssembly assembly) {
        if (subscription.assembly() != assembly || subscription.closed()) {
            return;
        }
        if (assembly.readChunk(view::openOrders, SNAPSHOT_CHUNK)) {
            feeds.mark(subscription);
            input.tick();
        } else {
            context.runOnContext(ignored -> readChunk(subscription, assembly));
        }
    }

    /** From the order stage: updates of {@code subscription}'s account. */
    @Override
    public void updates(final OrderFeedSubscription subscription, final List<OrderUpdate> updates, final List<byte[]> frames) {
        final StreamSession session = subscription.session();
        final SnapshotAssembly assembly = subscription.assembly();
        if (assembly != null) {
            if (!subscription.closed() && session.orders() == subscription && !assembly.updates(updates)) {
                resync(session);    // too many updates while the snapshot was built: start again
            }
            return;
        }
        try {
            metrics.ordersSent(session.ordersUpdates(subscription, updates, frames));
        } catch (final RuntimeException e) {
            log.error("stream: closing a connection that could not take its orders updates", e);
            session.fail(e);
        }
    }

    /** From the order stage: updates were dropped because too many waited for this loop. */
    @Override
    public void overrun(final OrderFeedSubscription subscription) {
        subscription.overrunHandled();
        if (!subscription.closed() && subscription.session().orders() == subscription) {
            resync(subscription.session());
        }
    }

    /**
     * Closes, with an INVALID_API_KEY error and status 1008, every orders subscription of {@code sessions} whose key
     * the keys file no longer holds as valid: revocation reaches open streams as it reaches requests. Costs one
     * comparison while the keys are unchanged; called by the hub's timer.
     */
    void closeRevoked(final Collection<StreamSession> sessions) {
        if (!access.enabled() || access.keys().version() == keysSeen) {
            return;
        }
        keysSeen = access.keys().version();
        for (final StreamSession session : List.copyOf(sessions)) {
            final OrderFeedSubscription subscription = session.orders();
            if (subscription == null || subscription.keyId() == null) {
                continue;
            }
            final ApiKey key = access.keys().byId(subscription.keyId());
            if (key == null || !key.active()) {
                session.send(StreamFrames.text(errors.error(new ApiError(401, "INVALID_API_KEY", "the API key "
                        + subscription.keyId() + " was revoked; the stream is closed", null))));
                session.closeForPolicy(StreamSession.REFUSED, "orders: key revoked");
            }
        }
    }

    private void subscribe(final StreamSession session, final StreamRequest request) {
        final String account = account(session, request);
        if (account == null) {
            return;
        }
        final String keyId = admittedKeyId;
        final OrderFeedSubscription current = session.orders();
        if (current != null && current.accountId().equals(account)) {
            session.send(StreamFrames.text(errors.error(StreamHub.alreadySubscribed("orders of " + account))));
            return;
        }
        if (current == null && session.subscriptions() >= maxSubscriptions) {
            session.send(StreamFrames.text(errors.error(ApiError.badRequest("TOO_MANY_SUBSCRIPTIONS", "at most "
                    + maxSubscriptions + " subscriptions per connection", null))));
            return;
        }
        end(session);
        final OrderFeedSubscription subscription = new OrderFeedSubscription(this, session, context, account, keyId,
                maxQueued);
        session.ordersSubscribed(subscription);
        feeds.subscribe(subscription);
        input.tick();
    }

    private void unsubscribe(final StreamSession session) {
        final OrderFeedSubscription subscription = session.orders();
        if (subscription == null) {
            session.send(StreamFrames.text(errors.error(ApiError.badRequest("NOT_SUBSCRIBED",
                    "not subscribed to orders", null))));
            return;
        }
        end(session);
        session.send(json.unsubscribed(subscription.accountId()));
    }

    /** Ends the session's orders subscription, if any. */
    private void end(final StreamSession session) {
        final OrderFeedSubscription subscription = session.orders();
        if (subscription != null) {
            subscription.close();
            feeds.unsubscribe(subscription);
            session.ordersUnsubscribed();
        }
    }

    /**
     * @return the account the request may follow, or null after refusing it; sets {@link #admittedKeyId} to the key
     *         that admitted it (null with authentication off)
     */
    private String account(final StreamSession session, final StreamRequest request) {
        admittedKeyId = null;
        if (!access.enabled()) {
            if (request.accountId() == null) {
                session.send(StreamFrames.text(errors.error(ApiError.badRequest("MISSING_FIELD", "accountId is"
                        + " required: authentication is off (ORDERS_AUTH=none)", "accountId"))));
            }
            return request.accountId();
        }
        String secret = request.apiKey();
        String missing = null;
        if (secret == null) {
            final String header = session.header(HttpHeaders.AUTHORIZATION);
            secret = AccessControl.bearer(header);
            missing = header == null ? "the orders channel needs an API key: send \"apiKey\" in the subscribe message"
                    + " or 'Authorization: Bearer <secret>' with the upgrade"
                    : "the upgrade's Authorization header is not 'Bearer <secret>'";
        }
        final ApiKey key = gate.admitSecret(secret, missing, session.remoteAddress(), AccessControl.Need.READ);
        if (key == null) {
            refuse(session, gate.refusal(), gate.refusedKeyId());
            return null;
        }
        if (request.accountId() != null && !request.accountId().equals(key.account())) {
            access.accountMismatch();
            refuse(session, new ApiError(403, "ACCOUNT_MISMATCH", "accountId '" + request.accountId()
                    + "' is not the account of this API key (" + key.account() + ")", "accountId"), key.keyId());
            return null;
        }
        admittedKeyId = key.keyId();
        return key.account();
    }

    /** Answers a refused subscription with its error and closes the connection; audits failed authentications. */
    private void refuse(final StreamSession session, final ApiError error, final String keyId) {
        if (error.status() == 401) {
            final ApiKey known = keyId == null ? null : access.keys().byId(keyId);
            refusals.publish(null, RequestIds.remoteAddress(session.remoteAddress()), null, new ApiError(error.status(),
                    error.code(), "subscribe orders on /api/v1/stream: " + error.message(), error.field()), null, 0,
                    keyId, known == null ? null : known.account());
        }
        session.refuse(StreamFrames.text(errors.error(error)), "orders: " + error.code());
    }
}
