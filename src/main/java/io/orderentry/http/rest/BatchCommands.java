package io.orderentry.http.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.orderentry.auth.ApiKey;
import io.orderentry.http.AccessCheck;
import io.orderentry.http.AccessControl;
import io.orderentry.http.ApiError;
import io.orderentry.http.ApiException;
import io.orderentry.http.ClientConnections;
import io.orderentry.http.EdgeRefusals;
import io.orderentry.http.HttpParts;
import io.orderentry.http.RequestAdmission;
import io.orderentry.http.Responses;
import io.orderentry.pipeline.CommandType;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * Batches of orders (API.md, "Orders by client id, batches, and order entry over WebSocket"):
 * {@code POST /api/v1/orders/batch} places 1 to {@value #MAX_ORDERS} orders and {@code DELETE /api/v1/orders/batch}
 * cancels as many. Each order is validated, refused, audited, rate-limited and answered exactly as a single request
 * would be; the orders that pass are published into the input ring together ({@link InputGateway#tryPlaceAll}), so
 * that they are executed in request order and journaled in one batch, and the answer
 * {@code 200 {"results":[...]}} ({@link BatchAnswer}) goes out once every one of them is durable. When the ring has no
 * room for all of them none is published and the whole request is answered {@code 503 OVERLOADED}.
 *
 * <p>Threads: the owning verticle's event loop.
 */
public final class BatchCommands {

    /** The most orders one batch may carry. */
    public static final int MAX_ORDERS = 20;

    private final int index;
    private final HttpParts settings;
    private final PendingReplies pending;
    private final Responses responses;
    private final EdgeRefusals refusals;
    private final ClientConnections clients;
    private final AccountScope scope;
    private final ObjectMapper mapper;

    /**
     * @param index the verticle's number; the reply stage hands the answers back to it by this
     */
    public BatchCommands(final int index, final HttpParts settings, final PendingReplies pending,
                         final Responses responses, final EdgeRefusals refusals, final ClientConnections clients) {
        this.index = index;
        this.settings = settings;
        this.pending = pending;
        this.responses = responses;
        this.refusals = refusals;
        this.clients = clients;
        this.scope = new AccountScope(settings.access(), responses);
        this.mapper = settings.json().mapper();
    }

    /** {@code POST /api/v1/orders/batch} {@code {"orders":[order, ...]}}. */
    public void place(final RoutingContext ctx) {
        final HttpServerRequest request = ctx.request();
        final String tag = ctx.get(RequestAdmission.TAG);
        final byte[] body = RequestAdmission.body(ctx);
        final ApiKey key = ctx.get(AccessCheck.KEY);
        final JsonNode list;
        try {
            list = list(body, "orders", null);
        } catch (final ApiException e) {
            refusals.publish(tag, clients.remote(request), CommandType.PLACE, e.error(), body, 0, key.keyId(),
                    key.account());
            responses.fail(request, e.error());
            return;
        }
        final int n = list.size();
        final BatchAnswer batch = pending.batch(request, n);
        final List<PlaceOrder> orders = new ArrayList<>(n);
        final int[] positions = new int[n];
        for (int k = 0; k < n; k++) {
            final ApiError limited = k == 0 ? null : settings.access().takeOrder(key);
            if (limited != null) {
                batch.refused(k, limited);          // as a single order over the budget: answered, not audited
                continue;
            }
            final JsonNode node = list.get(k);
            try {
                PlaceOrder order = settings.parser().parse(node, key == AccessControl.OPEN);
                if (key != AccessControl.OPEN) {
                    if (order.accountId() == null) {
                        order = order.withAccount(key.account());
                    } else if (!order.accountId().equals(key.account())) {
                        throw scope.mismatch(order.accountId(), key).toException();
                    }
                }
                positions[orders.size()] = k;
                orders.add(order);
            } catch (final ApiException e) {
                refusals.publish(tag, clients.remote(request), CommandType.PLACE, e.error(), bytes(node), 0,
                        key.keyId(), key.account());
                batch.refused(k, e.error());
            }
        }
        if (orders.isEmpty()) {
            return;                                 // every order refused: the batch has answered already
        }
        final long[] requestIds = new long[orders.size()];
        for (int j = 0; j < requestIds.length; j++) {
            requestIds[j] = pending.nextRequestId();
        }
        if (!settings.input().tryPlaceAll(orders, requestIds, index, tag, clients.remote(request), key.keyId())) {
            notPublished(request);
            return;
        }
        for (int j = 0; j < requestIds.length; j++) {
            pending.await(requestIds[j], batch.entry(positions[j]));
        }
    }

    /**
     * {@code DELETE /api/v1/orders/batch} {@code {"orderIds":[...]}} or {@code {"clientOrderIds":[...]}} (of the key's
     * account; with authentication off, of the {@code accountId} query parameter's).
     */
    public void cancel(final RoutingContext ctx) {
        final HttpServerRequest request = ctx.request();
        final String tag = ctx.get(RequestAdmission.TAG);
        final byte[] body = RequestAdmission.body(ctx);
        final ApiKey key = ctx.get(AccessCheck.KEY);
        final JsonNode list;
        final boolean byClientId;
        try {
            final JsonNode root = readObject(body);
            byClientId = root.has("clientOrderIds");
            if (byClientId && root.has("orderIds")) {
                throw ApiError.badRequest("INVALID_BATCH", "send orderIds or clientOrderIds, not both", "orderIds")
                        .toException();
            }
            list = list(root, byClientId ? "clientOrderIds" : "orderIds", byClientId ? "orderIds" : "clientOrderIds");
        } catch (final ApiException e) {
            refusals.publish(tag, clients.remote(request), CommandType.CANCEL, e.error(), body, 0, key.keyId(),
                    key.account());
            responses.fail(request, e.error());
            return;
        }
        final String clientAccount;
        if (byClientId) {
            clientAccount = scope.accountOf(request, key, request.getParam("accountId"));
            if (clientAccount == null) {
                return;
            }
        } else {
            clientAccount = null;
        }
        final int n = list.size();
        final BatchAnswer batch = pending.batch(request, n);
        final long[] orderIds = new long[n];
        final String[] accounts = new String[n];
        final int[] positions = new int[n];
        int count = 0;
        for (int k = 0; k < n; k++) {
            final ApiError limited = k == 0 ? null : settings.access().takeOrder(key);
            if (limited != null) {
                batch.refused(k, limited);
                continue;
            }
            long orderId = 0;
            try {
                orderId = byClientId ? byClientId(list.get(k), clientAccount) : byId(list.get(k));
                if (key != AccessControl.OPEN && !AccountScope.owns(key, settings.view().get(orderId))) {
                    // another account's order, or one the view no longer holds: as a single cancel, never sent
                    throw RouteParams.notFound(orderId).toException();
                }
                orderIds[count] = orderId;
                accounts[count] = key.account();
                positions[count] = k;
                count++;
            } catch (final ApiException e) {
                refusals.publish(tag, clients.remote(request), CommandType.CANCEL, e.error(), null, orderId,
                        key.keyId(), key.account());
                batch.refused(k, e.error());
            }
        }
        if (count == 0) {
            return;
        }
        final long[] requestIds = new long[count];
        for (int j = 0; j < count; j++) {
            requestIds[j] = pending.nextRequestId();
        }
        if (!settings.input().tryCancelEach(orderIds, accounts, requestIds, count, index, tag, clients.remote(request),
                key.keyId())) {
            notPublished(request);
            return;
        }
        for (int j = 0; j < count; j++) {
            pending.await(requestIds[j], batch.entry(positions[j]));
        }
    }

    private static long byId(final JsonNode node) {
        if (node.isIntegralNumber() && node.canConvertToLong() && node.asLong() > 0) {
            return node.asLong();
        }
        throw RouteParams.INVALID_ORDER_ID.toException();
    }

    private long byClientId(final JsonNode node, final String account) {
        if (!node.isTextual() || !OrderRequestParser.CLIENT_ORDER_ID.matcher(node.textValue()).matches()) {
            throw ApiError.badRequest("INVALID_CLIENT_ORDER_ID", "clientOrderId must be 1-64 of [A-Za-z0-9_.:-]",
                    "clientOrderId").toException();
        }
        final long orderId = settings.view().orderIdOf(account, node.textValue());
        if (orderId <= 0) {
            throw RouteParams.notFoundByClientId(node.textValue()).toException();
        }
        return orderId;
    }

    /** Answers a batch none of whose orders entered the ring: safe to resend whole. */
    private void notPublished(final HttpServerRequest request) {
        if (settings.input().closed()) {
            responses.unavailable(request, "NOT_ACCEPTING", "the service is stopping and not accepting orders");
        } else {
            responses.unavailable(request, "OVERLOADED", "the input ring has no room for the batch; none of its"
                    + " orders was placed, retry shortly");
        }
    }

    /** @return the body's list {@code field}, 1 to {@value #MAX_ORDERS} long, the body holding no other field */
    private JsonNode list(final byte[] body, final String field, final String alternative) {
        return list(readObject(body), field, alternative);
    }

    private static JsonNode list(final JsonNode root, final String field, final String alternative) {
        for (final Iterator<String> names = root.fieldNames(); names.hasNext(); ) {
            final String name = names.next();
            if (!name.equals(field) && !name.equals(alternative)) {
                throw ApiError.badRequest("UNKNOWN_FIELD", "unknown field '" + name + "'", name).toException();
            }
        }
        final JsonNode list = root.get(field);
        if (list == null || list.isNull()) {
            throw ApiError.badRequest("MISSING_FIELD", field + " is required: a list of 1 to " + MAX_ORDERS, field)
                    .toException();
        }
        if (!list.isArray()) {
            throw ApiError.badRequest("INVALID_TYPE", field + " must be a list", field).toException();
        }
        if (list.isEmpty() || list.size() > MAX_ORDERS) {
            throw ApiError.badRequest("INVALID_BATCH", "a batch holds 1 to " + MAX_ORDERS + " entries, not "
                    + list.size(), field).toException();
        }
        return list;
    }

    private JsonNode readObject(final byte[] body) {
        return settings.parser().readObject(body);
    }

    /** @return one order of the batch as bytes, for its refusal's audit record */
    private byte[] bytes(final JsonNode node) {
        try {
            return mapper.writeValueAsBytes(node);
        } catch (final JsonProcessingException e) {
            throw new IllegalStateException("a parsed JSON node could not be written back", e);
        }
    }
}
