package io.orderentry.app;

import io.orderentry.account.AccountFeedStage;
import io.orderentry.audit.AuditStage;
import io.orderentry.audit.AuditTrail;
import io.orderentry.http.json.Json;
import io.orderentry.http.rest.ReplyStage;
import io.orderentry.http.stream.StreamFanOut;
import io.orderentry.http.stream.StreamMetrics;
import io.orderentry.marketdata.MarketDataStage;
import io.orderentry.ops.ServiceStatus;
import io.orderentry.ops.StageLatency;
import io.orderentry.query.OrderStateView;

/**
 * The output ring's stages (persistence's aside, which {@link PersistenceWiring} owns) and the WebSocket fan-out that
 * market data hands its frames to, built together because they are built from one another: the audit trail, the
 * replies and the account feeds all read the order view. {@link Pipeline#startOutput} wires them.
 *
 * @param view       the order view: the state that GET and the replies read (oe-orders)
 * @param audit      the audit trail's stage (oe-orders, after the view)
 * @param replies    the answers to the HTTP event loops (oe-orders, after the audit trail)
 * @param feeds      the stream's private {@code orders} channel (oe-orders, last)
 * @param marketData books, trades and tickers (oe-marketdata)
 * @param fanOut     the WebSocket fan-out of market data's frames (the event loops)
 */
record OutputStages(OrderStateView view, AuditStage audit, ReplyStage replies, AccountFeedStage feeds,
                    MarketDataStage marketData, StreamFanOut fanOut) {

    /**
     * Builds the stages from the settings; the audit stage reports failures and resumption to {@code status}, the
     * replies record each answer's hand-overs into {@code latency}.
     */
    static OutputStages build(final Config config, final AuditTrail trail, final ServiceStatus status,
                              final StreamMetrics streamMetrics, final StageLatency latency) {
        final OrderStateView view = new OrderStateView(config.query().retainedFinalOrders(),
                config.engine().dedupWindow());
        final AuditStage audit = new AuditStage(trail, status::auditFailed, status::auditResumed,
                view::holdsOnApplyingThread);
        final int loops = config.http().instances();
        return new OutputStages(view, audit, new ReplyStage(view, loops, latency),
                new AccountFeedStage(view, Json.orderFeedRenderer(config.instruments(), config.assets())),
                new MarketDataStage(config.instruments().size(), loops, config.marketData()),
                new StreamFanOut(config.instruments(), loops, streamMetrics, config.marketData().fanOutCpuPercent()));
    }
}
