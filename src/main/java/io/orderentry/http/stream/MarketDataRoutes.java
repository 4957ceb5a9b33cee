package io.orderentry.http.stream;

import io.orderentry.http.ApiError;
import io.orderentry.http.ClientConnection;
import io.orderentry.http.HttpParts;
import io.orderentry.http.rest.PendingReplies;
import io.orderentry.http.OrderVerticle;
import io.orderentry.http.json.MarketDataJson;
import io.orderentry.instrument.Instrument;
import io.orderentry.marketdata.MarketDataView;
import io.orderentry.ops.ServiceStatus;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * The market data endpoints of one {@link OrderVerticle}: the REST order book and trades, and the
 * WebSocket stream's upgrade. Reads come from the {@link MarketDataView} and never wait for the
 * consumer; a REST book is at most {@code marketdata.snapshot.millis} older than the consumer's.
 *
 * <p>Threads: every method runs on the owning verticle's event loop.
 */
public final class MarketDataRoutes {

    /** Levels per side a book answer has when depth is not given. */
    static final int DEFAULT_DEPTH = 50;
    /** Trades a trades answer has when limit is not given. */
    static final int DEFAULT_TRADES = 100;
    /** Largest depth and limit accepted. */
    static final int MAX_ROWS = 1000;
    private static final String JSON_TYPE = "application/json";

    private final HttpParts settings;
    private final MarketDataAccess access;
    private final MarketDataView view;
    private final MarketDataJson json;
    private final Map<String, Instrument> instruments;
    private final StreamHub hub;

    /**
     * @param loop the verticle's index; the consumer hands stream updates to this loop by it
     */
    public MarketDataRoutes(final int loop, final Vertx vertx, final Context context, final HttpParts settings,
                            final PendingReplies pending) {
        this.settings = settings;
        this.access = settings.marketData();
        this.view = access.stage().view();
        this.json = new MarketDataJson(settings.json().mapper().getFactory(), access.instruments());
        final Map<String, Instrument> bySymbol = new LinkedHashMap<>();
        for (final Instrument instrument : access.instruments()) {
            bySymbol.put(instrument.symbol(), instrument);
        }
        this.instruments = Map.copyOf(bySymbol);
        this.hub = new StreamHub(loop, vertx, context, access, json, new OrderChannel(settings, context, json),
                new StreamOrderEntry(loop, vertx, settings, pending), settings.json().mapper(), instruments, settings.log());
    }

    /** Registers the stream with the consumer and starts its timer; called from the verticle's start. */
    public void start() {
        hub.start();
    }

    /** {@code GET /api/v1/orderbook/:symbol?depth=}: the L2 book, best first, with its sequence. */
    public void orderBook(final RoutingContext ctx) {
        final Instrument instrument = instrument(ctx);
        final int depth = intParam(ctx, "depth", DEFAULT_DEPTH);
        if (instrument == null || depth < 0) {
            return;
        }
        respond(ctx, 200, json.orderBook(view.recentBook(instrument.index()), depth));
    }

    /** {@code GET /api/v1/trades/:symbol?limit=}: recent trades, newest first. */
    public void trades(final RoutingContext ctx) {
        final Instrument instrument = instrument(ctx);
        final int limit = intParam(ctx, "limit", DEFAULT_TRADES);
        if (instrument == null || limit < 0) {
            return;
        }
        respond(ctx, 200, json.trades(instrument.index(), view.trades(instrument.index()).recent(limit)));
    }

    /**
     * {@code GET /api/v1/stream} without {@code Upgrade: websocket}, which reaches the router: answered 400. The
     * upgrades themselves are taken before the router, by {@link #stream(HttpServerRequest, BiConsumer)}.
     */
    public void stream(final RoutingContext ctx) {
        fail(ctx, ApiError.badRequest("UPGRADE_REQUIRED", "/api/v1/stream is a WebSocket: send a GET with "
                + "Upgrade: websocket", null));
    }

