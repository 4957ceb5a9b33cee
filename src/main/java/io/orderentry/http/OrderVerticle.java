package io.orderentry.http;

import io.netty.buffer.ByteBufAllocator;
import io.orderentry.auth.ApiKey;
import io.orderentry.engine.CommandResult;
import io.orderentry.engine.RejectReason;
import io.orderentry.http.json.Json;
import io.orderentry.http.json.OrderJson;
import io.orderentry.http.rest.CancelAllAfterRequest;
import io.orderentry.http.stream.MarketDataRoutes;
import io.orderentry.http.rest.OrderRequestParser;
import io.orderentry.http.rest.PlaceOrder;
import io.orderentry.http.rest.Reply;
import io.orderentry.http.rest.ReplyTarget;
import io.orderentry.instrument.Instrument;
import io.orderentry.ops.HealthComponent;
import io.orderentry.ops.ServiceStatus;
import io.orderentry.pipeline.Answer;
import io.orderentry.pipeline.CommandType;
import io.orderentry.query.OrderState;
import io.orderentry.query.OrderStateView;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.VerticleBase;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletionException;

/**
 * The REST edge. One instance per event loop; all instances share the port. It validates at the
 * edge, publishes into the input ring and answers when the reply stage hands back the engine's
 * result. Reads are served from the {@link OrderStateView} without touching the rings.
 *
 * <p>Audit: every response carries an {@code X-Request-Id}; place and cancel requests refused at the edge (400,
 * 413, 422) are handed to the audit trail through {@link EdgeRefusals} and answered at once; accepted ones are
 * answered by the reply stage only after their audit record is written. While the audit trail cannot write,
 * place and cancel answer 503 {@code AUDIT_UNAVAILABLE}.
 *
 * <p>The hot path: {@code POST /api/v1/orders} is taken straight from the server's request handler, before the
 * router ({@link #dispatch}); it does what the router's handlers for it did (metrics, request id, a body of at
 * most {@value #MAX_BODY_BYTES} bytes, else 413) without a routing context, a body handler or a per-request map.
 * Every other request, including any other method or spelling of that path, goes through the router.
 *
 * <p>Connections: admitted at accept, bounded in all and per address, held to a head and a body deadline, and given
 * back on one close path, by {@link ClientConnections}; a request's connection supplies its audit address.
 *
 * <p>Threads: every method runs on this verticle's event loop except {@link #deliver}, which the
 * reply thread calls and which only hops onto the event loop. Nothing here blocks.
 */
public final class OrderVerticle extends VerticleBase implements ReplyTarget {

    /** Largest request body accepted; larger ones get 413. */
    public static final int MAX_BODY_BYTES = 16 * 1024;
    /** Most open orders one GET returns. */
    public static final int MAX_LIST_LIMIT = 1000;
    private static final String JSON_TYPE = "application/json";
    private static final String REQUEST_TAG = "requestTag";
    private static final String ORDERS_PATH = "/api/v1/orders";
    private static final String STREAM_PATH = "/api/v1/stream";
    private static final String CANCEL_ALL_AFTER_PATH = "/api/v1/cancel-all-after";
    private static final ApiError BODY_TOO_LARGE = new ApiError(413, "BODY_TOO_LARGE", "the body is over "
            + MAX_BODY_BYTES + " bytes", null);
    private static final ApiError INVALID_ORDER_ID = ApiError.badRequest("INVALID_ORDER_ID",
            "order id must be a positive integer", "orderId");

    private final int index;
    private final HttpSettings settings;
    private final Map<Long, HttpServerRequest> waiting = new HashMap<>();
    /** In cluster mode, the waiting requests in the order they were sent, for the answer timeout; else unused. */
    private final ArrayDeque<Sent> sentOrder = new ArrayDeque<>();
    private final EdgeRefusals refusals;
    private final AccessControl.Gate gate;
    private long nextRequestId;
    private long nextRequestTag;
    private Context eventLoop;
    private ClientConnections clients;
    private MarketDataRoutes marketData;
    private Router router;

    /**
     * @param index this instance's number, from 0; replies are routed by it
     */
    public OrderVerticle(final int index, final HttpSettings settings) {
        this.index = index;
        this.settings = settings;
        this.refusals = new EdgeRefusals(settings.input(), settings.json().mapper(), settings.status());
        this.gate = settings.access().gate();
    }

