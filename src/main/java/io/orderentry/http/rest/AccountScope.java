package io.orderentry.http.rest;

import io.orderentry.auth.ApiKey;
import io.orderentry.http.AccessControl;
import io.orderentry.http.ApiError;
import io.orderentry.http.ApiException;
import io.orderentry.http.Responses;
import io.orderentry.query.OrderState;
import io.vertx.core.http.HttpServerRequest;

/**
 * Which account an order request acts for and which orders it may see: with authentication on, the key's account and
 * its orders only (another account named is 403 {@code ACCOUNT_MISMATCH}); with it off, the account the request names
 * and every order.
 *
 * <p>Threads: the owning verticle's event loop.
 */
final class AccountScope {

    private final AccessControl access;
    private final Responses responses;

    AccountScope(final AccessControl access, final Responses responses) {
        this.access = access;
        this.responses = responses;
    }

    /**
     * @return the account a request acts for: the key's (a named one must be it: else 403 ACCOUNT_MISMATCH), or with
     *         authentication off the named one (required); null when the request was answered with an error
     */
    String accountOf(final HttpServerRequest request, final ApiKey key, final String named) {
        try {
            return accountFor(key, named);
        } catch (final ApiException e) {
            responses.fail(request, e.error());
            return null;
        }
    }

    /**
     * @return the account a request acts for, as {@link #accountOf}
     * @throws ApiException with the answer when it names another account than the key's, or names none (or an invalid
     *     one) with authentication off
     */
    String accountFor(final ApiKey key, final String named) throws ApiException {
        if (key != AccessControl.OPEN) {
            if (named == null || named.equals(key.account())) {
                return key.account();
            }
            throw mismatch(named, key).toException();
        }
        if (named == null) {
            throw ApiError.badRequest("MISSING_PARAMETER", "accountId is required", "accountId").toException();
        }
        if (!OrderRequestParser.ACCOUNT_ID.matcher(named).matches()) {
            throw ApiError.badRequest("INVALID_ACCOUNT_ID", "accountId must be 1-64 of [A-Za-z0-9_-]", "accountId")
                    .toException();
        }
        return named;
    }

    /** @return whether the key may see the order: authentication is off, or the order is the key's account's */
    static boolean owns(final ApiKey key, final OrderState order) {
        return key == AccessControl.OPEN || order != null && key.account().equals(order.accountId());
    }

    /** @return the 403 for a request that names another account than its key's (counted) */
    ApiError mismatch(final String named, final ApiKey key) {
        access.accountMismatch();
        return new ApiError(403, "ACCOUNT_MISMATCH", "accountId '" + named + "' is not the account of this API key ("
                + key.account() + ")", "accountId");
    }
}
