package io.orderentry.http;

import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;

/**
 * What every request goes through before its route acts, as the router's first handlers, and as the POST fast path
 * and the stream's upgrade call it without a router: its metrics (method, route template, status and latency, once
 * its headers are written), its id ({@link RequestIds}: in the response header and for the audit trail), and, after
 * the body is read, a stop for a request that a deadline already answered while its body still came.
 *
 * <p>Threads: the owning verticle's event loop.
 */
public final class RequestAdmission {

    /** The routing context's key of the request's id. */
    public static final String TAG = "requestTag";

    private final int index;
    private final HttpMetrics metrics;
    private long nextRequestTag;

    /**
     * @param index the verticle's number, part of every request id it gives
     */
    public RequestAdmission(final int index, final HttpMetrics metrics) {
        this.index = index;
        this.metrics = metrics;
    }

    /** Route handler: records the request under its route's template (or "unmatched") once its headers are written. */
    public void measure(final RoutingContext ctx) {
        final long start = System.nanoTime();
        ctx.addHeadersEndHandler(ignored -> metrics.record(ctx.request().method().name(),
                ctx.currentRoute() == null || ctx.currentRoute().getPath() == null ? "unmatched"
                        : ctx.currentRoute().getPath(), ctx.response().getStatusCode(), System.nanoTime() - start));
        ctx.next();
    }

    /** Records a request taken without the router under {@code path}, once its headers are written. */
    public void measure(final HttpServerResponse response, final String method, final String path) {
        final long start = System.nanoTime();
        response.headersEndHandler(ignored -> metrics.record(method, path, response.getStatusCode(),
                System.nanoTime() - start));
    }

    /** Route handler: gives the request its id, in the response header and under {@link #TAG}. */
    public void tag(final RoutingContext ctx) {
        ctx.put(TAG, tag(ctx.response()));
        ctx.next();
    }

    /** @return a new request id, already set as the response's {@link RequestIds#HEADER} */
    public String tag(final HttpServerResponse response) {
        final String tag = RequestIds.of(index, ++nextRequestTag);
        response.putHeader(RequestIds.HEADER, tag);
        return tag;
    }

    /** Route handler: stops a request the deadline answered while its body still came, before its route acts on it. */
    public void unlessAnswered(final RoutingContext ctx) {
        if (!ctx.response().ended()) {
            ctx.next();
        }
    }

    /** @return the body the router's body handler read, empty when there is none */
    public static byte[] body(final RoutingContext ctx) {
        return ctx.body().buffer() == null ? new byte[0] : ctx.body().buffer().getBytes();
    }
}
