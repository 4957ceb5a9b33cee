package io.orderentry.http.stream;

import com.fasterxml.jackson.databind.JsonNode;
import io.orderentry.auth.ApiKey;
import io.orderentry.engine.RejectReason;
import io.orderentry.http.AccessControl;
import io.orderentry.http.ApiError;
import io.orderentry.http.ApiException;
import io.orderentry.http.EdgeRefusals;
import io.orderentry.http.HttpParts;
import io.orderentry.http.ReadinessCheck;
import io.orderentry.http.RequestIds;
import io.orderentry.http.rest.InputGateway;
import io.orderentry.http.rest.OrderRequestParser;
import io.orderentry.http.rest.PendingReplies;
import io.orderentry.http.rest.PlaceOrder;
import io.orderentry.http.rest.Reply;
import io.orderentry.http.rest.ReplyResults;
import io.orderentry.http.rest.ReplyWaiter;
import io.orderentry.instrument.Instrument;
import io.orderentry.ops.ServiceStatus;
import io.orderentry.pipeline.CommandType;
import io.orderentry.query.OrderState;
import io.orderentry.query.OrderStateView;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import java.util.Set;
import org.slf4j.Logger;

/**
 * Order entry on the stream (API.md, "Order entry on the stream"): {@code login}, {@code place}, {@code cancel},
 * {@code amend} and {@code cancelAll} messages of one event loop's sessions. Each command is checked exactly as its
 * REST request is (readiness, the key's permission and budgets, the same parser and the same ownership rules, its
 * refusals audited the same way), published into the same input ring, and answered once, on its connection, by a
 * {@code {"op":"result","id":...}} message with exactly the status, order and error the REST call gets, only once it
 * is durable ({@link ReplyResults}).
 *
 * <h2>Logging in</h2>
 * A connection acts for one key for its life; {@link StreamLogin} logs it in and admits each of its commands.
 *
 * <h2>Back-pressure</h2>
 * Every command takes its key's request and order tokens as a REST request does ({@link StreamLogin}). At most
 * {@code ws.max.pending.orders} commands of one connection wait for the engine; one more is answered
 * {@code 429 TOO_MANY_PENDING} at once. Answers are never conflated or dropped: a connection that
 * does not read them fast enough to stay within its send bounds is closed (1008), and the client finds its orders by
 * clientOrderId ({@link StreamSession#sendAnswer}).
 *
 * <p>Threads: the event loop of the {@link StreamHub} that owns the sessions.
 */
final class StreamOrderEntry {

    /** The ops this class handles. */
    static final Set<String> OPS = Set.of("login", "place", "cancel", "amend", "cancelAll");
    private static final Set<String> PLACE_FIELDS = Set.of("op", "id", "order");
    private static final Set<String> CANCEL_FIELDS = Set.of("op", "id", "orderId", "clientOrderId");
    private static final Set<String> AMEND_FIELDS = Set.of("op", "id", "orderId", "clientOrderId");
    private static final Set<String> CANCEL_ALL_FIELDS = Set.of("op", "id", "symbol", "accountId");
    private final int loop;
    private final HttpParts settings;
    private final PendingReplies pending;
    private final ReplyResults results;
    private final InputGateway input;
    private final OrderStateView view;
    private final OrderRequestParser parser;
    private final AccessControl access;
    private final EdgeRefusals refusals;
    private final ReadinessCheck readiness;
    private final StreamMetrics metrics;
    private final int maxPending;
    private final StreamLogin login;
    private final Vertx vertx;
    private final Logger log;
    private long nextTag;

    /**
     * @param loop the verticle's index: the reply stage hands its answers back to this loop's {@code pending}
     */
    StreamOrderEntry(final int loop, final Vertx vertx, final HttpParts settings,
                     final PendingReplies pending) {
        this.loop = loop;
        this.vertx = vertx;
        this.log = settings.log();
        this.settings = settings;
        this.pending = pending;
        this.results = pending.results();
        this.input = settings.input();
        this.view = settings.view();
        this.parser = settings.parser();
        this.access = settings.access();
        this.refusals = new EdgeRefusals(settings.input(), settings.json().mapper(), settings.status());
        this.readiness = new ReadinessCheck(settings.status(), null);
        this.metrics = settings.marketData().metrics();
        this.maxPending = settings.marketData().config().maxPendingOrders();
        this.login = new StreamLogin(access, refusals, results, settings.json());
    }

