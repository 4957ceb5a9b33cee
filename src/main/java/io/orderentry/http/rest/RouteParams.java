package io.orderentry.http.rest;

import io.orderentry.auth.ApiKey;
import io.orderentry.http.AccessCheck;
import io.orderentry.http.ApiError;
import io.orderentry.http.ApiException;
import io.orderentry.http.Responses;
import io.orderentry.query.OrderStateView;
import io.vertx.ext.web.RoutingContext;

/**
 * The order routes' parameters: the order named in the path, by id ({@code /api/v1/orders/1017}) or by the client's
 * own id ({@code /api/v1/orders/client:c-42}, resolved through the order view for the caller's account), and the
 * integer query parameters, read or answered 400; and the answer to an order that is not there (or not the caller's,
 * which is answered the same way).
 *
 * <p>Threads: the owning verticle's event loop.
 */
final class RouteParams {

    /** The answer to an order id in the path that is not a positive 64-bit integer. */
    static final ApiError INVALID_ORDER_ID = ApiError.badRequest("INVALID_ORDER_ID",
            "order id must be a positive integer, or client: and a clientOrderId", "orderId");
    /** How a path names an order by its clientOrderId: {@code client:} and the id. */
    static final String CLIENT_PREFIX = "client:";

    private final Responses responses;
    private final OrderStateView view;
    private final AccountScope scope;

    RouteParams(final Responses responses, final OrderStateView view, final AccountScope scope) {
        this.responses = responses;
        this.view = view;
        this.scope = scope;
    }

    /** @return the order the path names, or -1 after answering 400, 403 or 404 */
    long orderId(final RoutingContext ctx) {
        try {
            return pathOrderId(ctx);
        } catch (final ApiException e) {
            responses.fail(ctx.request(), e.error());
            return -1;
        }
    }

    /**
     * The order the path names: its id, or {@code client:} and a clientOrderId of the caller's account (the key's; with
     * authentication off, the {@code accountId} query parameter's, which is then required).
     *
     * @return the order's id, positive
     * @throws ApiException with the answer: 400 for an id that is neither, 404 for a clientOrderId the view holds no
     *     order of the account for, and as {@link AccountScope#accountFor} for the account
     */
    long pathOrderId(final RoutingContext ctx) throws ApiException {
        final String text = ctx.pathParam("orderId");
        if (text.startsWith(CLIENT_PREFIX)) {
            final String clientOrderId = text.substring(CLIENT_PREFIX.length());
            if (!OrderRequestParser.CLIENT_ORDER_ID.matcher(clientOrderId).matches()) {
                throw ApiError.badRequest("INVALID_CLIENT_ORDER_ID", "clientOrderId must be 1-64 of [A-Za-z0-9_.:-]",
                        "clientOrderId").toException();
            }
            final ApiKey key = ctx.get(AccessCheck.KEY);
            final String account = scope.accountFor(key, ctx.request().getParam("accountId"));
            final long orderId = view.orderIdOf(account, clientOrderId);
            if (orderId <= 0) {
                throw notFoundByClientId(clientOrderId).toException();
            }
            return orderId;
        }
        try {
            final long id = Long.parseLong(text);
            if (id > 0) {
                return id;
            }
        } catch (final NumberFormatException ignored) {
            // answered below: an id that is not a positive 64-bit integer
        }
        throw INVALID_ORDER_ID.toException();
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

    /** @return the answer to a clientOrderId the caller's account has no order with (that the view holds) */
    static ApiError notFoundByClientId(final String clientOrderId) {
        return new ApiError(404, "ORDER_NOT_FOUND", "no order with clientOrderId '" + clientOrderId + "'",
                "clientOrderId");
    }
}
