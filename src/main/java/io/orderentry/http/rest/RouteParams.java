package io.orderentry.http.rest;

import io.orderentry.http.ApiError;
import io.orderentry.http.Responses;
import io.vertx.ext.web.RoutingContext;

/**
 * The order routes' parameters: the order id in the path and the integer query parameters, read or answered 400; and
 * the answer to an order that is not there (or not the caller's, which is answered the same way).
 *
 * <p>Threads: the owning verticle's event loop.
 */
final class RouteParams {

    /** The answer to an order id in the path that is not a positive 64-bit integer. */
    static final ApiError INVALID_ORDER_ID = ApiError.badRequest("INVALID_ORDER_ID",
            "order id must be a positive integer", "orderId");

    private final Responses responses;

    RouteParams(final Responses responses) {
        this.responses = responses;
    }

    /** @return the path's order id, or -1 after answering 400 */
    long orderId(final RoutingContext ctx) {
        final String text = ctx.pathParam("orderId");
        try {
            final long id = Long.parseLong(text);
            if (id > 0) {
                return id;
            }
        } catch (final NumberFormatException ignored) {
            // answered below: an id that is not a positive 64-bit integer
        }
        responses.fail(ctx.request(), INVALID_ORDER_ID);
        return -1;
    }

    /** @return the query parameter, {@code fallback} when absent, or -1 after answering 400 */
    long longParam(final RoutingContext ctx, final String name, final long fallback, final long min, final long max) {
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
        responses.fail(ctx.request(), ApiError.badRequest("INVALID_PARAMETER", name + " must be an integer from " + min
                + " to " + max, name));
        return -1;
    }

    /** @return the answer to an order that is not there, or that the caller may not see */
    static ApiError notFound(final long orderId) {
        return new ApiError(404, "ORDER_NOT_FOUND", "no order " + orderId, "orderId");
    }
}