    @Override
    public Future<?> start() {
        eventLoop = context;
        clients = new ClientConnections(settings.clients(), settings.limits(), this::bodyTimedOut);
        vertx.setPeriodic(1000, ignored -> clients.checkDeadlines());
        final long answerTimeoutMillis = settings.limits().answerTimeoutMillis();
        if (answerTimeoutMillis > 0) {
            vertx.setPeriodic(Math.max(10, Math.min(100, answerTimeoutMillis / 4)),
                    ignored -> timeOutUnanswered(answerTimeoutMillis));
        }
        settings.replies().register(index, this);
        marketData = new MarketDataRoutes(index, vertx, context, settings);
        marketData.start();
        router = Router.router(vertx);
        router.route().handler(this::measure);
        router.route().handler(this::tag);
        router.route().handler(BodyHandler.create(false).setBodyLimit(MAX_BODY_BYTES));
        router.route().handler(this::unlessAnswered);
        router.post(ORDERS_PATH).handler(this::place);
        router.get("/api/v1/orders").handler(this::openOrders);
        router.get("/api/v1/orders/:orderId").handler(this::getOrder);
        router.get("/api/v1/orders/:orderId/fills").handler(this::getFills);
        router.delete("/api/v1/orders/:orderId").handler(this::cancel);
        router.patch("/api/v1/orders/:orderId").handler(this::amend);
        router.delete(ORDERS_PATH).handler(this::cancelAll);
        router.post(CANCEL_ALL_AFTER_PATH).handler(this::cancelAllAfter);
        router.get("/api/v1/symbols").handler(this::limitAnonymous).handler(this::symbols);
        router.get("/api/v1/orderbook/:symbol").handler(this::limitAnonymous).handler(marketData::orderBook);
        router.get("/api/v1/trades/:symbol").handler(this::limitAnonymous).handler(marketData::trades);
        router.get(STREAM_PATH).handler(this::limitAnonymous).handler(marketData::stream);
        router.get("/api/v1/openapi.yaml").handler(this::limitAnonymous).handler(this::openApi);
        router.get("/health").handler(this::health);
        router.get("/ready").handler(this::ready);
        router.get("/metrics").handler(this::metrics);
        router.post("/admin/snapshot").handler(this::snapshot);
        router.errorHandler(400, ctx -> refuse(ctx, ApiError.badRequest("BAD_REQUEST", "the request is malformed",
                null)));
        router.errorHandler(404, ctx -> fail(ctx.request(), new ApiError(404, "NOT_FOUND", "no such resource: "
                + ctx.request().path(), null)));
        router.errorHandler(405, ctx -> fail(ctx.request(), new ApiError(405, "METHOD_NOT_ALLOWED",
                ctx.request().method() + " is not allowed on " + ctx.request().path(), null)));
        router.errorHandler(413, ctx -> refuse(ctx, BODY_TOO_LARGE));
        router.errorHandler(500, this::internalError);
        vertx.setPeriodic(1000, id -> failWaitingIfStopped());
        // HTTP/1.1 only: with cleartext HTTP/2 on (Vert.x's default), a connection is set up, and counted by admit(),
        // only once its first bytes tell the two apart, so sockets that never send anything escaped the cap
        // WebSocket compression: permessage-deflate only (the stream compresses each update once for every client that
        // negotiated it, see PerMessageDeflate); the old per-frame extension is off, and a client that asks the server
        // not to keep its window between messages is accepted, since the stream never does
        final HttpServerOptions options = new HttpServerOptions().setTcpNoDelay(true).setHttp2ClearTextEnabled(false)
                .setPerFrameWebSocketCompressionSupported(false)
                .setPerMessageWebSocketCompressionSupported(settings.marketData().config().deflate())
                .setWebSocketAllowServerNoContext(true)
                // stream clients send small JSON requests: a larger frame or message closes the stream (1009), so a
                // client cannot make the server gather big messages (StreamInbound also bounds them once inflated)
                .setMaxWebSocketFrameSize(settings.marketData().config().input().maxMessageBytes())
                .setMaxWebSocketMessageSize(settings.marketData().config().input().maxMessageBytes())
                .setIdleTimeout(settings.limits().idleTimeoutSeconds());
        if (settings.tls() != null) {
            // HTTPS and WSS on the same port, HTTP/1.1 only (no ALPN): the same server, the same limits
            options.setSsl(true).setKeyCertOptions(new io.vertx.core.net.PemKeyCertOptions()
                    .setCertPath(settings.tls().tlsCert().toString()).setKeyPath(settings.tls().tlsKey().toString()));
        }
        return vertx.createHttpServer(options)
                .connectionHandler(connection -> clients.admit(connection))
                .invalidRequestHandler(this::invalidRequest)
                .requestHandler(this::dispatch)
                .listen(settings.port(), settings.host());
    }

    /**
     * Answers a request the HTTP decoder could not read (a request line or headers over the limits, a malformed
     * request) in the error shape, then closes the connection, as it cannot tell where the next request starts.
     */
    private void invalidRequest(final HttpServerRequest request) {
        final Throwable cause = request.decoderResult().cause();
        final ApiError error;
        if (cause instanceof io.netty.handler.codec.http.TooLongHttpHeaderException) {
            error = new ApiError(431, "HEADERS_TOO_LARGE", "the request's headers are over "
                    + HttpServerOptions.DEFAULT_MAX_HEADER_SIZE + " bytes", null);
        } else if (cause instanceof io.netty.handler.codec.http.TooLongHttpLineException) {
            error = new ApiError(414, "URI_TOO_LONG", "the request line is over "
                    + HttpServerOptions.DEFAULT_MAX_INITIAL_LINE_LENGTH + " bytes", null);
        } else {
            error = ApiError.badRequest("INVALID_HTTP", "the request is not valid HTTP/1.1"
                    + (cause == null ? "" : ": " + cause.getMessage()), null);
        }
        failAndClose(request, error);
    }

    /** Answers {@code error} and then closes the connection (its next request cannot be trusted or waited for). */
    private void failAndClose(final HttpServerRequest request, final ApiError error) {
        final HttpServerResponse response = request.response();
        if (response.ended() || response.closed()) {
            return;
        }
        final HttpConnection connection = request.connection();
        response.setStatusCode(error.status()).putHeader("Content-Type", JSON_TYPE).putHeader("Connection", "close")
                .end(settings.json().error(error, null)).onComplete(ignored -> connection.close());
    }

