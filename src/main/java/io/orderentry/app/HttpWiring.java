package io.orderentry.app;

import io.orderentry.account.AccountFeedStage;
import io.orderentry.account.CancelAllAfter;
import io.orderentry.account.DeadMansSwitch;
import io.orderentry.config.SettingNames;
import io.orderentry.engine.RejectReason;
import io.orderentry.http.ClientBounds;
import io.orderentry.http.ConnectionLimit;
import io.orderentry.http.HttpConfig;
import io.orderentry.http.HttpMetrics;
import io.orderentry.http.HttpParts;
import io.orderentry.http.OrderVerticle;
import io.orderentry.http.json.Json;
import io.orderentry.http.rest.InputGateway;
import io.orderentry.http.rest.OrderRequestParser;
import io.orderentry.http.rest.ReplyStage;
import io.orderentry.http.stream.MarketDataAccess;
import io.orderentry.http.stream.StreamFanOut;
import io.orderentry.http.stream.StreamMetrics;
import io.orderentry.marketdata.MarketDataStage;
import io.orderentry.ops.MetricsText;
import io.orderentry.ops.ServiceStatus;
import io.orderentry.ops.SnapshotTrigger;
import io.orderentry.query.OrderStateView;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts the HTTP edge into the service: authentication ({@link AuthWiring}), Vert.x and its verticles, the
 * once-a-second tick of the input gateway, the dead man's switch, and the bounds on what clients hold, each with its
 * figures in {@code /metrics}. It opens first at start so that {@code /health} and {@code /ready} answer (503) while
 * the service recovers, and the server closes last at stop so that the drained rings' answers are written.
 *
 * <p>Threads: {@link #start} and the close methods on the service's main thread (or the stopping one); the tick on a
 * Vert.x event loop; the switch's cancel-alls on its own timer.
 */
final class HttpWiring {

    /** The service's logger: its lines keep the name the logs have always shown. */
    private static final Logger LOG = LoggerFactory.getLogger(OrderEntryService.class);

    private final Config config;
    private final ServiceStatus status;
    private final MetricsText metrics;
    private final StreamMetrics streamMetrics;
    private AuthWiring auth;
    private Vertx vertx;
    private DeadMansSwitch deadMansSwitch;

    HttpWiring(final Config config, final ServiceStatus status, final MetricsText metrics,
               final StreamMetrics streamMetrics) {
        this.config = config;
        this.status = status;
        this.metrics = metrics;
        this.streamMetrics = streamMetrics;
    }

    /**
     * Opens authentication, starts Vert.x and deploys the verticles; returns once the port listens. On a failure the
     * parts already made stay here for {@link #closeServer} and the others.
     */
    void start(final OrderStateView view, final ReplyStage replies, final InputGateway gateway,
               final MarketDataStage marketData, final StreamFanOut streamFanOut, final AccountFeedStage orderFeeds,
               final SnapshotTrigger snapshotNow, final CancelAllAfter clusterSwitches) {
        auth = AuthWiring.open(config.auth(), config.http().host(), status, metrics);
        vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(config.http().instances()));
        // the refusals answered beyond the audit trail's per-second budget, recorded as one summary record a second;
        // and the tick that lets a failed journal or audit trail try again without waiting for a request
        vertx.setPeriodic(1000, ignored -> {
            gateway.recordSuppressedRefusals();
            gateway.tick();
        });
        final Json json = new Json(config.instruments(), config.tradingRules().priceBandBasisPoints(),
                config.assets());
        // a single node's switch that fires publishes a cancel-all like a client's, nobody waiting for its answer; a
        // cluster's switches are the log's, one per account for the whole cluster
        final CancelAllAfter switches;
        if (clusterSwitches != null) {
            switches = clusterSwitches;
        } else {
            deadMansSwitch = new DeadMansSwitch((account, keyId) -> gateway.tryCancelAll(account, -1,
                    RejectReason.CANCEL_ALL_AFTER, 0, -1, null, null, keyId));
            switches = deadMansSwitch;
        }
        // what /ready and /health answer, for a scrape: an alert cannot read a status code (README, "Monitoring")
        metrics.gauge("orders_ready", "1 while /ready answers 200: recovered, and every part order entry depends on"
                + " is up (its body names the part that is not)", () -> status.ready() ? 1 : 0);
        metrics.gauge("orders_health_up", "0 while /health answers 503 DOWN: only a restart helps (a failed stage, an"
                + " audit trail that lost records)", () -> status.unrecoverable() == null ? 1 : 0);
        metrics.gauge("orders_dead_mans_switch_armed", "Accounts whose cancel-all-after switch is armed (in cluster"
                + " mode the cluster's, the same on every member)", switches::armedCount);
        metrics.counter("orders_dead_mans_switch_fired_total", "Cancel-all-after switches that fired (a cancel-all of"
                + " the account published; in cluster mode applied from the log, the same on every member)",
                switches::firedCount);
        final ClientBounds clients = clientBounds();
        final HttpParts parts = new HttpParts(json,
                new OrderRequestParser(json.mapper(), config.instrumentsBySymbol(),
                        config.tradingRules().selfTradePreventionDefault()), gateway, view, replies, status,
                metrics, new HttpMetrics(metrics.registry()), openApi(), LoggerFactory.getLogger(OrderVerticle.class),
                new MarketDataAccess(config.instruments(), marketData, streamFanOut, config.marketData(),
                        streamMetrics), snapshotNow, config.http(), clients, auth.access(), orderFeeds,
                switches, config.assets());
        final AtomicInteger index = new AtomicInteger();
        await(vertx.deployVerticle(() -> new OrderVerticle(index.getAndIncrement(), parts),
                new DeploymentOptions().setInstances(config.http().instances())).toCompletionStage()
                        .toCompletableFuture(),
                "starting the HTTP server on port " + config.http().port());
        LOG.info("http: listening on {}:{} with {} verticle instance(s); /ready answers 503 until recovery is done",
                config.http().host(), config.http().port(), config.http().instances());
    }

    /** Files the process keeps for itself beyond client connections: journal, audit, spool, database, jars. */
    private static final int RESERVED_FILE_DESCRIPTORS = 512;

    /**
     * @return the bounds on what clients hold: connections as configured, lowered to leave
     *         {@value #RESERVED_FILE_DESCRIPTORS} of the process's file descriptors to its own files (so that sockets can
     *         never take the descriptor the journal's next segment needs); stream connections below that by
     *         {@value #CONNECTIONS_KEPT_FROM_THE_STREAM}, so subscribers can never take every connection from order
     *         entry, health checks and the scrape; and the share of those streams that upgrades without a key may take
     */
    private ClientBounds clientBounds() {
        final HttpConfig limits = config.http();
        final int configured = limits.maxConnections();
        int max = configured;
        if (java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                instanceof com.sun.management.UnixOperatingSystemMXBean unix) {
            final long fitting = unix.getMaxFileDescriptorCount() - RESERVED_FILE_DESCRIPTORS;
            if (fitting < configured) {
                max = (int) Math.max(1, fitting);
                LOG.warn("http: {}={} does not fit the process's limit of {} file descriptors (ulimit -n) with {} kept"
                        + " for the journal, audit trail, spool and database; at most {} connections",
                        SettingNames.envName("http.max.connections"), configured, unix.getMaxFileDescriptorCount(),
                        RESERVED_FILE_DESCRIPTORS, max);
            }
        }
        final int streams = streamBound(max);
        final int anonymous = Math.max(1, (int) ((long) streams * limits.anonymousStreamPercent() / 100));
        final ClientBounds bounds = new ClientBounds(new ConnectionLimit(max, limits.maxConnectionsPerAddress()),
                new ConnectionLimit(streams, limits.maxStreamsPerAddress()), new ConnectionLimit(anonymous, anonymous));
        final ConnectionLimit connections = bounds.connections();
        metrics.gauge("orders_http_connections_open", "HTTP and WebSocket connections open now", connections::open);
        metrics.gauge("orders_http_connections_max", "The most connections allowed open at once", connections::max);
        metrics.gauge("orders_http_connection_addresses", "Client addresses (IPv6 by /64) holding a connection now",
                connections::addresses);
        metrics.counter("orders_http_connections_refused_total", "Connections closed at accept because the maximum,"
                + " in all or of their address, was open", connections::refused);
        metrics.counter("orders_http_connections_refused_address_total", "Connections closed at accept because their"
                + " address held its share (ORDERS_HTTP_MAX_CONNECTIONS_PER_ADDRESS)", connections::refusedForAddress);
        metrics.counter("orders_http_header_timeouts_total", "Connections closed because a request head did not arrive"
                + " whole within ORDERS_HTTP_HEADER_TIMEOUT_SECONDS", () -> bounds.headerTimeouts().get());
        metrics.counter("orders_http_body_timeouts_total", "Requests answered 408 because their body did not arrive"
                + " whole within ORDERS_HTTP_BODY_TIMEOUT_SECONDS", () -> bounds.bodyTimeouts().get());
        metrics.gauge("orders_ws_anonymous_clients", "Stream connections upgraded without an API key",
                () -> bounds.anonymousStreams().open());
        metrics.counter("orders_ws_connections_refused_total", "Stream upgrades answered 503 TOO_MANY_CONNECTIONS, in"
                + " all, per address or without a key", () -> bounds.streams().refused()
                + bounds.anonymousStreams().refused());
        return bounds;
    }

    /** Connections of the HTTP bound that stream subscribers can never take, kept for order entry and probes. */
    static final int CONNECTIONS_KEPT_FROM_THE_STREAM = 100;

    /** @return the stream's bound on connections, lowered to stay below {@code connections} by the kept margin */
    private int streamBound(final int connections) {
        final int fits = Math.max(1, connections - CONNECTIONS_KEPT_FROM_THE_STREAM);
        if (config.marketData().maxConnections() <= fits) {
            return config.marketData().maxConnections();
        }
        LOG.warn("http: {} lowered from {} to {}, so that stream subscribers leave {} of the {} connections to order"
                + " entry", SettingNames.envName("ws.max.connections"), config.marketData().maxConnections(), fits,
                CONNECTIONS_KEPT_FROM_THE_STREAM, connections);
        return fits;
    }
    private static Buffer openApi() {
        try (InputStream in = OrderEntryService.class.getResourceAsStream("/openapi.yaml")) {
            if (in == null) {
                throw new IllegalStateException("openapi.yaml is missing from the jar");
            }
            return Buffer.buffer(in.readAllBytes());
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot read openapi.yaml", e);
        }
    }
    private static <T> T await(final CompletableFuture<T> future, final String what) {
        try {
            return future.get(60, TimeUnit.SECONDS);
        } catch (final ExecutionException e) {
            throw new IllegalStateException(what + " failed: " + e.getCause().getMessage(), e.getCause());
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(what + " was interrupted", e);
        } catch (final TimeoutException e) {
            throw new IllegalStateException(what + " did not finish in 60 s", e);
        }
    }

    /** Stops the dead man's switch: a stopping service takes no more commands, so no switch fires from here on. */
    void closeDeadMansSwitch() {
        if (deadMansSwitch != null) {
            deadMansSwitch.close();
        }
    }

    /** Stops the keys file's reload and the buckets' sweep. */
    void closeAuth() {
        if (auth != null) {
            auth.close();
        }
    }

    /** Closes Vert.x and so the server, waiting at most {@code millis}. */
    void closeServer(final long millis) {
        if (vertx != null) {
            try {
                vertx.close().toCompletionStage().toCompletableFuture().get(millis, TimeUnit.MILLISECONDS);
            } catch (final ExecutionException | TimeoutException e) {
                LOG.error("closing the HTTP server did not finish: {}", e.toString());
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
