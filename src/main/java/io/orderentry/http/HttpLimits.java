package io.orderentry.http;

/**
 * Bounds on what one client can hold of the HTTP server.
 *
 * @param idleTimeoutSeconds a connection that neither sends nor receives for this long is closed (stream clients get
 *                           heartbeats, so only dead ones are); 0: never
 * @param maxConnections     the most HTTP and WebSocket connections open at once; more are closed at accept
 * @param refusalsAuditedPerSecond edge refusals (400, 413, 422) recorded one by one in the audit trail a second; the
 *                           rest are answered as usual and recorded in one summary record a second ({@link InputGateway})
 * @param bodyTimeoutSeconds an order whose body has not arrived whole this long after its headers is answered 408 and
 *                           its connection closed; 0: never
 * @param answerTimeoutMillis in cluster mode, how long a request waits for its command to come back committed before
 *                           it is answered {@code 503 OUTCOME_UNKNOWN}; 0 (one node) waits for the engine's answer
 */
public record HttpLimits(int idleTimeoutSeconds, int maxConnections, int refusalsAuditedPerSecond,
                         int bodyTimeoutSeconds, long answerTimeoutMillis) {

    /** Limits of a single node, whose requests always get their answer from the engine (no answer timeout). */
    public HttpLimits(final int idleTimeoutSeconds, final int maxConnections, final int refusalsAuditedPerSecond,
                      final int bodyTimeoutSeconds) {
        this(idleTimeoutSeconds, maxConnections, refusalsAuditedPerSecond, bodyTimeoutSeconds, 0);
    }

    public HttpLimits {
        if (idleTimeoutSeconds < 0 || maxConnections < 1 || refusalsAuditedPerSecond < 1 || bodyTimeoutSeconds < 0
                || answerTimeoutMillis < 0) {
            throw new IllegalArgumentException("idleTimeoutSeconds, bodyTimeoutSeconds and answerTimeoutMillis must be"
                    + " >= 0, maxConnections and refusalsAuditedPerSecond >= 1");
        }
    }
}
