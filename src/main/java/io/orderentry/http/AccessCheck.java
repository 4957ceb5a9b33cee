package io.orderentry.http;

import io.orderentry.auth.ApiKey;
import io.orderentry.pipeline.CommandType;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;

/**
 * Access to the routes, as route handlers in front of theirs: {@link #need} admits a request whose key has a
 * permission ({@link AccessControl.Gate#admit}) and hands the key to the next handler under {@link #KEY}, or answers
 * the refusal (401, 403 or 429) and audits it; {@link #anonymous} takes a token of the address's budget for requests
 * without a key, or answers 429. The POST fast path and the stream's upgrade, which bypass the router, call
 * {@link #admit} and {@link #admitAnonymous} themselves.
 *
 * <p>Threads: the owning verticle's event loop (the gate it holds is that loop's).
 */
public final class AccessCheck {

    /** The routing context's key of the admitted request's {@link ApiKey} ({@link AccessControl#OPEN} when off). */
    public static final String KEY = "apiKey";

    private final AccessControl access;
    private final AccessControl.Gate gate;
    private final EdgeRefusals refusals;
    private final ClientConnections clients;
    private final Responses responses;

    public AccessCheck(final AccessControl access, final EdgeRefusals refusals, final ClientConnections clients,
                       final Responses responses) {
        this.access = access;
        this.gate = access.gate();
        this.refusals = refusals;
        this.clients = clients;
        this.responses = responses;
    }

    /**
     * @param action    the order command the route carries (audited with a refusal), null for reads, the operations
     *                  endpoints and the dead man's switch
     * @param auditBody whether a refusal's audit record carries the request's body
     * @return a route handler that admits requests whose key has {@code need}
     */
    public Handler<RoutingContext> need(final AccessControl.Need need, final CommandType action,
                                        final boolean auditBody) {
        return ctx -> {
            final ApiKey key = admit(ctx.request(), ctx.get(RequestAdmission.TAG), need, action,
                    auditBody ? RequestAdmission.body(ctx) : null);
            if (key != null) {
                ctx.put(KEY, key);
                ctx.next();
            }
        };
    }

    /**
     * Checks the request's key for {@code need}; answers and audits a refusal.
     *
     * @return the key ({@link AccessControl#OPEN} while authentication is off), or null when the request was refused
     */
    public ApiKey admit(final HttpServerRequest request, final String tag, final AccessControl.Need need,
                        final CommandType action, final byte[] body) {
        final ApiKey key = gate.admit(request, need);
        if (key == null) {
            refuse(request, tag, action, body);
        }
        return key;
    }

    /** Route handler: takes a token of the address's budget for requests without a key; answers 429 when none. */
    public void anonymous(final RoutingContext ctx) {
        if (admitAnonymous(ctx.request())) {
            ctx.next();
        }
    }

    /** @return whether the address's budget for requests without a key had a token; answered 429 when not */
    public boolean admitAnonymous(final HttpServerRequest request) {
        if (gate.admitAnonymous(request)) {
            return true;
        }
        responses.fail(request, gate.refusal());
        return false;
    }

    /** @return whether authentication is on and the request carries a valid API key */
    public boolean keyed(final HttpServerRequest request) {
        return access.enabled() && gate.authenticate(request.getHeader(HttpHeaders.AUTHORIZATION)) != null;
    }

    /**
     * Answers the refusal of the last {@link AccessControl.Gate#admit} (401, 403 or 429) and audits it: every
     * failed authentication (of a read too, with no action) and every order command refused for its permission. A
     * 429 is only counted: a rate-limited request never reaches the input ring, not even as an audit record.
     */
    private void refuse(final HttpServerRequest request, final String tag, final CommandType action,
                        final byte[] body) {
        final ApiError error = gate.refusal();
        if (error.status() != 429 && (action != null || error.status() == 401)) {
            final ApiKey known = gate.refusedKeyId() == null ? null : access.keys().byId(gate.refusedKeyId());
            refusals.publish(tag, clients.remote(request), action, action != null ? error : new ApiError(
                    error.status(), error.code(), request.method().name() + " " + request.path() + ": "
                    + error.message(), error.field()), body, 0, gate.refusedKeyId(),
                    known == null ? null : known.account());
        }
        responses.fail(request, error);
    }
}
