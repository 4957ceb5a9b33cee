package io.orderentry.http;

import io.orderentry.config.ConfigReader;
import io.orderentry.http.rest.InputGateway;

/**
 * Where the HTTP server listens and the bounds on what one client can hold of it (README, "Configuration"). Read
 * from the settings and checked by {@link #from}.
 *
 * @param host                     the address the server binds
 * @param port                     its port; 0 takes a free one
 * @param instances                verticle instances (event loops serving requests)
 * @param idleTimeoutSeconds       a connection that neither sends nor receives for this long is closed (stream clients
 *                                 get heartbeats, so only dead ones are); 0: never
 * @param headerTimeoutSeconds     a request head (request line and headers) must arrive whole within this long of its
 *                                 first byte, else the connection is closed unanswered; 0: never
 * @param bodyTimeoutSeconds       a request whose body has not arrived whole this long after its head is answered 408
 *                                 and its connection closed, on every route; 0: never
 * @param maxConnections           the most HTTP and WebSocket connections open at once; more are closed at accept
 * @param maxConnectionsPerAddress the most of them one client address holds (IPv6 by /64); more are closed at accept
 * @param maxStreamsPerAddress     the most stream connections one client address holds; more are answered 503
 * @param anonymousStreamPercent   the share of the stream's connections that upgrades without a valid API key may take,
 *                                 so that subscribers without a key can never take every stream slot from those with one
 * @param refusalsAuditedPerSecond refusals (401, 403, 400, 413, 422, ...) recorded one by one in the audit trail a
 *                                 second in all, and a tenth of that per address ({@link RefusalBudget}); the rest are
 *                                 answered as usual and recorded in one summary record a second ({@link InputGateway})
 * @param metricsCacheMillis       how old the {@code /metrics} rendering served may be; 0: rendered for every scrape
 * @param answerTimeoutMillis      in cluster mode, how long a request waits for its command to come back committed
 *                                 before it is answered {@code 503 OUTCOME_UNKNOWN}; 0 (one node) waits for the engine
 */
public record HttpConfig(String host, int port, int instances, int idleTimeoutSeconds, int headerTimeoutSeconds,
                         int bodyTimeoutSeconds, int maxConnections, int maxConnectionsPerAddress,
                         int maxStreamsPerAddress, int anonymousStreamPercent, int refusalsAuditedPerSecond,
                         long metricsCacheMillis, long answerTimeoutMillis) {

    public HttpConfig {
        if (instances < 1) {
            throw new IllegalArgumentException("instances must be >= 1");
        }
        if (idleTimeoutSeconds < 0 || headerTimeoutSeconds < 0 || bodyTimeoutSeconds < 0 || metricsCacheMillis < 0
                || answerTimeoutMillis < 0) {
            throw new IllegalArgumentException("the timeouts must be >= 0");
        }
        if (maxConnections < 1 || maxConnectionsPerAddress < 1 || maxStreamsPerAddress < 1
                || refusalsAuditedPerSecond < 1) {
            throw new IllegalArgumentException("maxConnections, maxConnectionsPerAddress, maxStreamsPerAddress and"
                    + " refusalsAuditedPerSecond must be >= 1");
        }
        if (anonymousStreamPercent < 1 || anonymousStreamPercent > 100) {
            throw new IllegalArgumentException("anonymousStreamPercent must be from 1 to 100");
        }
    }

    /**
     * @param answerTimeoutMillis the cluster's {@code cluster.answer.timeout.millis}; 0 in single-node mode
     * @return the server's settings ({@code http.*}, the stream's per-address bounds, the refusals audited); 0
     *     instances is one per core
     */
    public static HttpConfig from(final ConfigReader settings, final long answerTimeoutMillis) {
        final int instances = settings.intValue("http.instances", 0, 64);
        return new HttpConfig(settings.string("http.host"), settings.intValue("http.port", 0, 65_535),
                instances == 0 ? Runtime.getRuntime().availableProcessors() : instances,
                settings.intValue("http.idle.timeout.seconds", 0, 86_400),
                settings.intValue("http.header.timeout.seconds", 0, 3_600),
                settings.intValue("http.body.timeout.seconds", 0, 3_600),
                settings.intValue("http.max.connections", 1, 10_000_000),
                settings.intValue("http.max.connections.per.address", 1, 10_000_000),
                settings.intValue("ws.max.connections.per.address", 1, 1_000_000),
                settings.intValue("ws.anonymous.percent", 1, 100),
                settings.intValue("audit.refusals.per.second", 1, 1_000_000),
                settings.longValue("http.metrics.cache.millis", 0, 60_000), answerTimeoutMillis);
    }
}
