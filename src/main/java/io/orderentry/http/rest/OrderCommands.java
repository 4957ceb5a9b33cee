package io.orderentry.http.rest;

import io.orderentry.account.CancelAllAfter;
import io.orderentry.auth.ApiKey;
import io.orderentry.engine.RejectReason;
import io.orderentry.http.AccessCheck;
import io.orderentry.http.AccessControl;
import io.orderentry.http.ApiError;
import io.orderentry.http.ApiException;
import io.orderentry.http.ClientConnections;
import io.orderentry.http.EdgeRefusals;
import io.orderentry.http.HttpParts;
import io.orderentry.http.RequestAdmission;
import io.orderentry.http.Responses;
import io.orderentry.http.json.Json;
import io.orderentry.instrument.Instrument;
import io.orderentry.pipeline.CommandType;
import io.orderentry.query.OrderState;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;

/**
 * The order commands: place, cancel, amend, cancel-all and the dead man's switch (API.md, "Order operations"). Each
 * is validated at the edge, refusals audited through {@link EdgeRefusals}, and sent into the input ring; the request
 * then waits in {@link PendingReplies} for the engine's answer. Access and readiness are checked before these
 * handlers run ({@link AccessCheck}, which hands over the key, and {@code ReadinessCheck}).
 *
 * <p>Threads: the owning verticle's event loop.
 */
public final class OrderCommands {

    private final int index;
    private final HttpParts settings;
    private final PendingReplies pending;
    private final Responses responses;
    private final EdgeRefusals refusals;
    private final ClientConnections clients;
    private final RouteParams params;
    private final AccountScope scope;

    /**
     * @param index the verticle's number; the reply stage hands the answers back to it by this
     */
    public OrderCommands(final int index, final HttpParts settings, final PendingReplies pending,
                         final Responses responses, final EdgeRefusals refusals, final ClientConnections clients) {
        this.index = index;
        this.settings = settings;
        this.pending = pending;
        this.responses = responses;
        this.refusals = refusals;
        this.clients = clients;
        this.scope = new AccountScope(settings.access(), responses);
        this.params = new RouteParams(responses, settings.view(), scope);
    }

    /** The router's route for the path spellings the fast path ({@link PlaceFastPath}) leaves to it. */
    public void place(final RoutingContext ctx) {
        place(ctx.request(), ctx.get(RequestAdmission.TAG), RequestAdmission.body(ctx), ctx.get(AccessCheck.KEY));
    }

    /** {@code POST /api/v1/orders} of an admitted {@code key}: parses the body and sends the order. */
    void place(final HttpServerRequest request, final String tag, final byte[] body, final ApiKey key) {
        PlaceOrder order;
        try {
            order = settings.parser().parse(body, key == AccessControl.OPEN);
        } catch (final ApiException e) {
            refuse(request, tag, CommandType.PLACE, e.error(), body, 0, key, key.account());
            return;
        }
        if (key != AccessControl.OPEN) {
            if (order.accountId() == null) {
                order = order.withAccount(key.account());
            } else if (!order.accountId().equals(key.account())) {
                refuse(request, tag, CommandType.PLACE, scope.mismatch(order.accountId(), key), body, 0, key,
                        key.account());
                return;
            }
        }
        final long requestId = pending.nextRequestId();
        send(request, requestId, settings.input().tryPlace(order, requestId, index, tag, clients.remote(request),
                key.keyId()));
    }

    /** {@code DELETE /api/v1/orders/{orderId}}. */
    public void cancel(final RoutingContext ctx) {
        final HttpServerRequest request = ctx.request();
        final String tag = ctx.get(RequestAdmission.TAG);
        final ApiKey key = ctx.get(AccessCheck.KEY);
        final long orderId;
        try {
            orderId = params.pathOrderId(ctx);
        } catch (final ApiException e) {
            refuse(request, tag, CommandType.CANCEL, e.error(), null, 0, key, key.account());
            return;
        }
        if (key != AccessControl.OPEN && !AccountScope.owns(key, settings.view().get(orderId))) {
            // another account's order, or one the view no longer holds (it could not be shown to be the key's):
            // answered exactly as an unknown id, and never sent to the engine
            refuse(request, tag, CommandType.CANCEL, RouteParams.notFound(orderId), null, orderId, key, key.account());
            return;
        }
        final long requestId = pending.nextRequestId();
        send(request, requestId, settings.input().tryCancel(orderId, requestId, index, tag, clients.remote(request),
                key.keyId(), key.account()));
    }

