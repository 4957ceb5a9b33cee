package io.orderentry.http;

import io.orderentry.http.rest.BalanceRoutes;
import io.orderentry.http.rest.BatchCommands;
import io.orderentry.http.rest.OrderCommands;
import io.orderentry.http.rest.OrderQueries;
import io.orderentry.http.rest.PendingReplies;
import io.orderentry.http.rest.PlaceFastPath;
import io.orderentry.http.stream.MarketDataRoutes;
import io.orderentry.pipeline.CommandType;
import io.orderentry.query.OrderStateView;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;

/**
 * The HTTP server of one event loop: its options, its route table, and the dispatch of each request. One instance per
 * event loop; all instances share the port. The routes' work is done by classes of their own: order commands
 * ({@link OrderCommands}, which publish into the input ring and wait in {@link PendingReplies} for the reply stage to
 * hand back the engine's result), order queries ({@link OrderQueries}, served from the {@link OrderStateView} without
 * touching the rings), market data and the stream ({@link MarketDataRoutes}) and the operations endpoints
 * ({@link OpsRoutes}).
 *
 * <p>Every routed request passes the same chain of route handlers before its own: {@link RequestAdmission} (metrics,
 * request id, the body, a stop for a request a deadline answered), then per route {@link AccessCheck} (the key's
 * permission, or the budget of requests without one) and {@link ReadinessCheck} (ready, and for order commands the
 * audit trail writing).
 *
 * <p>Audit: every response carries an {@code X-Request-Id}; place and cancel requests refused at the edge (400,
 * 413, 422) are handed to the audit trail through {@link EdgeRefusals} and answered at once; accepted ones are
 * answered by the reply stage only after their audit record is written. While the audit trail cannot write,
 * place and cancel answer 503 {@code AUDIT_UNAVAILABLE}.
 *
 * <p>The hot path: {@code POST /api/v1/orders} is taken straight from the server's request handler, before the
 * router ({@link #dispatch}, {@link PlaceFastPath}); it goes through the same admission, access and readiness objects
 * without a routing context, a body handler or a per-request map. Every other request, including any other method or
 * spelling of that path, goes through the router.
 *
 * <p>Connections: admitted at accept, bounded in all and per address, held to a head and a body deadline, and given
 * back on one close path, by {@link ClientConnections}; a request's connection supplies its audit address.
 *
 * <p>Threads: everything runs on this verticle's event loop except {@link PendingReplies#deliver}, which the reply
 * thread calls and which only hops onto the event loop. Nothing here blocks.
 */
public final class OrderVerticle extends VerticleBase {

    /** Largest request body accepted; larger ones get 413. */
    public static final int MAX_BODY_BYTES = 16 * 1024;
    /** The orders resource; a POST on it is the hot path. */
    public static final String ORDERS_PATH = "/api/v1/orders";
    private static final String ORDER_PATH = "/api/v1/orders/:orderId";
    private static final String STREAM_PATH = "/api/v1/stream";
    private static final String BATCH_PATH = "/api/v1/orders/batch";

    private final int index;
    private final HttpParts settings;
    private final EdgeRefusals refusals;
    private final Responses responses;
    private final RequestAdmission admission;
    private ClientConnections clients;
    private RequestRefusals requestRefusals;
    private AccessCheck access;
    private MarketDataRoutes marketData;
    private PlaceFastPath fastPath;
    private Router router;

    /**
     * @param index this instance's number, from 0; replies are routed by it
     */
    public OrderVerticle(final int index, final HttpParts settings) {
        this.index = index;
        this.settings = settings;
        this.refusals = new EdgeRefusals(settings.input(), settings.json().mapper(), settings.status());
        this.responses = new Responses(settings.json());
        this.admission = new RequestAdmission(index, settings.httpMetrics());
    }

    @Override
    public Future<?> start() {
        clients = new ClientConnections(settings.clients(), settings.config(),
                request -> requestRefusals.bodyTimedOut(request));
        vertx.setPeriodic(1000, ignored -> clients.checkDeadlines());
        requestRefusals = new RequestRefusals(refusals, clients, responses, settings.config(), settings.log());
        access = new AccessCheck(settings.access(), refusals, clients, responses);
        final ReadinessCheck readiness = new ReadinessCheck(settings.status(), responses);
        final PendingReplies pending = new PendingReplies(index, settings, context, responses);
        pending.start(vertx);
        final OrderCommands commands = new OrderCommands(index, settings, pending, responses, refusals, clients);
        fastPath = new PlaceFastPath(admission, access, readiness, requestRefusals, commands);
        marketData = new MarketDataRoutes(index, vertx, context, settings, pending);
        marketData.start();
        final BatchCommands batches = new BatchCommands(index, settings, pending, responses, refusals, clients);
        router = routes(commands, batches, new OrderQueries(settings, responses), readiness,
                new OpsRoutes(settings, context, responses),
                new BalanceRoutes(index, settings, pending, responses, refusals, clients));
        return vertx.createHttpServer(serverOptions())
                .connectionHandler(connection -> clients.admit(connection))
                .invalidRequestHandler(requestRefusals::invalidRequest)
                .requestHandler(this::dispatch)
                .listen(settings.config().port(), settings.config().host());
    }

