package io.orderentry.http;

import io.orderentry.pipeline.CommandType;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;

/**
 * The answers to requests refused before any route acts on them: what the HTTP decoder could not read (431, 414,
 * 400, then the connection is closed), the router's errors (400, 404, 405, 413, 500), a body over
 * {@value OrderVerticle#MAX_BODY_BYTES} bytes (413) and a body that did not arrive in time (408). Those that concern
 * an order command, by method and path, are audited through {@link EdgeRefusals}.
 *
 * <p>Threads: the owning verticle's event loop.
 */
public final class RequestRefusals {

    /** The answer to a body over {@value OrderVerticle#MAX_BODY_BYTES} bytes. */
    public static final ApiError BODY_TOO_LARGE = new ApiError(413, "BODY_TOO_LARGE", "the body is over "
            + OrderVerticle.MAX_BODY_BYTES + " bytes", null);

    private final EdgeRefusals refusals;
    private final ClientConnections clients;
    private final Responses responses;
    private final HttpConfig limits;
    private final Logger log;

    RequestRefusals(final EdgeRefusals refusals, final ClientConnections clients, final Responses responses,
                    final HttpConfig limits, final Logger log) {
        this.refusals = refusals;
        this.clients = clients;
        this.responses = responses;
        this.limits = limits;
        this.log = log;
    }

    /**
     * Answers a request the HTTP decoder could not read (a request line or headers over the limits, a malformed
     * request) in the error shape, then closes the connection, as it cannot tell where the next request starts.
     */
    void invalidRequest(final HttpServerRequest request) {
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
        responses.failAndClose(request, error);
    }

    /** The router's 400 and 413: answered, and audited when the request is an order command. */
    void refuse(final RoutingContext ctx, final ApiError error) {
        refuse(ctx.request(), ctx.get(RequestAdmission.TAG), error);
    }

    /** Answers {@code error} and audits it when the request is an order command. */
    public void refuse(final HttpServerRequest request, final String tag, final ApiError error) {
        audit(request, tag, error);
        responses.fail(request, error);
    }

    /** The router's 404. */
    void notFound(final RoutingContext ctx) {
        responses.fail(ctx.request(), new ApiError(404, "NOT_FOUND", "no such resource: " + ctx.request().path(),
                null));
    }

    /** The router's 405. */
    void methodNotAllowed(final RoutingContext ctx) {
        responses.fail(ctx.request(), new ApiError(405, "METHOD_NOT_ALLOWED", ctx.request().method()
                + " is not allowed on " + ctx.request().path(), null));
    }

    /** The router's 500: a handler failed; logged with its cause. */
    void internalError(final RoutingContext ctx) {
        log.error("unhandled failure on " + ctx.request().method() + " " + ctx.request().path(), ctx.failure());
        responses.fail(ctx.request(), new ApiError(500, "INTERNAL_ERROR", "internal error", null));
    }

    /**
     * A request whose body did not arrive whole in time ({@link ClientConnections}): answered {@code 408} (audited on
     * the order-entry routes) and its connection closed; one already answered (413, 401 before its body) is closed.
     */
    void bodyTimedOut(final HttpServerRequest request) {
        if (request.response().ended()) {
            request.connection().close();
            return;
        }
        final ApiError error = new ApiError(408, "REQUEST_TIMEOUT", "the body did not arrive whole within "
                + limits.bodyTimeoutSeconds() + " s", null);
        audit(request, request.response().headers().get(RequestIds.HEADER), error);
        responses.failAndClose(request, error);
    }

    /** Hands the refusal to the audit trail when the request is an order command. */
    private void audit(final HttpServerRequest request, final String tag, final ApiError error) {
        final CommandType action = actionOf(request);
        if (action != null) {
            refusals.publish(tag, clients.remote(request), action, error, null, 0);
        }
    }

    /** @return the order command a request asks for by its method and path, or null for any other request */
    private static CommandType actionOf(final HttpServerRequest request) {
        final String path = request.path();
        final boolean onOrder = path != null && path.startsWith("/api/v1/orders/");
        if (request.method() == HttpMethod.POST && OrderVerticle.ORDERS_PATH.equals(path)) {
            return CommandType.PLACE;
        } else if (request.method() == HttpMethod.DELETE && onOrder) {
            return CommandType.CANCEL;
        } else if (request.method() == HttpMethod.PATCH && onOrder) {
            return CommandType.AMEND;
        } else if (request.method() == HttpMethod.DELETE && OrderVerticle.ORDERS_PATH.equals(path)) {
            return CommandType.CANCEL_ALL;
        }
        return null;
    }
}
