package io.orderentry.http.rest;

import io.orderentry.http.AccessCheck;
import io.orderentry.http.HttpParts;
import io.orderentry.http.Responses;
import io.orderentry.http.json.OrderJson;
import io.orderentry.query.OrderState;
import io.orderentry.query.OrderStateView;
import io.vertx.ext.web.RoutingContext;

/**
 * The order queries: one order, its fills, an account's open orders, and the symbols traded. They are served from the
 * {@link OrderStateView} without touching the rings; a key sees only its account's orders (another's are answered as
 * unknown). Access and readiness are checked before these handlers run ({@link AccessCheck}, which hands over the key).
 *
 * <p>Threads: the owning verticle's event loop.
 */
public final class OrderQueries {

    /** Most open orders one GET returns. */
    public static final int MAX_LIST_LIMIT = 1000;

    private final HttpParts settings;
    private final Responses responses;
    private final RouteParams params;
    private final AccountScope scope;

    public OrderQueries(final HttpParts settings, final Responses responses) {
        this.settings = settings;
        this.responses = responses;
        this.scope = new AccountScope(settings.access(), responses);
        this.params = new RouteParams(responses, settings.view(), scope);
    }

    /** {@code GET /api/v1/orders/{orderId}}. */
    public void getOrder(final RoutingContext ctx) {
        final OrderState order = visibleOrder(ctx);
        if (order != null) {
            Responses.respond(ctx.request(), 200, settings.json().order(order));
        }
    }

    /**
     * {@code GET /api/v1/orders/{orderId}/fills?offset=0&limit=1000}: the order's fills, oldest first, a page at a time
     * (an answer carries at most {@value OrderJson#MAX_FILLS_PER_ANSWER}; one order can sweep many more makers).
     */
    public void getFills(final RoutingContext ctx) {
        final long orderId = params.orderId(ctx);
        if (orderId <= 0) {
            return;
        }
        final long offset = params.longParam(ctx, "offset", 0, 0, Integer.MAX_VALUE);
        final long limit = params.longParam(ctx, "limit", OrderJson.MAX_FILLS_PER_ANSWER, 1,
                OrderJson.MAX_FILLS_PER_ANSWER);
        if (offset < 0 || limit < 0) {
            return;
        }
        final OrderState order = visibleOrder(ctx, orderId);
        if (order != null) {
            Responses.respond(ctx.request(), 200, settings.json().fills(order, (int) offset, (int) limit));
        }
    }

    /** {@code GET /api/v1/orders?accountId=&limit=&afterOrderId=}: the account's open orders, a page at a time. */
    public void openOrders(final RoutingContext ctx) {
        final String accountId = scope.accountOf(ctx.request(), ctx.get(AccessCheck.KEY),
                ctx.request().getParam("accountId"));
        if (accountId == null) {
            return;
        }
        final long limit = params.longParam(ctx, "limit", MAX_LIST_LIMIT, 1, MAX_LIST_LIMIT);
        final long after = params.longParam(ctx, "afterOrderId", 0, 0, Long.MAX_VALUE);
        if (limit < 0 || after < 0) {
            return;
        }
        Responses.respond(ctx.request(), 200,
                settings.json().orders(settings.view().openOrders(accountId, after, (int) limit)));
    }

    /** {@code GET /api/v1/symbols}: the instruments traded, with their steps and limits. */
    public void symbols(final RoutingContext ctx) {
        Responses.respond(ctx.request(), 200, settings.json().symbols());
    }

    /** @return the path's order if the caller may see it, else null after answering 400 or 404 */
    private OrderState visibleOrder(final RoutingContext ctx) {
        final long orderId = params.orderId(ctx);
        return orderId <= 0 ? null : visibleOrder(ctx, orderId);
    }

    /** @return the order if the caller may see it, else null after answering 404 */
    private OrderState visibleOrder(final RoutingContext ctx, final long orderId) {
        final OrderState order = settings.view().get(orderId);
        if (order == null || !AccountScope.owns(ctx.get(AccessCheck.KEY), order)) {
            responses.fail(ctx.request(), RouteParams.notFound(orderId));
            return null;
        }
        return order;
    }
}