    /** The route table: each route's access and readiness handlers, then its own. */
    private Router routes(final OrderCommands commands, final BatchCommands batches, final OrderQueries queries,
                          final ReadinessCheck readiness, final OpsRoutes ops, final BalanceRoutes balances) {
        final Router routes = Router.router(vertx);
        routes.route().handler(admission::measure);
        routes.route().handler(admission::tag);
        routes.route().handler(BodyHandler.create(false).setBodyLimit(MAX_BODY_BYTES));
        routes.route().handler(admission::unlessAnswered);
        routes.post(ORDERS_PATH).handler(access.need(AccessControl.Need.ORDER, CommandType.PLACE, true))
                .handler(readiness::accepting).handler(commands::place);
        routes.get(ORDERS_PATH).handler(access.need(AccessControl.Need.READ, null, false))
                .handler(readiness::ready).handler(queries::openOrders);
        // the batch routes before the order's own, whose {orderId} would take "batch"
        routes.post(BATCH_PATH).handler(access.need(AccessControl.Need.ORDER, CommandType.PLACE, true))
                .handler(readiness::accepting).handler(batches::place);
        routes.delete(BATCH_PATH).handler(access.need(AccessControl.Need.ORDER, CommandType.CANCEL, true))
                .handler(readiness::accepting).handler(batches::cancel);
        routes.route(BATCH_PATH).handler(requestRefusals::methodNotAllowed);
        routes.get(ORDER_PATH).handler(access.need(AccessControl.Need.READ, null, false))
                .handler(readiness::ready).handler(queries::getOrder);
        routes.get(ORDER_PATH + "/fills").handler(access.need(AccessControl.Need.READ, null, false))
                .handler(readiness::ready).handler(queries::getFills);
        routes.delete(ORDER_PATH).handler(access.need(AccessControl.Need.ORDER, CommandType.CANCEL, false))
                .handler(readiness::accepting).handler(commands::cancel);
        routes.patch(ORDER_PATH).handler(access.need(AccessControl.Need.ORDER, CommandType.AMEND, true))
                .handler(readiness::accepting).handler(commands::amend);
        routes.delete(ORDERS_PATH).handler(access.need(AccessControl.Need.ORDER, CommandType.CANCEL_ALL, false))
                .handler(readiness::accepting).handler(commands::cancelAll);
        routes.post("/api/v1/cancel-all-after").handler(access.need(AccessControl.Need.ORDER, null, false))
                .handler(readiness::accepting).handler(commands::cancelAllAfter);
        routes.get("/api/v1/symbols").handler(access::anonymous).handler(queries::symbols);
        routes.get("/api/v1/orderbook/:symbol").handler(access::anonymous).handler(marketData::orderBook);
        routes.get("/api/v1/trades/:symbol").handler(access::anonymous).handler(marketData::trades);
        routes.get(STREAM_PATH).handler(access::anonymous).handler(marketData::stream);
        routes.get("/api/v1/openapi.yaml").handler(access::anonymous).handler(this::openApi);
        routes.get("/health").handler(ops::health);
        routes.get("/ready").handler(ops::ready);
        // /metrics: with ORDERS_AUTH_OPS=admin for admin keys only, else for anyone within the address's budget
        routes.get("/metrics").handler(settings.access().adminOnlyOps()
                ? access.need(AccessControl.Need.ADMIN, null, false) : access::anonymous).handler(ops::metrics);
        routes.post("/admin/snapshot").handler(access.need(AccessControl.Need.ADMIN, null, false))
                .handler(ops::snapshot);
        routes.get("/api/v1/balances").handler(access.need(AccessControl.Need.READ, null, false))
                .handler(readiness::ready).handler(balances::balances);
        routes.post("/admin/balances/:accountId").handler(access.need(AccessControl.Need.ADMIN, null, false))
                .handler(readiness::accepting).handler(balances::fund);
        routes.get("/admin/balances/:accountId").handler(access.need(AccessControl.Need.ADMIN, null, false))
                .handler(readiness::ready).handler(balances::accountBalances);
        routes.errorHandler(400, ctx -> requestRefusals.refuse(ctx, ApiError.badRequest("BAD_REQUEST",
                "the request is malformed", null)));
        routes.errorHandler(404, requestRefusals::notFound);
        routes.errorHandler(405, requestRefusals::methodNotAllowed);
        routes.errorHandler(413, ctx -> requestRefusals.refuse(ctx, RequestRefusals.BODY_TOO_LARGE));
        routes.errorHandler(500, requestRefusals::internalError);
        return routes;
    }

    private HttpServerOptions serverOptions() {
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
                .setIdleTimeout(settings.config().idleTimeoutSeconds());
        if (settings.tls() != null) {
            // HTTPS and WSS on the same port, HTTP/1.1 only (no ALPN): the same server, the same limits
            options.setSsl(true).setKeyCertOptions(new io.vertx.core.net.PemKeyCertOptions()
                    .setCertPath(settings.tls().tlsCert().toString()).setKeyPath(settings.tls().tlsKey().toString()));
        }
        return options;
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
            fastPath.handle(request);
        } else if (request.method() == HttpMethod.GET && STREAM_PATH.equals(request.path())
                && request.canUpgradeToWebSocket()) {
            admission.measure(request.response(), "GET", STREAM_PATH);
            admission.tag(request.response());
            if (access.admitAnonymous(request)) {
                marketData.stream(request, client, access.keyed(request), responses::fail);
            }
        } else {
            router.handle(request);
        }
    }

    private void openApi(final RoutingContext ctx) {
        ctx.response().setStatusCode(200).putHeader("Content-Type", "application/yaml").end(settings.openApi());
    }
}