    /**
     * Takes {@code POST /api/v1/orders} and the stream's WebSocket upgrade itself (the stream writes frames to the
     * connection's own channel, which the router's wrapper of the socket hides); everything else goes to the router.
     */
    private void dispatch(final HttpServerRequest request) {
        final ClientConnection client = clients.of(request);
        if (client == null) {
            request.connection().close();   // its channel closed while the head was decoded
            return;
        }
        client.requestHead(request);
        if (request.method() == HttpMethod.POST && ORDERS_PATH.equals(request.path())) {
            new PlaceRequest(request).begin();
        } else if (request.method() == HttpMethod.GET && STREAM_PATH.equals(request.path())
                && request.canUpgradeToWebSocket()) {
            final long start = System.nanoTime();
            final HttpServerResponse response = request.response();
            response.headersEndHandler(ignored -> settings.httpMetrics().record("GET", STREAM_PATH,
                    response.getStatusCode(), System.nanoTime() - start));
            tag(response);
            if (!gate.admitAnonymous(request)) {
                fail(request, gate.refusal());
                return;
            }
            final boolean keyed = settings.access().enabled()
                    && gate.authenticate(request.getHeader(HttpHeaders.AUTHORIZATION)) != null;
            marketData.stream(request, client, keyed, this::fail);
        } else {
            router.handle(request);
        }
    }

    /** One {@code POST /api/v1/orders} taken without the router: metrics, request id, bounded body, then place. */
    private final class PlaceRequest implements Handler<Buffer> {
        private final HttpServerRequest request;
        private final long start = System.nanoTime();
        private final String tag;
        private byte[] body;
        private boolean refused;

        PlaceRequest(final HttpServerRequest request) {
            this.request = request;
            this.tag = tag(request.response());
        }

        void begin() {
            final HttpServerResponse response = request.response();
            response.headersEndHandler(ignored -> settings.httpMetrics().record("POST", ORDERS_PATH,
                    response.getStatusCode(), System.nanoTime() - start));
            final String length = request.getHeader(HttpHeaders.CONTENT_LENGTH);
            if (length != null && declaredTooLarge(length)) {
                tooLarge();
                return;
            }
            request.handler(this);
            request.endHandler(ignored -> {
                if (!refused && !request.response().ended()) {   // ended: answered 408 while the body came
                    place(request, tag, body == null ? new byte[0] : body);
                }
            });
        }

        @Override
        public void handle(final Buffer chunk) {
            if (refused) {
                return;
            }
            final int had = body == null ? 0 : body.length;
            if (had + chunk.length() > MAX_BODY_BYTES) {
                tooLarge();
                return;
            }
            if (body == null) {
                body = chunk.getBytes();
            } else {
                final byte[] joined = Arrays.copyOf(body, had + chunk.length());
                chunk.getBytes(0, chunk.length(), joined, had);
                body = joined;
            }
        }

        private void tooLarge() {
            refused = true;
            refusals.publish(tag, remote(request), CommandType.PLACE, BODY_TOO_LARGE, null, 0);
            fail(request, BODY_TOO_LARGE);
        }

        private static boolean declaredTooLarge(final String length) {
            try {
                return Long.parseLong(length.trim()) > MAX_BODY_BYTES;
            } catch (final NumberFormatException e) {
                return false;   // not a length: read the body and let its real size decide
            }
        }
    }

    private void measure(final RoutingContext ctx) {
        final long start = System.nanoTime();
        ctx.addHeadersEndHandler(ignored -> settings.httpMetrics().record(ctx.request().method().name(),
                ctx.currentRoute() == null || ctx.currentRoute().getPath() == null ? "unmatched"
                        : ctx.currentRoute().getPath(), ctx.response().getStatusCode(), System.nanoTime() - start));
        ctx.next();
    }

    /** Gives the request its id, in the response header and for the audit trail. */
    private void tag(final RoutingContext ctx) {
        ctx.put(REQUEST_TAG, tag(ctx.response()));
        ctx.next();
    }

    /** @return a new request id, already set as the response's {@link RequestIds#HEADER} */
    private String tag(final HttpServerResponse response) {
        final String tag = RequestIds.of(index, ++nextRequestTag);
        response.putHeader(RequestIds.HEADER, tag);
        return tag;
    }

    /** The router's route for the path spellings {@link #dispatch} leaves to it (a trailing slash). */
    private void place(final RoutingContext ctx) {
        place(ctx.request(), ctx.get(REQUEST_TAG), ctx.body().buffer() == null ? new byte[0]
                : ctx.body().buffer().getBytes());
    }

    private void place(final HttpServerRequest request, final String tag, final byte[] body) {
        final ApiKey key = gate.admit(request, AccessControl.Need.ORDER);
        if (key == null) {
            refuseAccess(request, tag, CommandType.PLACE, body, 0);
            return;
        }
        if (refuseUnlessAccepting(request)) {
            return;
        }
        PlaceOrder order;
        try {
            order = settings.parser().parse(body, key == AccessControl.OPEN);
        } catch (final ApiException e) {
            refusals.publish(tag, remote(request), CommandType.PLACE, e.error(), body, 0, key.keyId(), key.account());
            fail(request, e.error());
            return;
        }
        if (key != AccessControl.OPEN) {
            if (order.accountId() == null) {
                order = order.withAccount(key.account());
            } else if (!order.accountId().equals(key.account())) {
                final ApiError mismatch = accountMismatch(order.accountId(), key);
                refusals.publish(tag, remote(request), CommandType.PLACE, mismatch, body, 0, key.keyId(), key.account());
                fail(request, mismatch);
                return;
            }
        }
        final long requestId = ++nextRequestId;
        if (!settings.input().tryPlace(order, requestId, index, tag, remote(request), key.keyId())) {
            overloaded(request);
            return;
        }
        await(requestId, request);
    }

