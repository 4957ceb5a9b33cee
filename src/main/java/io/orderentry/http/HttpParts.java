package io.orderentry.http;

import io.orderentry.account.AccountFeedStage;
import io.orderentry.http.json.Json;
import io.orderentry.http.rest.InputGateway;
import io.orderentry.http.rest.OrderRequestParser;
import io.orderentry.http.rest.ReplyStage;
import io.orderentry.http.stream.MarketDataAccess;
import io.orderentry.ops.MetricsText;
import io.orderentry.ops.ServiceStatus;
import io.orderentry.ops.SnapshotTrigger;
import io.orderentry.query.OrderStateView;
import io.vertx.core.buffer.Buffer;
import org.slf4j.Logger;

/**
 * The collaborators every {@link OrderVerticle} is handed in its constructor, with the server's settings
 * ({@link HttpConfig}). Shared by all instances; each part is thread-safe.
 *
 * @param config     where the server listens and what one client may hold of it
 * @param orderFeeds the order stage's private feeds, which the stream's {@code orders} channel subscribes to
 * @param assets     the instruments' assets, and whether accounts have balances ({@code ORDERS_RISK})
 */
public record HttpParts(Json json, OrderRequestParser parser, InputGateway input,
                        OrderStateView view, ReplyStage replies, ServiceStatus status, MetricsText metrics,
                        HttpMetrics httpMetrics, Buffer openApi, Logger log, MarketDataAccess marketData,
                        SnapshotTrigger snapshots, HttpConfig config, ClientBounds clients,
                        AccessControl access, AccountFeedStage orderFeeds,
                        io.orderentry.account.CancelAllAfter deadMansSwitch, io.orderentry.instrument.Assets assets) {

    /** @return the TLS settings when HTTPS is on, else null */
    public io.orderentry.auth.AuthConfig tls() {
        return access.tlsConfig();
    }
}