    /** Handles one order-entry message ({@code op} one of {@link #OPS}). */
    void request(final StreamSession session, final JsonNode root, final String op) {
        final JsonNode idNode = root.get("id");
        final String id = StreamFields.requestId(idNode);
        if (id == null) {
            answer(session, results.refused("null", idNode == null || idNode.isNull()
                    ? ApiError.badRequest("MISSING_FIELD", "id is required: every answer carries it", "id")
                    : ApiError.badRequest("INVALID_REQUEST_ID", "id must be 1-64 of [A-Za-z0-9_.:-] or an integer",
                    "id")));
            return;
        }
        if ("login".equals(op)) {
            login.login(session, root, id);
            return;
        }
        final CommandType action = switch (op) {
            case "place" -> CommandType.PLACE;
            case "cancel" -> CommandType.CANCEL;
            case "amend" -> CommandType.AMEND;
            default -> CommandType.CANCEL_ALL;
        };
        command(session, id, action, (key, tag, again) -> {
            switch (action) {
                case PLACE -> place(session, root, id, tag, key, again);
                case CANCEL -> cancel(session, root, id, tag, key, again);
                case AMEND -> amend(session, root, id, tag, key, again);
                default -> cancelAll(session, root, id, tag, key);
            }
        });
    }

    /**
     * A {@code place} read without a JSON tree ({@link PlaceMessage}): the same checks and answers as
     * {@link #request}, its order read by the same parser as a REST body (whose fast path takes the common order).
     */
    void place(final StreamSession session, final PlaceMessage message) {
        command(session, message.id(), CommandType.PLACE, (key, tag, again) -> place(session, message.order(),
                message.id(), tag, key, again));
    }

    /**
     * What a command does once admitted; may throw an {@link ApiException} to refuse it. {@code again} runs it again
     * later: what a command held behind another of the same order hands to {@link OrderEntrySession#holdIfBusy}.
     */
    private interface Body {
        void run(ApiKey key, String tag, Runnable again);
    }

    /** The keys of a command that concerns no one order (a cancel-all: the engine answers it in order). */
    private static final String[] NO_KEYS = new String[0];

    /**
     * Admits one command of a session (readiness, its key's permission and budgets, the bound of waiting commands)
     * and runs it; a refusal is answered with the id, and audited as over REST.
     */
    private void command(final StreamSession session, final String id, final CommandType action, final Body body) {
        final String tag = RequestIds.ofStream(loop, ++nextTag);
        final ApiError notReady = readiness.unlessAccepting();
        if (notReady != null) {
            answer(session, results.refused(id, notReady));
            return;
        }
        final ApiKey key = login.admit(session, id, tag, action);
        if (key == null) {
            return;
        }
        final OrderEntrySession entry = session.orderEntry();
        if (entry.waiting() >= maxPending) {
            metrics.tooManyPending();
            answer(session, results.refused(id, new ApiError(429, "TOO_MANY_PENDING", "this connection already has "
                    + maxPending + " commands waiting for their answers; read them before sending more", null)));
            return;
        }
        execute(session, id, action, key, tag, body);
    }

    /** Runs an admitted command; a refusal is answered with the id and audited. */
    private void execute(final StreamSession session, final String id, final CommandType action, final ApiKey key,
                         final String tag, final Body body) {
        try {
            body.run(key, tag, () -> execute(session, id, action, key, tag, body));
        } catch (final ApiException e) {
            refusals.publish(tag, remote(session), action, e.error(), null, 0, key.keyId(), key.account());
            answer(session, results.refused(id, e.error()));
        }
    }