    private void cancel(final RoutingContext ctx) {
        final ApiKey key = gate.admit(ctx.request(), AccessControl.Need.ORDER);
        if (key == null) {
            refuseAccess(ctx.request(), ctx.get(REQUEST_TAG), CommandType.CANCEL, null, 0);
            return;
        }
        if (refuseUnlessAccepting(ctx.request())) {
            return;
        }
        final long orderId = orderId(ctx);
        if (orderId <= 0) {
            refusals.publish(ctx.get(REQUEST_TAG), remote(ctx.request()), CommandType.CANCEL, INVALID_ORDER_ID, null, 0,
                    key.keyId(), key.account());
            return;
        }
        if (key != AccessControl.OPEN && !owns(key, settings.view().get(orderId))) {
            // another account's order, or one the view no longer holds (it could not be shown to be the key's):
            // answered exactly as an unknown id, and never sent to the engine
            refusals.publish(ctx.get(REQUEST_TAG), remote(ctx.request()), CommandType.CANCEL, notFound(orderId), null,
                    orderId, key.keyId(), key.account());
            fail(ctx.request(), notFound(orderId));
            return;
        }
        final long requestId = ++nextRequestId;
        if (!settings.input().tryCancel(orderId, requestId, index, ctx.get(REQUEST_TAG), remote(ctx.request()),
                key.keyId(), key.account())) {
            overloaded(ctx.request());
            return;
        }
        await(requestId, ctx.request());
    }

    /** {@code PATCH /api/v1/orders/{orderId}}: a new total quantity and/or price (API.md, "Order operations"). */
    private void amend(final RoutingContext ctx) {
        final HttpServerRequest request = ctx.request();
        final String tag = ctx.get(REQUEST_TAG);
        final byte[] body = ctx.body().buffer() == null ? new byte[0] : ctx.body().buffer().getBytes();
        final ApiKey key = gate.admit(request, AccessControl.Need.ORDER);
        if (key == null) {
            refuseAccess(request, tag, CommandType.AMEND, body, 0);
            return;
        }
        if (refuseUnlessAccepting(request)) {
            return;
        }
        final long orderId = orderId(ctx);
        if (orderId <= 0) {
            refusals.publish(tag, remote(request), CommandType.AMEND, INVALID_ORDER_ID, body, 0, key.keyId(),
                    key.account());
            return;
        }
        // the view holds every open order, so an order it does not hold cannot be amended; one of another account is
        // answered exactly as an unknown id, and neither reaches the engine
        final OrderState order = settings.view().get(orderId);
        if (order == null || !owns(key, order)) {
            refusals.publish(tag, remote(request), CommandType.AMEND, notFound(orderId), body, orderId, key.keyId(),
                    key.account());
            fail(request, notFound(orderId));
            return;
        }
        final OrderRequestParser.AmendOrder amend;
        try {
            amend = settings.parser().parseAmend(body, settings.parser().instrument(order.symbol()));
        } catch (final ApiException e) {
            refusals.publish(tag, remote(request), CommandType.AMEND, e.error(), body, orderId, key.keyId(),
                    key.account());
            fail(request, e.error());
            return;
        }
        final long requestId = ++nextRequestId;
        if (!settings.input().tryAmend(orderId, amend.price(), amend.quantity(), requestId, index, tag,
                remote(request), key.keyId(), order.accountId())) {
            overloaded(request);
            return;
        }
        await(requestId, request);
    }

    /** {@code DELETE /api/v1/orders[?symbol=][&accountId=]}: every open order of the account, in one command. */
    private void cancelAll(final RoutingContext ctx) {
        final HttpServerRequest request = ctx.request();
        final String tag = ctx.get(REQUEST_TAG);
        final ApiKey key = gate.admit(request, AccessControl.Need.ORDER);
        if (key == null) {
            refuseAccess(request, tag, CommandType.CANCEL_ALL, null, 0);
            return;
        }
        if (refuseUnlessAccepting(request)) {
            return;
        }
        final String accountId = accountOf(ctx, key, request.getParam("accountId"));
        if (accountId == null) {
            return;
        }
        final String symbolName = request.getParam("symbol");
        int symbol = -1;
        if (symbolName != null) {
            final Instrument instrument = settings.parser().instrument(symbolName);
            if (instrument == null) {
                final ApiError unknown = ApiError.unprocessable("UNKNOWN_SYMBOL", "symbol '" + symbolName
                        + "' is not traded here; see GET /api/v1/symbols", "symbol");
                refusals.publish(tag, remote(request), CommandType.CANCEL_ALL, unknown, null, 0, key.keyId(),
                        accountId);
                fail(request, unknown);
                return;
            }
            symbol = instrument.index();
        }
        final long requestId = ++nextRequestId;
        if (!settings.input().tryCancelAll(accountId, symbol, RejectReason.CANCEL_ALL, requestId,
                index, tag, remote(request), key.keyId())) {
            overloaded(request);
            return;
        }
        await(requestId, request);
    }

    /**
     * {@code POST /api/v1/cancel-all-after} {@code {"timeoutSeconds":60}}: arms (0: disarms) the account's dead man's
     * switch; answers {@code {"triggerAt":...}} (null when disarmed).
     */
    private void cancelAllAfter(final RoutingContext ctx) {
        final HttpServerRequest request = ctx.request();
        final ApiKey key = gate.admit(request, AccessControl.Need.ORDER);
        if (key == null) {
            refuseAccess(request, ctx.get(REQUEST_TAG), null, null, 0);
            return;
        }
        if (refuseUnlessAccepting(request)) {
            return;
        }
        final CancelAllAfterRequest parsed;
        try {
            parsed = CancelAllAfterRequest.parse(settings.json().mapper(),
                    ctx.body().buffer() == null ? new byte[0] : ctx.body().buffer().getBytes());
        } catch (final ApiException e) {
            fail(request, e.error());
            return;
        }
        final String accountId = accountOf(ctx, key, parsed.accountId());
        if (accountId == null) {
            return;
        }
        final java.time.Instant triggerAt = settings.deadMansSwitch().arm(accountId, parsed.timeoutSeconds(),
                key.keyId());
        respond(request, 200, Buffer.buffer(triggerAt == null ? "{\"triggerAt\":null,\"timeoutSeconds\":0}"
                : "{\"triggerAt\":\"" + Json.timestamp(triggerAt.getEpochSecond() * 1_000_000L + triggerAt.getNano() / 1_000)
                + "\",\"timeoutSeconds\":" + parsed.timeoutSeconds()
                + "}"));
    }

