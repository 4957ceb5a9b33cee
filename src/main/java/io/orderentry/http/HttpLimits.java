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
 */
public record HttpLimits(int idleTimeoutSeconds, int maxConnections, int refusalsAuditedPerSecond,
                         int bodyTimeoutSeconds) {

    public HttpLimits {
        if (idleTimeoutSeconds < 0 || maxConnections < 1 || refusalsAuditedPerSecond < 1 || bodyTimeoutSeconds < 0) {
            throw new IllegalArgumentException("idleTimeoutSeconds and bodyTimeoutSeconds must be >= 0, maxConnections"
                    + " and refusalsAuditedPerSecond >= 1");
        }
    }
}