    /**
     * The session ended, for any reason (the client's close, a lost connection, its heartbeat timeout, a policy
     * close): with cancel on disconnect, the one command that cancels what rests of the orders placed through it goes
     * into the input ring, unless the service is stopping (a graceful stop never cancels: the orders stay for the next
     * start). Commands still waiting are answered to nobody; their orders stand, durable.
     */
    void closed(final StreamSession session) {
        final OrderEntrySession entry = session.orderEntry();
        if (!entry.placedAny()) {
            return;
        }
        if (settings.status().phase() != ServiceStatus.Phase.READY || input.closed()) {
            log.info("stream: connection {} closed while the service stops; its orders stay (no cancel on disconnect"
                    + " for a graceful stop)", remote(session));
            return;
        }
        cancelOnDisconnect(entry.accountId(), entry.session(), RequestIds.ofStream(loop, ++nextTag), remote(session),
                entry.key() == null ? null : entry.key().keyId(), 0);
    }

    /** Publishes a cancel on disconnect; a full ring is tried again every 100 ms for 30 s, then logged as an error. */
    private void cancelOnDisconnect(final String accountId, final long number, final String tag, final String remote,
                                    final String keyId, final int attempt) {
        if (input.tryCancelOnDisconnect(accountId, number, tag, remote, keyId)) {
            metrics.cancelOnDisconnect();
            return;
        }
        if (input.closed()) {
            log.info("stream: the cancel on disconnect of {} ({}) was not sent: the service is stopping", remote,
                    accountId);
        } else if (attempt >= 300) {
            log.error("stream: the cancel on disconnect of {} ({}) found the input ring full for 30 s and was given up;"
                    + " the orders placed through that connection stay open", remote, accountId);
        } else {
            vertx.setTimer(100, ignored -> cancelOnDisconnect(accountId, number, tag, remote, keyId, attempt + 1));
        }
    }

    private void place(final StreamSession session, final JsonNode root, final String id, final String tag,
                       final ApiKey key, final Runnable again) {
        StreamFields.unknownFields(root, PLACE_FIELDS);
        final JsonNode node = root.get("order");
        if (node == null || node.isNull()) {
            throw ApiError.badRequest("MISSING_FIELD", "order is required", "order").toException();
        }
        final String bound = session.orderEntry().accountId();
        send(session, id, parser.parse(node, bound == null), tag, key, again);
    }

    private void place(final StreamSession session, final byte[] order, final String id, final String tag,
                       final ApiKey key, final Runnable again) {
        send(session, id, parser.parse(order, session.orderEntry().accountId() == null), tag, key, again);
    }

    /** Sends a parsed order as the connection's account's (the key's, or the login's with authentication off). */
    private void send(final StreamSession session, final String id, final PlaceOrder parsed, final String tag,
                      final ApiKey key, final Runnable again) {
        final OrderEntrySession entry = session.orderEntry();
        final String[] keys = parsed.clientOrderId() == null ? NO_KEYS : new String[] {"c:" + parsed.clientOrderId()};
        if (entry.holdIfBusy(keys, again)) {
            return;     // a place of the same clientOrderId is in flight: this one is answered after it, as a retry
        }
        final String bound = entry.accountId();
        PlaceOrder order = parsed;
        if (bound != null) {
            if (order.accountId() == null) {
                order = order.withAccount(bound);
            } else if (!order.accountId().equals(bound)) {
                access.accountMismatch();
                throw new ApiError(403, "ACCOUNT_MISMATCH", "accountId '" + order.accountId() + "' is not the account"
                        + " this connection logged in for (" + bound + ")", "accountId").toException();
            }
        }
        final long requestId = pending.nextRequestId();
        final boolean taken = input.tryPlace(order, requestId, loop, tag, remote(session), key.keyId(),
                entry.session());
        if (taken) {
            entry.placedOne();
        }
        send(session, id, requestId, CommandType.PLACE, taken, keys);
    }

