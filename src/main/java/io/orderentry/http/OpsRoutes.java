package io.orderentry.http;

import io.orderentry.ops.HealthComponent;
import io.orderentry.ops.ServiceStatus;
import io.vertx.core.Context;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;

/**
 * The operations endpoints of one {@link OrderVerticle}: {@code /health}, {@code /ready}, {@code /metrics} and
 * {@code POST /admin/snapshot}. They render the ops state ({@link ServiceStatus}, {@code MetricsText}); who may call
 * them is checked by the route handlers in front of these ({@link AccessCheck}).
 *
 * <p>Threads: the owning verticle's event loop; a snapshot's answer hops back onto it.
 */
final class OpsRoutes {

    private final HttpParts settings;
    private final Context eventLoop;
    private final Responses responses;

    OpsRoutes(final HttpParts settings, final Context eventLoop, final Responses responses) {
        this.settings = settings;
        this.eventLoop = eventLoop;
        this.responses = responses;
    }

    /** UP while the process can take orders or may again by itself; DOWN (503) when only a restart helps. */
    void health(final RoutingContext ctx) {
        final String reason = settings.status().unrecoverable();
        if (reason == null) {
            Responses.respond(ctx.request(), 200, Buffer.buffer("{\"status\":\"UP\"}"));
            return;
        }
        final Map<String, Object> body = new LinkedHashMap<>();
        body.put("status", "DOWN");
        body.put("reason", reason);
        Responses.respond(ctx.request(), 503, settings.json().write(g -> settings.json().mapper().writeValue(g, body)));
    }

    void ready(final RoutingContext ctx) {
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
            up &= !component.holdsBackReadiness();
        }
        if (!up) {
            ctx.response().putHeader("Retry-After", "1");
        }
        if (settings.access().adminOnlyOps() && !settings.access().isAdmin(ctx.request())) {
            // the parts' details are for operators (ORDERS_AUTH_OPS=admin): others learn only whether it is ready
            Responses.respond(ctx.request(), up ? 200 : 503,
                    Buffer.buffer(up ? "{\"status\":\"UP\"}" : "{\"status\":\"DOWN\"}"));
            return;
        }
        body.put("status", up ? "UP" : "DOWN");
        if (!settings.access().enabled()) {
            body.put("warnings", List.of("authentication is off (ORDERS_AUTH=none): anyone who can reach this port may"
                    + " place, cancel and read orders of any account"));
        }
        body.put("components", parts);
        Responses.respond(ctx.request(), up ? 200 : 503,
                settings.json().write(g -> settings.json().mapper().writeValue(g, body)));
    }

    /**
     * {@code GET /metrics}, in the Prometheus text format; the rendering is at most
     * {@code ORDERS_HTTP_METRICS_CACHE_MILLIS} old, so scrapes cannot keep the event loops rendering.
     */
    void metrics(final RoutingContext ctx) {
        ctx.response().setStatusCode(200).putHeader("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
                .end(settings.metrics().scrape(settings.config().metricsCacheMillis()));
    }

    /** Writes a snapshot now (README, "Snapshots") and answers once it is on disk. */
    void snapshot(final RoutingContext ctx) {
        final HttpServerRequest request = ctx.request();
        settings.snapshots().snapshot().whenComplete((details, failure) -> eventLoop.runOnContext(ignored -> {
            if (failure == null) {
                Responses.respond(request, 200,
                        settings.json().write(g -> settings.json().mapper().writeValue(g, details)));
                return;
            }
            final Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                    ? failure.getCause() : failure;
            if (cause instanceof IllegalStateException) {
                responses.fail(request, new ApiError(409, "SNAPSHOT_UNAVAILABLE", cause.getMessage(), null));
            } else {
                settings.log().error("the snapshot asked for by POST /admin/snapshot failed", cause);
                responses.fail(request, new ApiError(500, "SNAPSHOT_FAILED", "the snapshot could not be written: "
                        + cause.getMessage(), null));
            }
        }));
    }
}
