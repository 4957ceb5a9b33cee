package io.orderentry.http;

import io.orderentry.ops.ServiceStatus;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import java.util.Locale;

/**
 * Readiness, as route handlers in front of the order routes': {@link #ready} lets a read through while the service is
 * {@link ServiceStatus.Phase#READY}, {@link #accepting} lets an order command through while it is ready and its audit
 * trail can write; else the request is answered 503 ({@code RECOVERING}, {@code NOT_ACCEPTING},
 * {@code AUDIT_UNAVAILABLE}) with {@code Retry-After}. The POST fast path calls {@link #refuseUnlessAccepting}.
 *
 * <p>Threads: the owning verticle's event loop.
 */
public final class ReadinessCheck {

    private final ServiceStatus status;
    private final Responses responses;

    public ReadinessCheck(final ServiceStatus status, final Responses responses) {
        this.status = status;
        this.responses = responses;
    }

    /** Route handler: reads pass while the service is ready. */
    public void ready(final RoutingContext ctx) {
        if (!refuseUnlessReady(ctx.request())) {
            ctx.next();
        }
    }

    /** Route handler: order commands pass while the service is ready and the audit trail can write. */
    public void accepting(final RoutingContext ctx) {
        if (!refuseUnlessAccepting(ctx.request())) {
            ctx.next();
        }
    }

    /** Answers 503 unless the service is ready and the audit trail can write; @return true if it answered */
    public boolean refuseUnlessAccepting(final HttpServerRequest request) {
        final ApiError refusal = unlessAccepting();
        if (refusal == null) {
            return false;
        }
        responses.unavailable(request, refusal.code(), refusal.message());
        return true;
    }

    /** @return null while the service is ready and the audit trail can write, else the 503 to answer an order with */
    public ApiError unlessAccepting() {
        final ApiError notReady = unlessReady();
        if (notReady != null) {
            return notReady;
        }
        return status.auditFailure() == null ? null : new ApiError(503, "AUDIT_UNAVAILABLE",
                "the audit trail cannot be written; orders are not accepted", null);
    }

    /** Answers 503 unless the service is ready; @return true if it answered */
    private boolean refuseUnlessReady(final HttpServerRequest request) {
        final ApiError notReady = unlessReady();
        if (notReady == null) {
            return false;
        }
        responses.unavailable(request, notReady.code(), notReady.message());
        return true;
    }

    private ApiError unlessReady() {
        final ServiceStatus.Phase phase = status.phase();
        if (phase == ServiceStatus.Phase.READY) {
            return null;
        }
        return new ApiError(503, phase == ServiceStatus.Phase.RECOVERING ? "RECOVERING" : "NOT_ACCEPTING",
                "the service is " + phase.name().toLowerCase(Locale.ROOT) + " and not accepting orders", null);
    }
}
