package io.orderentry.http;

import io.orderentry.http.json.Json;
import io.orderentry.query.OrderState;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;

/**
 * How the edge's routes answer: a JSON body with its status, an error in the documented shape ({@link ApiError}), a
 * 503 with {@code Retry-After}, and an error after which the connection is closed. A response that is already ended or
 * closed is left alone (a deadline may have answered it while its body still came).
 *
 * <p>Threads: the owning verticle's event loop.
 */
public final class Responses {

    /** The content type of every JSON answer. */
    public static final String JSON_TYPE = "application/json";

    private final Json json;

    public Responses(final Json json) {
        this.json = json;
    }

    /** Answers {@code error} in the documented shape. */
    public void fail(final HttpServerRequest request, final ApiError error) {
        fail(request, error, null);
    }

    /** Answers {@code error} in the documented shape, with the order it concerns when there is one. */
    public void fail(final HttpServerRequest request, final ApiError error, final OrderState order) {
        respond(request, error.status(), json.error(error, order));
    }

    /** Answers 503 with {@code code}, and {@code Retry-After: 1}: the client may try again shortly. */
    /**
     * Answers 503 for a command the input ring did not take: NOT_ACCEPTING once the service is stopping
     * ({@code closed}), else OVERLOADED (the ring is full).
     */
    public void notTaken(final HttpServerRequest request, final boolean closed) {
        if (closed) {
            unavailable(request, "NOT_ACCEPTING", "the service is stopping and not accepting orders");
        } else {
            unavailable(request, "OVERLOADED", "the input ring is full; retry shortly");
        }
    }

    public void unavailable(final HttpServerRequest request, final String code, final String message) {
        request.response().putHeader("Retry-After", "1");
        fail(request, new ApiError(503, code, message, null));
    }

    /** Answers {@code error} and then closes the connection (its next request cannot be trusted or waited for). */
    public void failAndClose(final HttpServerRequest request, final ApiError error) {
        final HttpServerResponse response = request.response();
        if (response.ended() || response.closed()) {
            return;
        }
        final HttpConnection connection = request.connection();
        response.setStatusCode(error.status()).putHeader("Content-Type", JSON_TYPE).putHeader("Connection", "close")
                .end(json.error(error, null)).onComplete(ignored -> connection.close());
    }

    /** Answers {@code status} with a JSON {@code body}. */
    public static void respond(final HttpServerRequest request, final int status, final Buffer body) {
        final HttpServerResponse response = request.response();
        if (response.ended() || response.closed()) {
            return;
        }
        response.setStatusCode(status).putHeader("Content-Type", JSON_TYPE).end(body);
    }
}
