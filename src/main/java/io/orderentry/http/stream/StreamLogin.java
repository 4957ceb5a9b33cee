package io.orderentry.http.stream;

import com.fasterxml.jackson.databind.JsonNode;
import io.orderentry.auth.ApiKey;
import io.orderentry.auth.RateLimits;
import io.orderentry.auth.TokenBucket;
import io.orderentry.http.AccessControl;
import io.orderentry.http.ApiError;
import io.orderentry.http.ApiException;
import io.orderentry.http.EdgeRefusals;
import io.orderentry.http.json.Json;
import io.orderentry.http.rest.OrderRequestParser;
import io.orderentry.http.rest.ReplyResults;
import io.orderentry.pipeline.CommandType;
import io.vertx.core.http.HttpHeaders;
import java.util.Set;

/**
 * Who a stream connection's order entry acts for ({@link StreamOrderEntry}): its {@code login}, and the admission of
 * each of its commands.
 *
 * <p>{@code {"op":"login","apiKey":"<secret>"}} (or the upgrade's {@code Authorization: Bearer} header, taken at the
 * first command or by a login without {@code apiKey}) binds the connection to a key for its life; every command is then
 * admitted against that key as it stands in the keys file at that moment (a revoked key is refused from the next
 * command on), with the key's request and order budgets and its permission, as a REST request is. A command before any
 * key is answered {@code 401 UNAUTHENTICATED} and the connection stays open. A login with an unknown or revoked key is
 * answered 401 and audited like a failed REST authentication; it takes a token of the address's budget for requests
 * without a key, so guessing secrets is as slow here as over REST. A second login with another key is
 * {@code 400 ALREADY_LOGGED_IN}. With authentication off no login is needed; a login may name the connection's
 * {@code accountId}, which then binds it (needed for {@code cancelOnDisconnect}). A logged-in connection's message
 * budget becomes twice its key's request budget, so that the key's budgets, whose refusals carry the command's id,
 * bind first.
 *
 * <p>Threads: the event loop of the {@link StreamHub} that owns the sessions.
 */
final class StreamLogin {

    private static final Set<String> LOGIN_FIELDS = Set.of("op", "id", "apiKey", "accountId", "cancelOnDisconnect");
    /** A logged-in connection's message budget when the keys' request budget is off. */
    private static final double UNLIMITED_PER_SECOND = 1_000_000;

    private final AccessControl access;
    private final AccessControl.Gate gate;
    private final EdgeRefusals refusals;
    private final ReplyResults results;
    private final Json json;

    StreamLogin(final AccessControl access, final EdgeRefusals refusals, final ReplyResults results, final Json json) {
        this.access = access;
        this.gate = access.gate();
        this.refusals = refusals;
        this.results = results;
        this.json = json;
    }

    /** Handles a {@code login}: binds the connection to a key (or, with authentication off, an account). */
    void login(final StreamSession session, final JsonNode root, final String id) {
        try {
            StreamFields.unknownFields(root, LOGIN_FIELDS);
        } catch (final ApiException e) {
            session.sendAnswer(results.refused(id, e.error()));
            return;
        }
        final JsonNode cod = root.get("cancelOnDisconnect");
        if (cod != null && !cod.isNull() && !cod.isBoolean()) {
            session.sendAnswer(results.refused(id, ApiError.badRequest("INVALID_TYPE", "cancelOnDisconnect must be a"
                    + " boolean", "cancelOnDisconnect")));
            return;
        }
        final JsonNode secretNode = root.get("apiKey");
        if (secretNode != null && !secretNode.isNull() && !secretNode.isTextual()) {
            session.sendAnswer(results.refused(id, ApiError.badRequest("INVALID_TYPE", "apiKey must be a string",
                    "apiKey")));
            return;
        }
        final String secret = secretNode == null || secretNode.isNull() ? null : secretNode.textValue();
        final String named;
        try {
            named = StreamFields.optionalText(root, "accountId");
        } catch (final ApiException e) {
            session.sendAnswer(results.refused(id, e.error()));
            return;
        }
        final boolean cancelOnDisconnect = cod != null && cod.asBoolean(false);
        final OrderEntrySession entry = session.orderEntry();
        final ApiKey key;
        final String account;
        if (!access.enabled()) {
            key = AccessControl.OPEN;
            if (named != null && !OrderRequestParser.ACCOUNT_ID.matcher(named).matches()) {
                session.sendAnswer(results.refused(id, ApiError.badRequest("INVALID_ACCOUNT_ID", "accountId must be 1-64"
                        + " of [A-Za-z0-9_-]", "accountId")));
                return;
            }
            if (cancelOnDisconnect && named == null && entry.accountId() == null) {
                session.sendAnswer(results.refused(id, ApiError.badRequest("MISSING_FIELD", "with authentication off"
                        + " (ORDERS_AUTH=none) cancelOnDisconnect needs the connection's accountId", "accountId")));
                return;
            }
            account = named != null ? named : entry.accountId();
        } else {
            if (secret == null && entry.key() != null) {
                key = entry.key();      // logged in by the upgrade's header: the login only sets cancelOnDisconnect
            } else if (secret == null && session.header(HttpHeaders.AUTHORIZATION) != null) {
                // the upgrade's header, not used yet: a login without apiKey takes it (to set cancelOnDisconnect)
                key = authenticate(session, AccessControl.bearer(session.header(HttpHeaders.AUTHORIZATION)),
                        "the upgrade's Authorization header is not 'Bearer <secret>'");
                if (key == null) {
                    session.sendAnswer(results.refused(id, gate.refusal()));
                    return;
                }
            } else {
                key = authenticate(session, secret, secret == null
                        ? "login needs \"apiKey\" (or 'Authorization: Bearer <secret>' with the upgrade)" : null);
                if (key == null) {
                    session.sendAnswer(results.refused(id, gate.refusal()));
                    return;
                }
            }
            if (named != null && !named.equals(key.account())) {
                access.accountMismatch();
                session.sendAnswer(results.refused(id, new ApiError(403, "ACCOUNT_MISMATCH", "accountId '" + named
                        + "' is not the account of this API key (" + key.account() + ")", "accountId")));
                return;
            }
            account = key.account();
        }
        if (entry.key() != null && !sameKey(entry.key(), key)
                || entry.accountId() != null && !entry.accountId().equals(account)) {
            session.sendAnswer(results.refused(id, ApiError.badRequest("ALREADY_LOGGED_IN", "this connection is logged"
                    + " in for " + (entry.key() != null && entry.key().keyId() != null ? "key " + entry.key().keyId()
                    : "account " + entry.accountId()) + " for its life; open another connection for another",
                    "apiKey")));
            return;
        }
        if (entry.key() == null) {
            session.budget(loggedInBudget());
        }
        entry.loggedIn(key, account, cancelOnDisconnect);
        session.sendAnswer(json.loggedIn(id, account, key == AccessControl.OPEN ? null : key.keyId(),
                entry.cancelOnDisconnect(), StreamFrames.TEXT_FRAME));
    }