    /**
     * @return the account a request acts for: the key's (a named one must be it: else 403 ACCOUNT_MISMATCH), or with
     *         authentication off the named one (required); null when the request was answered with an error
     */
    private String accountOf(final RoutingContext ctx, final ApiKey key, final String named) {
        if (key != AccessControl.OPEN) {
            if (named == null || named.equals(key.account())) {
                return key.account();
            }
            fail(ctx.request(), accountMismatch(named, key));
            return null;
        }
        if (named == null) {
            fail(ctx.request(), ApiError.badRequest("MISSING_PARAMETER", "accountId is required", "accountId"));
            return null;
        }
        if (!OrderRequestParser.ACCOUNT_ID.matcher(named).matches()) {
            fail(ctx.request(), ApiError.badRequest("INVALID_ACCOUNT_ID", "accountId must be 1-64 of [A-Za-z0-9_-]",
                    "accountId"));
            return null;
        }
        return named;
    }

    private void getOrder(final RoutingContext ctx) {
        final ApiKey key = gate.admit(ctx.request(), AccessControl.Need.READ);
        if (key == null) {
            refuseAccess(ctx.request(), ctx.get(REQUEST_TAG), null, null, 0);
            return;
        }
        if (refuseUnlessReady(ctx.request())) {
            return;
        }
        final long orderId = orderId(ctx);
        if (orderId <= 0) {
            return;
        }
        final OrderState order = settings.view().get(orderId);
        if (order == null || !owns(key, order)) {
            fail(ctx.request(), notFound(orderId));
            return;
        }
        respond(ctx.request(), 200, settings.json().order(order));
    }

    /**
     * {@code GET /api/v1/orders/{orderId}/fills?offset=0&limit=1000}: the order's fills, oldest first, a page at a time
     * (an answer carries at most {@value OrderJson#MAX_FILLS_PER_ANSWER}; one order can sweep many more makers).
     */
    private void getFills(final RoutingContext ctx) {
        final ApiKey key = gate.admit(ctx.request(), AccessControl.Need.READ);
        if (key == null) {
            refuseAccess(ctx.request(), ctx.get(REQUEST_TAG), null, null, 0);
            return;
        }
        if (refuseUnlessReady(ctx.request())) {
            return;
        }
        final long orderId = orderId(ctx);
        if (orderId <= 0) {
            return;
        }
        final long offset = longParam(ctx, "offset", 0, 0, Integer.MAX_VALUE);
        final long limit = longParam(ctx, "limit", OrderJson.MAX_FILLS_PER_ANSWER, 1, OrderJson.MAX_FILLS_PER_ANSWER);
        if (offset < 0 || limit < 0) {
            return;
        }
        final OrderState order = settings.view().get(orderId);
        if (order == null || !owns(key, order)) {
            fail(ctx.request(), notFound(orderId));
            return;
        }
        respond(ctx.request(), 200, settings.json().fills(order, (int) offset, (int) limit));
    }

    private void openOrders(final RoutingContext ctx) {
        final ApiKey key = gate.admit(ctx.request(), AccessControl.Need.READ);
        if (key == null) {
            refuseAccess(ctx.request(), ctx.get(REQUEST_TAG), null, null, 0);
            return;
        }
        if (refuseUnlessReady(ctx.request())) {
            return;
        }
        String accountId = ctx.request().getParam("accountId");
        if (key != AccessControl.OPEN) {
            if (accountId == null) {
                accountId = key.account();
            } else if (!accountId.equals(key.account())) {
                fail(ctx.request(), accountMismatch(accountId, key));
                return;
            }
        }
        if (accountId == null) {
            fail(ctx.request(), ApiError.badRequest("MISSING_PARAMETER", "accountId is required", "accountId"));
            return;
        }
        if (!OrderRequestParser.ACCOUNT_ID.matcher(accountId).matches()) {
            fail(ctx.request(), ApiError.badRequest("INVALID_ACCOUNT_ID", "accountId must be 1-64 of [A-Za-z0-9_-]",
                    "accountId"));
            return;
        }
        final long limit = longParam(ctx, "limit", MAX_LIST_LIMIT, 1, MAX_LIST_LIMIT);
        final long after = longParam(ctx, "afterOrderId", 0, 0, Long.MAX_VALUE);
        if (limit < 0 || after < 0) {
            return;
        }
        respond(ctx.request(), 200, settings.json().orders(settings.view().openOrders(accountId, after, (int) limit)));
    }

    /** Takes a token of the address's budget for requests without a key; answers 429 when there is none. */
    private void limitAnonymous(final RoutingContext ctx) {
        if (gate.admitAnonymous(ctx.request())) {
            ctx.next();
        } else {
            fail(ctx.request(), gate.refusal());
        }
    }

