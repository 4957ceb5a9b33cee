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
 * @param sendBufferBytes    the kernel's send buffer of each connection ({@code SO_SNDBUF}); 0 leaves it to the
 *                           kernel's autotuning, which lets one socket buffer up to {@code tcp_wmem}'s maximum (4 MiB
 *                           on Debian): 10,000 stream subscribers that stopped reading then took gigabytes of copies
 *                           into the kernel, seconds of both cores, before any of them counted as full
 */
public record HttpLimits(int idleTimeoutSeconds, int maxConnections, int refusalsAuditedPerSecond,
                         int bodyTimeoutSeconds, int sendBufferBytes) {

    public HttpLimits {
        if (idleTimeoutSeconds < 0 || maxConnections < 1 || refusalsAuditedPerSecond < 1 || bodyTimeoutSeconds < 0
                || sendBufferBytes < 0) {
            throw new IllegalArgumentException("idleTimeoutSeconds, bodyTimeoutSeconds and sendBufferBytes must be >= 0,"
                    + " maxConnections and refusalsAuditedPerSecond >= 1");
        }
    }
}