    /** {@code PATCH /api/v1/orders/{orderId}}: a new total quantity and/or price (API.md, "Order operations"). */
    public void amend(final RoutingContext ctx) {
        final HttpServerRequest request = ctx.request();
        final String tag = ctx.get(RequestAdmission.TAG);
        final byte[] body = RequestAdmission.body(ctx);
        final ApiKey key = ctx.get(AccessCheck.KEY);
        final long orderId;
        try {
            orderId = params.pathOrderId(ctx);
        } catch (final ApiException e) {
            refuse(request, tag, CommandType.AMEND, e.error(), body, 0, key, key.account());
            return;
        }
        // the view holds every open order, so an order it does not hold cannot be amended; one of another account is
        // answered exactly as an unknown id, and neither reaches the engine
        final OrderState order = settings.view().get(orderId);
        if (order == null || !AccountScope.owns(key, order)) {
            refuse(request, tag, CommandType.AMEND, RouteParams.notFound(orderId), body, orderId, key, key.account());
            return;
        }
        final OrderRequestParser.AmendOrder amend;
        try {
            amend = settings.parser().parseAmend(body, settings.parser().instrument(order.symbol()));
        } catch (final ApiException e) {
            refuse(request, tag, CommandType.AMEND, e.error(), body, orderId, key, key.account());
            return;
        }
        final long requestId = pending.nextRequestId();
        send(request, requestId, settings.input().tryAmend(orderId, amend.price(), amend.quantity(), requestId, index,
                tag, clients.remote(request), key.keyId(), order.accountId()));
    }

    /** {@code DELETE /api/v1/orders[?symbol=][&accountId=]}: every open order of the account, in one command. */
    public void cancelAll(final RoutingContext ctx) {
        final HttpServerRequest request = ctx.request();
        final String tag = ctx.get(RequestAdmission.TAG);
        final ApiKey key = ctx.get(AccessCheck.KEY);
        final String accountId = scope.accountOf(request, key, request.getParam("accountId"));
        if (accountId == null) {
            return;
        }
        final String symbolName = request.getParam("symbol");
        int symbol = -1;
        if (symbolName != null) {
            final Instrument instrument = settings.parser().instrument(symbolName);
            if (instrument == null) {
                refuse(request, tag, CommandType.CANCEL_ALL, ApiError.unprocessable("UNKNOWN_SYMBOL", "symbol '"
                        + symbolName + "' is not traded here; see GET /api/v1/symbols", "symbol"), null, 0, key,
                        accountId);
                return;
            }
            symbol = instrument.index();
        }
        final long requestId = pending.nextRequestId();
        send(request, requestId, settings.input().tryCancelAll(accountId, symbol, RejectReason.CANCEL_ALL, requestId,
                index, tag, clients.remote(request), key.keyId()));
    }

    /**
     * {@code POST /api/v1/cancel-all-after} {@code {"timeoutSeconds":60}}: arms (0: disarms) the account's dead man's
     * switch; answers {@code {"triggerAt":...}} (null when disarmed).
     */
    public void cancelAllAfter(final RoutingContext ctx) {
        final HttpServerRequest request = ctx.request();
        final ApiKey key = ctx.get(AccessCheck.KEY);
        final CancelAllAfterRequest parsed;
        try {
            parsed = CancelAllAfterRequest.parse(settings.json().mapper(), RequestAdmission.body(ctx));
        } catch (final ApiException e) {
            responses.fail(request, e.error());
            return;
        }
        final String accountId = scope.accountOf(request, key, parsed.accountId());
        if (accountId == null) {
            return;
        }
        final int timeoutSeconds = parsed.timeoutSeconds();
        final Context context = Vertx.currentContext();
        settings.deadMansSwitch().arm(accountId, timeoutSeconds, key.keyId(), new CancelAllAfter.Outcome() {
            @Override
            public void armed(final long triggerAtMicros) {
                onContext(context, () -> Responses.respond(request, 200, Buffer.buffer(triggerAtMicros == 0
                        ? "{\"triggerAt\":null,\"timeoutSeconds\":0}"
                        : "{\"triggerAt\":\"" + Json.timestamp(triggerAtMicros) + "\",\"timeoutSeconds\":"
                        + timeoutSeconds + "}")));
            }

            @Override
            public void failed(final String code, final String message) {
                onContext(context, () -> responses.unavailable(request, code, message));
            }
        });
    }

    /** Runs {@code answer} on the request's event loop: a cluster's switch answers from the cluster's threads. */
    private static void onContext(final Context context, final Runnable answer) {
        if (context == null || context == Vertx.currentContext()) {
            answer.run();
        } else {
            context.runOnContext(ignored -> answer.run());
        }
    }

    /** Answers a refusal of the edge and hands it to the audit trail. */
    private void refuse(final HttpServerRequest request, final String tag, final CommandType action,
                        final ApiError error, final byte[] body, final long orderId, final ApiKey key,
                        final String account) {
        audit(request, tag, action, error, body, orderId, key, account);
        responses.fail(request, error);
    }

    /** Hands a refusal already answered to the audit trail. */
    private void audit(final HttpServerRequest request, final String tag, final CommandType action,
                       final ApiError error, final byte[] body, final long orderId, final ApiKey key,
                       final String account) {
        refusals.publish(tag, clients.remote(request), action, error, body, orderId, key.keyId(), account);
    }

    /**
     * Makes the request wait for the command's answer, or answers 503 when the input ring did not take it: it is full,
     * or the service began to stop meanwhile.
     */
    private void send(final HttpServerRequest request, final long requestId, final boolean taken) {
        if (taken) {
            pending.await(requestId, request);
        } else {
            responses.notTaken(request, settings.input().closed());
        }
    }
}
