package io.orderentry.http.rest;

import io.orderentry.auth.ApiKey;
import io.orderentry.http.AccessCheck;
import io.orderentry.http.ApiError;
import io.orderentry.http.ApiException;
import io.orderentry.http.ClientConnections;
import io.orderentry.http.EdgeRefusals;
import io.orderentry.http.HttpParts;
import io.orderentry.http.RequestAdmission;
import io.orderentry.http.Responses;
import io.orderentry.http.json.BalanceJson;
import io.orderentry.instrument.Assets;
import io.orderentry.pipeline.Answer;
import io.orderentry.pipeline.CommandType;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;

/**
 * The balances' routes ({@code ORDERS_RISK=balances}; API.md, "Balances and pre-trade risk"): an account's balances,
 * read from the order view's {@code BalanceBook}, and an admin's funding, sent into the input ring and answered once
 * durable with the balance it left. With {@code ORDERS_RISK=none} both answer {@code 404 BALANCES_DISABLED}. Access
 * and readiness are checked before these handlers run.
 *
 * <p>Threads: the owning verticle's event loop.
 */
public final class BalanceRoutes {

    private static final ApiError DISABLED = new ApiError(404, "BALANCES_DISABLED", "this venue runs without balances"
            + " (ORDERS_RISK=none): orders are matched whatever an account holds", null);

    private final int index;
    private final HttpParts settings;
    private final PendingReplies pending;
    private final Responses responses;
    private final EdgeRefusals refusals;
    private final ClientConnections clients;
    private final AccountScope scope;
    private final Assets assets;
    private final BalanceJson json;

    public BalanceRoutes(final int index, final HttpParts settings, final PendingReplies pending,
                         final Responses responses, final EdgeRefusals refusals, final ClientConnections clients) {
        this.index = index;
        this.settings = settings;
        this.pending = pending;
        this.responses = responses;
        this.refusals = refusals;
        this.clients = clients;
        this.scope = new AccountScope(settings.access(), responses);
        this.assets = settings.assets();
        this.json = new BalanceJson(settings.json(), assets);
    }

    /** {@code GET /api/v1/balances[?accountId=]}: the key's account's balances. */
    public void balances(final RoutingContext ctx) {
        final HttpServerRequest request = ctx.request();
        if (!assets.balances()) {
            responses.fail(request, DISABLED);
            return;
        }
        final String accountId = scope.accountOf(request, ctx.get(AccessCheck.KEY), request.getParam("accountId"));
        if (accountId == null) {
            return;
        }
        Responses.respond(request, 200, json.balances(settings.view().balances().read(accountId)));
    }

    /** {@code GET /admin/balances/{accountId}}: any account's balances (the fee account's too); admin keys only. */
    public void accountBalances(final RoutingContext ctx) {
        final HttpServerRequest request = ctx.request();
        if (!assets.balances()) {
            responses.fail(request, DISABLED);
            return;
        }
        final String accountId = ctx.pathParam("accountId");
        if (accountId == null || !OrderRequestParser.ACCOUNT_ID.matcher(accountId).matches()) {
            responses.fail(request, ApiError.badRequest("INVALID_ACCOUNT_ID", "accountId must be 1-64 of [A-Za-z0-9_-]",
                    "accountId"));
            return;
        }
        Responses.respond(request, 200, json.balances(settings.view().balances().read(accountId)));
    }

    /** {@code POST /admin/balances/{accountId}}: a deposit, or with a negative amount a withdrawal; admin keys only. */
    public void fund(final RoutingContext ctx) {
        final HttpServerRequest request = ctx.request();
        if (!assets.balances()) {
            responses.fail(request, DISABLED);
            return;
        }
        final String tag = ctx.get(RequestAdmission.TAG);
        final ApiKey key = ctx.get(AccessCheck.KEY);
        final String accountId = ctx.pathParam("accountId");
        final byte[] body = RequestAdmission.body(ctx);
        final FundingRequest funding;
        try {
            if (accountId == null || !OrderRequestParser.ACCOUNT_ID.matcher(accountId).matches()) {
                throw ApiError.badRequest("INVALID_ACCOUNT_ID", "accountId must be 1-64 of [A-Za-z0-9_-]",
                        "accountId").toException();
            }
            funding = FundingRequest.parse(settings.json().mapper(), body, assets);
        } catch (final ApiException e) {
            refusals.publish(tag, clients.remote(request), CommandType.FUND, e.error(), body, 0, key.keyId(),
                    null);
            responses.fail(request, e.error());
            return;
        }
        final long requestId = pending.nextRequestId();
        if (!settings.input().tryFund(accountId, funding.asset(), funding.amount(), funding.reference(), requestId,
                index, tag, clients.remote(request), key.keyId())) {
            responses.notTaken(request, settings.input().closed());
            return;
        }
        pending.await(requestId, new ReplyWaiter() {
            @Override
            public void replied(final Reply reply) {
                answer(request, accountId, reply);
            }

            @Override
            public void unavailable(final String code, final String message) {
                responses.unavailable(request, code, message);
            }
        });
    }

    private void answer(final HttpServerRequest request, final String accountId, final Reply reply) {
        if (reply.journalFailed()) {
            responses.unavailable(request, Answer.JOURNAL_UNAVAILABLE.code(), Answer.JOURNAL_UNAVAILABLE.message());
            return;
        }
        final Answer answer = Answer.of(reply.result(), false, false);
        final Reply.Funding funding = reply.funding();
        if (answer.success()) {
            Responses.respond(request, answer.status(), json.funding(accountId, funding.asset(), funding.available(),
                    funding.held(), funding.sequence()));
            return;
        }
        final String message = switch (reply.result()) {
            case INSUFFICIENT_BALANCE -> "the withdrawal asks for more than the available "
                    + assets.amount(funding.asset(), funding.available()).toPlainString() + " "
                    + assets.names().get(funding.asset());
            default -> answer.message();
        };
        responses.fail(request, new ApiError(answer.status(), answer.code(), message,
                reply.result() == io.orderentry.engine.CommandResult.FUNDING_MISMATCH ? "reference" : "amount"));
    }
}