    private void cancel(final StreamSession session, final JsonNode root, final String id, final String tag,
                        final ApiKey key, final Runnable again) {
        StreamFields.unknownFields(root, CANCEL_FIELDS);
        final Target target = target(root, key, session.orderEntry().accountId());
        if (session.orderEntry().holdIfBusy(target.keys(), again)) {
            return;
        }
        final long orderId = owned(target, key);
        final long requestId = pending.nextRequestId();
        send(session, id, requestId, CommandType.CANCEL, input.tryCancel(orderId, requestId, loop, tag,
                remote(session), key.keyId(), key.account()), target.keys());
    }

    private void amend(final StreamSession session, final JsonNode root, final String id, final String tag,
                       final ApiKey key, final Runnable again) {
        final Target target = target(root, key, session.orderEntry().accountId());
        if (session.orderEntry().holdIfBusy(target.keys(), again)) {
            return;
        }
        final long orderId = owned(target, key);
        final OrderState order = view.get(orderId);
        if (order == null) {
            throw notFound(orderId).toException();
        }
        final OrderRequestParser.AmendOrder amend = parser.parseAmend(root, parser.instrument(order.symbol()),
                AMEND_FIELDS);
        final long requestId = pending.nextRequestId();
        send(session, id, requestId, CommandType.AMEND, input.tryAmend(orderId, amend.price(), amend.quantity(),
                requestId, loop, tag, remote(session), key.keyId(), order.accountId()), target.keys());
    }

    private void cancelAll(final StreamSession session, final JsonNode root, final String id, final String tag,
                           final ApiKey key) {
        StreamFields.unknownFields(root, CANCEL_ALL_FIELDS);
        final String named = StreamFields.optionalText(root, "accountId");
        final String own = key != AccessControl.OPEN ? key.account() : session.orderEntry().accountId();
        final String accountId;
        if (own != null) {
            if (named != null && !named.equals(own)) {
                access.accountMismatch();
                throw new ApiError(403, "ACCOUNT_MISMATCH", "accountId '" + named + "' is not the account of this"
                        + " connection (" + own + ")", "accountId").toException();
            }
            accountId = own;
        } else {
            if (named == null) {
                throw ApiError.badRequest("MISSING_FIELD", "accountId is required: authentication is off"
                        + " (ORDERS_AUTH=none)", "accountId").toException();
            }
            if (!OrderRequestParser.ACCOUNT_ID.matcher(named).matches()) {
                throw ApiError.badRequest("INVALID_ACCOUNT_ID", "accountId must be 1-64 of [A-Za-z0-9_-]",
                        "accountId").toException();
            }
            accountId = named;
        }
        final String symbolName = StreamFields.optionalText(root, "symbol");
        int symbol = -1;
        if (symbolName != null) {
            final Instrument instrument = parser.instrument(symbolName);
            if (instrument == null) {
                throw ApiError.unprocessable("UNKNOWN_SYMBOL", "symbol '" + symbolName + "' is not traded here; see"
                        + " GET /api/v1/symbols", "symbol").toException();
            }
            symbol = instrument.index();
        }
        final long requestId = pending.nextRequestId();
        send(session, id, requestId, CommandType.CANCEL_ALL, input.tryCancelAll(accountId, symbol,
                RejectReason.CANCEL_ALL, requestId, loop, tag, remote(session), key.keyId()), NO_KEYS);
    }

    /**
     * The order a cancel or an amend names.
     *
     * @param orderId       the order's id: the one named, or the one the clientOrderId resolved to; 0 when the
     *                      clientOrderId names no order the view holds (yet: its place may be in flight)
     * @param clientOrderId the clientOrderId named, or null
     * @param keys          the keys of the order (see {@link OrderEntrySession})
     */
    private record Target(long orderId, String clientOrderId, String[] keys) {
    }