    /**
     * Answers the refusal of the last {@link AccessControl.Gate#admit} (401, 403 or 429) and audits it: every
     * failed authentication (of a read too, with no action) and every order command refused for its permission. A
     * 429 is only counted: a rate-limited request never reaches the input ring, not even as an audit record.
     *
     * @param action PLACE or CANCEL for order commands, null for reads and the operations endpoints
     */
    private void refuseAccess(final HttpServerRequest request, final String tag, final CommandType action,
                              final byte[] body, final long orderId) {
        final ApiError error = gate.refusal();
        if (error.status() != 429 && (action != null || error.status() == 401)) {
            final ApiKey known = gate.refusedKeyId() == null ? null : settings.access().keys().byId(gate.refusedKeyId());
            refusals.publish(tag, remote(request), action, action != null ? error : new ApiError(error.status(),
                    error.code(), request.method().name() + " " + request.path() + ": " + error.message(), error.field()),
                    body, orderId, gate.refusedKeyId(), known == null ? null : known.account());
        }
        fail(request, error);
    }

    /** @return whether the key may see the order: authentication is off, or the order is the key's account's */
    private static boolean owns(final ApiKey key, final OrderState order) {
        return key == AccessControl.OPEN || order != null && key.account().equals(order.accountId());
    }

    private ApiError accountMismatch(final String named, final ApiKey key) {
        settings.access().accountMismatch();
        return new ApiError(403, "ACCOUNT_MISMATCH", "accountId '" + named + "' is not the account of this API key ("
                + key.account() + ")", "accountId");
    }

    private void symbols(final RoutingContext ctx) {
        respond(ctx.request(), 200, settings.json().symbols());
    }

    private void openApi(final RoutingContext ctx) {
        ctx.response().setStatusCode(200).putHeader("Content-Type", "application/yaml").end(settings.openApi());
    }

    /** UP while the process can take orders or may again by itself; DOWN (503) when only a restart helps. */
    private void health(final RoutingContext ctx) {
        final String reason = settings.status().unrecoverable();
        if (reason == null) {
            respond(ctx.request(), 200, Buffer.buffer("{\"status\":\"UP\"}"));
            return;
        }
        final Map<String, Object> body = new LinkedHashMap<>();
        body.put("status", "DOWN");
        body.put("reason", reason);
        respond(ctx.request(), 503, settings.json().write(g -> settings.json().mapper().writeValue(g, body)));
    }

    private void ready(final RoutingContext ctx) {
        final ServiceStatus status = settings.status();
        final Map<String, Object> body = new LinkedHashMap<>();
        final Map<String, Object> parts = new LinkedHashMap<>();
        boolean up = status.phase() == ServiceStatus.Phase.READY;
        final Map<String, Object> engine = new LinkedHashMap<>();
        engine.put("status", status.phase() == ServiceStatus.Phase.READY ? "UP" : status.phase().name());
        if (status.failure() != null) {
            engine.put("failure", status.failure());
        }
        parts.put("engine", engine);
        for (final HealthComponent component : status.components()) {
            final Map<String, Object> part = new LinkedHashMap<>();
            part.put("status", component.up() ? "UP" : "DOWN");
            part.putAll(component.details());
            parts.put(component.name(), part);
            up &= component.up() || !component.required();
        }
        if (!up) {
            ctx.response().putHeader("Retry-After", "1");
        }
        if (settings.access().adminOnlyOps() && !settings.access().isAdmin(ctx.request())) {
            // the parts' details are for operators (ORDERS_AUTH_OPS=admin): others learn only whether it is ready
            respond(ctx.request(), up ? 200 : 503, Buffer.buffer(up ? "{\"status\":\"UP\"}" : "{\"status\":\"DOWN\"}"));
            return;
        }
        body.put("status", up ? "UP" : "DOWN");
        if (!settings.access().enabled()) {
            body.put("warnings", List.of("authentication is off (ORDERS_AUTH=none): anyone who can reach this port may"
                    + " place, cancel and read orders of any account"));
        }
        body.put("components", parts);
        respond(ctx.request(), up ? 200 : 503, settings.json().write(g -> settings.json().mapper().writeValue(g, body)));
    }