    /**
     * {@code GET /api/v1/stream} with {@code Upgrade: websocket}: upgrades to the WebSocket stream within the stream's
     * bounds (in all, per address, and without a key), whose slots the connection holds until it closes.
     *
     * @param client the connection the upgrade came on
     * @param keyed  whether the upgrade carries a valid API key
     * @param fail   answers the request with an error in the documented shape
     */
    public void stream(final HttpServerRequest request, final ClientConnection client, final boolean keyed,
                final BiConsumer<HttpServerRequest, ApiError> fail) {
        final ServiceStatus.Phase phase = settings.status().phase();
        if (phase != ServiceStatus.Phase.READY) {
            request.response().putHeader("Retry-After", "1");
            fail.accept(request, notReady(phase));
            return;
        }
        final ClientConnection.StreamRefusal refusal = client.openStream(keyed, settings.access().enabled());
        if (refusal != null) {
            request.response().putHeader("Retry-After", "1");
            fail.accept(request, new ApiError(503, "TOO_MANY_CONNECTIONS", switch (refusal) {
                case FULL -> "the stream already has " + settings.clients().streams().max() + " connections";
                case ADDRESS_FULL -> "this address already has " + settings.clients().streams().maxPerAddress()
                        + " stream connections";
                case ANONYMOUS_FULL -> "the stream's connections without an API key are all taken ("
                        + settings.clients().anonymousStreams().max() + "); connect with a key";
            }, null));
            return;
        }
        request.toWebSocket().onComplete(upgraded -> {
            if (upgraded.succeeded()) {
                access.metrics().opened();
                hub.open(upgraded.result());
            } else {
                client.streamEnded();
                settings.log().debug("stream upgrade failed: {}", upgraded.cause().toString());
            }
        });
    }

    private Instrument instrument(final RoutingContext ctx) {
        if (refuseUnlessReady(ctx)) {
            return null;
        }
        final String symbol = ctx.pathParam("symbol");
        final Instrument instrument = instruments.get(symbol);
        if (instrument == null) {
            fail(ctx, new ApiError(404, "UNKNOWN_SYMBOL", "no instrument " + symbol + "; see /api/v1/symbols",
                    "symbol"));
        }
        return instrument;
    }

    /** @return the parameter, the fallback when absent, or -1 after answering 400 */
    private int intParam(final RoutingContext ctx, final String name, final int fallback) {
        if (ctx.response().ended()) {
            return -1;
        }
        final String text = ctx.request().getParam(name);
        if (text == null) {
            return fallback;
        }
        try {
            final int value = Integer.parseInt(text);
            if (value >= 1 && value <= MAX_ROWS) {
                return value;
            }
        } catch (final NumberFormatException ignored) {
            // answered below: not an integer
        }
        fail(ctx, ApiError.badRequest("INVALID_PARAMETER", name + " must be an integer from 1 to " + MAX_ROWS,
                name));
        return -1;
    }

    private boolean refuseUnlessReady(final RoutingContext ctx) {
        final ServiceStatus.Phase phase = settings.status().phase();
        if (phase == ServiceStatus.Phase.READY) {
            return false;
        }
        ctx.response().putHeader("Retry-After", "1");
        fail(ctx, notReady(phase));
        return true;
    }

    private static ApiError notReady(final ServiceStatus.Phase phase) {
        return new ApiError(503, phase == ServiceStatus.Phase.RECOVERING ? "RECOVERING" : "NOT_ACCEPTING",
                "the service is " + phase.name().toLowerCase(Locale.ROOT) + "; market data is not served", null);
    }

    private void fail(final RoutingContext ctx, final ApiError error) {
        respond(ctx, error.status(), settings.json().error(error, null));
    }

    private static void respond(final RoutingContext ctx, final int status, final String body) {
        respond(ctx, status, Buffer.buffer(body));
    }

    private static void respond(final RoutingContext ctx, final int status, final Buffer body) {
        if (ctx.response().ended() || ctx.response().closed()) {
            return;
        }
        ctx.response().setStatusCode(status).putHeader("Content-Type", JSON_TYPE).end(body);
    }
}