    private static boolean sameKey(final ApiKey a, final ApiKey b) {
        return a == b || a.keyId() != null && a.keyId().equals(b.keyId());
    }

    /**
     * @return the key a command of the session acts with, admitted for an order command (still valid, within its
     *     budgets, allowed to trade), or null after answering the refusal
     */
    ApiKey admit(final StreamSession session, final String id, final String tag, final CommandType action) {
        final OrderEntrySession entry = session.orderEntry();
        if (!access.enabled()) {
            return AccessControl.OPEN;
        }
        ApiKey key = entry.key();
        if (key == null) {
            final String header = session.header(HttpHeaders.AUTHORIZATION);
            if (header == null) {
                gate.admitSecret(null, "log in first: {\"op\":\"login\",\"apiKey\":\"<secret>\"}",
                        session.remoteAddress(), AccessControl.Need.ORDER);
                final ApiError error = gate.refusal();
                if (error.status() != 429) {
                    refusals.publish(tag, session.remoteText(), action, error, null, 0, null, null);
                }
                session.sendAnswer(results.refused(id, error));
                return null;
            }
            key = authenticate(session, AccessControl.bearer(header), "the upgrade's Authorization header is not"
                    + " 'Bearer <secret>'");
            if (key == null) {
                session.sendAnswer(results.refused(id, gate.refusal()));
                return null;
            }
            session.budget(loggedInBudget());
            entry.loggedIn(key, key.account(), false);
        }
        final ApiKey admitted = gate.admitKey(key, session.remoteAddress(), AccessControl.Need.ORDER);
        if (admitted == null) {
            final ApiError error = gate.refusal();
            if (error.status() != 429) {
                refusals.publish(tag, session.remoteText(), action, error, null, 0, key.keyId(), key.account());
            }
            session.sendAnswer(results.refused(id, error));
            return null;
        }
        return admitted;
    }

    /** @return the key of {@code secret}, or null: {@link AccessControl.Gate#refusal} says why (audited) */
    private ApiKey authenticate(final StreamSession session, final String secret, final String missing) {
        final ApiKey key = gate.admitSecret(secret, missing, session.remoteAddress(), AccessControl.Need.READ);
        if (key == null) {
            final ApiError error = gate.refusal();
            if (error.status() == 401) {
                final ApiKey known = gate.refusedKeyId() == null ? null : access.keys().byId(gate.refusedKeyId());
                refusals.publish(null, session.remoteText(), null, new ApiError(error.status(), error.code(),
                        "login on /api/v1/stream: " + error.message(), error.field()), null, 0, gate.refusedKeyId(),
                        known == null ? null : known.account());
            }
        }
        return key;
    }

    /**
     * @return the message budget of a logged-in connection: twice its key's request budget, so that the key's budgets,
     *     whose refusals are answered with the command's id (429 RATE_LIMITED), bind first, and only a flood beyond
     *     twice that is dropped unread; or none when the keys' budget is off
     */
    private TokenBucket loggedInBudget() {
        final RateLimits.Limit requests = access.limits().requests();
        final long now = System.nanoTime();
        return requests.enabled() ? new TokenBucket(2 * requests.perSecond(), 2 * requests.burst(), now)
                : new TokenBucket(UNLIMITED_PER_SECOND, (long) UNLIMITED_PER_SECOND, now);
    }
}