    /**
     * {@code GET /metrics}: with {@code ORDERS_AUTH_OPS=admin} for admin keys only, else for anyone within the
     * per-address budget of requests without a key; the rendering is at most {@code ORDERS_HTTP_METRICS_CACHE_MILLIS}
     * old, so scrapes cannot keep the event loops rendering.
     */
    private void metrics(final RoutingContext ctx) {
        if (settings.access().adminOnlyOps()) {
            if (gate.admit(ctx.request(), AccessControl.Need.ADMIN) == null) {
                refuseAccess(ctx.request(), ctx.get(REQUEST_TAG), null, null, 0);
                return;
            }
        } else if (!gate.admitAnonymous(ctx.request())) {
            fail(ctx.request(), gate.refusal());
            return;
        }
        ctx.response().setStatusCode(200).putHeader("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
                .end(settings.metrics().scrape(settings.limits().metricsCacheMillis()));
    }

    /** Writes a snapshot now (README, "Snapshots") and answers once it is on disk. */
    private void snapshot(final RoutingContext ctx) {
        final HttpServerRequest request = ctx.request();
        if (gate.admit(request, AccessControl.Need.ADMIN) == null) {
            refuseAccess(request, ctx.get(REQUEST_TAG), null, null, 0);
            return;
        }
        settings.snapshots().snapshot().whenComplete((details, failure) -> eventLoop.runOnContext(ignored -> {
            if (failure == null) {
                respond(request, 200, settings.json().write(g -> settings.json().mapper().writeValue(g, details)));
                return;
            }
            final Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                    ? failure.getCause() : failure;
            if (cause instanceof IllegalStateException) {
                fail(request, new ApiError(409, "SNAPSHOT_UNAVAILABLE", cause.getMessage(), null));
            } else {
                settings.log().error("the snapshot asked for by POST /admin/snapshot failed", cause);
                fail(request, new ApiError(500, "SNAPSHOT_FAILED", "the snapshot could not be written: "
                        + cause.getMessage(), null));
            }
        }));
    }

    /** Called on the reply thread; hops onto this verticle's event loop. */
    @Override
    public void deliver(final List<Reply> replies) {
        eventLoop.runOnContext(ignored -> {
            for (int i = 0; i < replies.size(); i++) {
                complete(replies.get(i));
            }
        });
    }

    private void complete(final Reply reply) {
        final HttpServerRequest request = waiting.remove(reply.requestId());
        if (request == null) {
            if (settings.limits().answerTimeoutMillis() > 0) {
                settings.status().lateAnswer();   // answered 503 OUTCOME_UNKNOWN already: the client retries
                return;
            }
            throw new IllegalStateException("reply for request " + reply.requestId() + " that nobody waits for");
        }
        settings.status().requestAnswered();
        if (reply.journalFailed()) {
            unavailable(request, Answer.JOURNAL_UNAVAILABLE.code(), Answer.JOURNAL_UNAVAILABLE.message());
            return;
        }
        final CommandResult result = reply.result();
        final OrderState order = reply.order();
        final Answer answer = Answer.of(result, false, order != null);
        switch (answer.code() == null ? "" : answer.code()) {
            case "" -> {
                if (result == CommandResult.CANCELED_ALL) {
                    respond(request, answer.status(), settings.json().canceled(reply.canceled()));
                    return;
                }
                if (result == CommandResult.PLACED) {
                    request.response().putHeader("Location", "/api/v1/orders/" + reply.orderId());
                }
                DirectBody.respond(request, answer.status(), JSON_TYPE,
                        settings.json().order(order, ByteBufAllocator.DEFAULT));
            }
            case "INVALID_QUANTITY" -> fail(request, new ApiError(answer.status(), answer.code(), "quantity is the new"
                    + " total and must be above what order " + reply.orderId() + " has filled"
                    + (order == null ? "" : " (" + settings.parser().instrument(order.symbol())
                    .quantity(order.filledQuantity()).toPlainString() + ")"), "quantity"), order);
            case "PRICE_OUTSIDE_BAND" -> fail(request, new ApiError(answer.status(), answer.code(), "the new price is"
                    + " outside the instrument's price band around its reference price; the order is unchanged",
                    "price"), order);
            case "TOO_MANY_PRICE_LEVELS" -> fail(request, new ApiError(answer.status(), answer.code(), "the new price"
                    + " would open a price level beyond the book's maximum; the order is unchanged", "price"), order);
            case "ORDER_NOT_RETAINED" -> fail(request, new ApiError(answer.status(), answer.code(), "order "
                    + reply.orderId() + " is older than the retained window; its state is no longer held in memory",
                    null));
            case "DUPLICATE_CLIENT_ORDER_ID" -> fail(request, new ApiError(answer.status(), answer.code(),
                    "clientOrderId was already used by order " + reply.orderId() + " with other fields",
                    "clientOrderId"), order);
            case "ORDER_NOT_FOUND" -> fail(request, notFound(reply.orderId()));
            case "ORDER_NOT_OPEN" -> fail(request, new ApiError(answer.status(), answer.code(), "order "
                    + reply.orderId() + " is " + (order == null ? "final" : order.status().name())
                    + (reply.commandType() == CommandType.AMEND ? " and cannot be amended" : " and cannot be canceled"),
                    null), order);
            default -> throw new IllegalStateException("unhandled answer " + answer);
        }
    }

    /** Answers 503 unless the service is ready and the audit trail can write; @return true if it answered */
    private boolean refuseUnlessAccepting(final HttpServerRequest request) {
        if (refuseUnlessReady(request)) {
            return true;
        }
        if (settings.status().auditFailure() == null) {
            return false;
        }
        unavailable(request, "AUDIT_UNAVAILABLE", "the audit trail cannot be written; orders are not accepted");
        return true;
    }

    /** Answers a refusal of the router (400, 413) and audits it when it concerns an order command. */
    private void refuse(final RoutingContext ctx, final ApiError error) {
        final CommandType action = actionOf(ctx.request());
        if (action != null) {
            refusals.publish(ctx.get(REQUEST_TAG), remote(ctx.request()), action, error, null, 0);
        }
        fail(ctx.request(), error);
    }

    /** @return the order command a request asks for by its method and path, or null for any other request */
    private static CommandType actionOf(final HttpServerRequest request) {
        final String path = request.path();
        final boolean onOrder = path != null && path.startsWith("/api/v1/orders/");
        if (request.method() == HttpMethod.POST && ORDERS_PATH.equals(path)) {
            return CommandType.PLACE;
        } else if (request.method() == HttpMethod.DELETE && onOrder) {
            return CommandType.CANCEL;
        } else if (request.method() == HttpMethod.PATCH && onOrder) {
            return CommandType.AMEND;
        } else if (request.method() == HttpMethod.DELETE && ORDERS_PATH.equals(path)) {
            return CommandType.CANCEL_ALL;
        }
        return null;
    }

    /** @return the client's {@code host:port}, computed once per connection (it is in every audit record) */
    private String remote(final HttpServerRequest request) {
        final ClientConnection client = clients.of(request);
        return client != null ? client.remote() : RequestIds.remoteAddress(request.remoteAddress());
    }

    /**
     * A request whose body did not arrive whole in time ({@link ClientConnections}): answered {@code 408} (audited on
     * the order-entry routes) and its connection closed; one already answered (413, 401 before its body) is closed.
     */
    private void bodyTimedOut(final HttpServerRequest request) {
        if (request.response().ended()) {
            request.connection().close();
            return;
        }
        final ApiError error = new ApiError(408, "REQUEST_TIMEOUT", "the body did not arrive whole within "
                + settings.limits().bodyTimeoutSeconds() + " s", null);
        final CommandType action = actionOf(request);
        if (action != null) {
            refusals.publish(request.response().headers().get(RequestIds.HEADER), remote(request), action, error, null,
                    0);
        }
        failAndClose(request, error);
    }

    /** Stops a request the deadline answered while its body still came, before its route's handler acts on it. */
    private void unlessAnswered(final RoutingContext ctx) {
        if (!ctx.response().ended()) {
            ctx.next();
        }
    }

    private boolean refuseUnlessReady(final HttpServerRequest request) {
        final ServiceStatus.Phase phase = settings.status().phase();
        if (phase == ServiceStatus.Phase.READY) {
            return false;
        }
        unavailable(request, phase == ServiceStatus.Phase.RECOVERING ? "RECOVERING" : "NOT_ACCEPTING",
                "the service is " + phase.name().toLowerCase(Locale.ROOT) + " and not accepting orders");
        return true;
    }

    private void failWaitingIfStopped() {
        if (settings.status().phase() != ServiceStatus.Phase.FAILED || waiting.isEmpty()) {
            return;
        }
        final List<HttpServerRequest> stuck = new ArrayList<>(waiting.values());
        waiting.clear();
        for (final HttpServerRequest request : stuck) {
            settings.status().requestAnswered();
            unavailable(request, "ENGINE_FAILED", "the engine stopped; the outcome of this request is unknown, "
                    + "look the order up by clientOrderId after restart");
        }
    }

    private void await(final long requestId, final HttpServerRequest request) {
        waiting.put(requestId, request);
        settings.status().requestWaiting();
        if (settings.limits().answerTimeoutMillis() > 0) {
            sentOrder.addLast(new Sent(requestId, System.nanoTime()));
        }
    }

    /** A request sent into the cluster's log, and when. */
    private record Sent(long requestId, long nanos) {
    }

    /**
     * Cluster mode: answers {@code 503 OUTCOME_UNKNOWN} every request whose command has not come back from the log
     * within the timeout (sent to a leader that died before it committed the command, or stuck behind an election).
     * Whether it will yet be executed is unknown, so the client must retry with the same clientOrderId (or look the
     * order up), which finds the order if it was; its answer, if it comes, is then dropped and counted.
     */
    private void timeOutUnanswered(final long timeoutMillis) {
        final long now = System.nanoTime();
        while (!sentOrder.isEmpty() && now - sentOrder.peekFirst().nanos() > timeoutMillis * 1_000_000L) {
            final HttpServerRequest request = waiting.remove(sentOrder.pollFirst().requestId());
            if (request != null) {
                settings.status().requestAnswered();
                settings.status().answerTimedOut();
                unavailable(request, "OUTCOME_UNKNOWN", "the cluster did not confirm this command within "
                        + timeoutMillis + " ms (a leader change); it may or may not have been executed: retry with the"
                        + " same clientOrderId, or look the order up");
            }
        }
        while (!sentOrder.isEmpty() && !waiting.containsKey(sentOrder.peekFirst().requestId())) {
            sentOrder.pollFirst();   // answered in time
        }
    }

    private long orderId(final RoutingContext ctx) {
        final String text = ctx.pathParam("orderId");
        try {
            final long id = Long.parseLong(text);
            if (id > 0) {
                return id;
            }
        } catch (final NumberFormatException ignored) {
            // answered below: an id that is not a positive 64-bit integer
        }
        fail(ctx.request(), INVALID_ORDER_ID);
        return -1;
    }

    private long longParam(final RoutingContext ctx, final String name, final long fallback, final long min,
                           final long max) {
        final String text = ctx.request().getParam(name);
        if (text == null) {
            return fallback;
        }
        try {
            final long value = Long.parseLong(text);
            if (value >= min && value <= max) {
                return value;
            }
        } catch (final NumberFormatException ignored) {
            // answered below
        }
        fail(ctx.request(), ApiError.badRequest("INVALID_PARAMETER", name + " must be an integer from " + min + " to " + max,
                name));
        return -1;
    }

    private static ApiError notFound(final long orderId) {
        return new ApiError(404, "ORDER_NOT_FOUND", "no order " + orderId, "orderId");
    }

    /** Answers a command the input ring did not take: it is full, or the service began to stop meanwhile. */
    private void overloaded(final HttpServerRequest request) {
        if (settings.input().closed()) {
            unavailable(request, "NOT_ACCEPTING", "the service is stopping and not accepting orders");
            return;
        }
        unavailable(request, "OVERLOADED", "the input ring is full; retry shortly");
    }

    private void unavailable(final HttpServerRequest request, final String code, final String message) {
        request.response().putHeader("Retry-After", "1");
        fail(request, new ApiError(503, code, message, null));
    }

    private void internalError(final RoutingContext ctx) {
        settings.log().error("unhandled failure on " + ctx.request().method() + " " + ctx.request().path(),
                ctx.failure());
        fail(ctx.request(), new ApiError(500, "INTERNAL_ERROR", "internal error", null));
    }

    private void fail(final HttpServerRequest request, final ApiError error) {
        fail(request, error, null);
    }

    private void fail(final HttpServerRequest request, final ApiError error, final OrderState order) {
        respond(request, error.status(), settings.json().error(error, order));
    }

    private static void respond(final HttpServerRequest request, final int status, final Buffer body) {
        final HttpServerResponse response = request.response();
        if (response.ended() || response.closed()) {
            return;
        }
        response.setStatusCode(status).putHeader("Content-Type", JSON_TYPE).end(body);
    }
}