    /** @return the order a cancel or an amend names by {@code orderId} or {@code clientOrderId} (exactly one) */
    private Target target(final JsonNode root, final ApiKey key, final String bound) {
        final JsonNode byId = root.get("orderId");
        final JsonNode byClientId = root.get("clientOrderId");
        final boolean hasId = byId != null && !byId.isNull();
        final boolean hasClientId = byClientId != null && !byClientId.isNull();
        if (hasId == hasClientId) {
            throw ApiError.badRequest("MISSING_FIELD", "name the order by orderId or by clientOrderId (one of them)",
                    "orderId").toException();
        }
        if (hasId) {
            if (!byId.isIntegralNumber() || !byId.canConvertToLong() || byId.asLong() <= 0) {
                throw ApiError.badRequest("INVALID_ORDER_ID", "orderId must be a positive integer", "orderId")
                        .toException();
            }
            return new Target(byId.asLong(), null, new String[] {"i:" + byId.asLong()});
        }
        if (!byClientId.isTextual() || !OrderRequestParser.CLIENT_ORDER_ID.matcher(byClientId.textValue()).matches()) {
            throw ApiError.badRequest("INVALID_CLIENT_ORDER_ID", "clientOrderId must be 1-64 of [A-Za-z0-9_.:-]",
                    "clientOrderId").toException();
        }
        final String account = key != AccessControl.OPEN ? key.account() : bound;
        if (account == null) {
            throw ApiError.badRequest("INVALID_CLIENT_ORDER_ID", "with authentication off an order is named by"
                    + " clientOrderId only on a connection logged in with its accountId", "clientOrderId")
                    .toException();
        }
        final String clientOrderId = byClientId.textValue();
        final long orderId = view.orderIdOf(account, clientOrderId);
        return new Target(Math.max(0, orderId), clientOrderId, orderId > 0
                ? new String[] {"c:" + clientOrderId, "i:" + orderId} : new String[] {"c:" + clientOrderId});
    }

    /**
     * @return the target's order id, which must be one the view holds of the key's account (another's, or an unknown
     *     one, is answered as unknown, as over REST)
     */
    private long owned(final Target target, final ApiKey key) {
        if (target.orderId() <= 0) {
            throw new ApiError(404, "ORDER_NOT_FOUND", "no order with clientOrderId '" + target.clientOrderId() + "'",
                    "clientOrderId").toException();
        }
        if (key != AccessControl.OPEN) {
            final OrderState order = view.get(target.orderId());
            if (order == null || !key.account().equals(order.accountId())) {
                // another account's order, or one the view no longer holds: as an unknown id, never sent
                throw notFound(target.orderId()).toException();
            }
        }
        return target.orderId();
    }

    /** Makes the command wait for its answer, or answers 503 when the input ring did not take it. */
    private void send(final StreamSession session, final String id, final long requestId, final CommandType type,
                      final boolean taken, final String[] keys) {
        if (!taken) {
            answer(session, input.closed()
                    ? results.unavailable(id, "NOT_ACCEPTING", "the service is stopping and not accepting orders")
                    : results.unavailable(id, "OVERLOADED", "the input ring is full; retry shortly"));
            return;
        }
        final OrderEntrySession entry = session.orderEntry();
        entry.sent(keys);
        pending.await(requestId, new Waiting(session, entry, id, keys));
    }

    /** One command of a session waiting for the engine, and the keys of the orders it concerns. */
    private final class Waiting implements ReplyWaiter {
        private final StreamSession session;
        private final OrderEntrySession entry;
        private final String id;
        private final String[] keys;

        Waiting(final StreamSession session, final OrderEntrySession entry, final String id, final String[] keys) {
            this.session = session;
            this.entry = entry;
            this.id = id;
            this.keys = keys;
        }

        @Override
        public void replied(final Reply reply) {
            session.sendAnswer(results.replied(id, reply, StreamFrames.TEXT_FRAME));
            entry.answered(keys);      // after the answer: what was held behind it comes after it
        }

        @Override
        public void unavailable(final String code, final String message) {
            answer(session, results.unavailable(id, code, message));
            entry.answered(keys);
        }
    }

    /** Sends a result rendered as a Vert.x buffer (refusals); the engine's answers are framed at once. */
    private static void answer(final StreamSession session, final Buffer result) {
        session.sendAnswer(result);
    }

    private static String remote(final StreamSession session) {
        return session.remoteText();
    }

    private static ApiError notFound(final long orderId) {
        return new ApiError(404, "ORDER_NOT_FOUND", "no order " + orderId, "orderId");
    }
}
