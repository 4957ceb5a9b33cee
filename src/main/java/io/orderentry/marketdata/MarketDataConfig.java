package io.orderentry.marketdata;

/**
 * Settings of the market data views and the WebSocket stream, validated by the config loader.
 *
 * @param tradesHistory         trades kept per symbol for REST and stream snapshots
 * @param snapshotMillis        the longest a REST order book answer may lag the market data
 *                              consumer; WebSocket snapshots are always current
 * @param maxConnections        WebSocket connections the whole service accepts at once
 * @param maxSubscriptions      subscriptions (channel and symbol pairs) per connection
 * @param maxQueuedMessages     messages a connection may have waiting behind a full socket before it
 *                              is conflated to fresh snapshots; more than {@code maxSubscriptions}
 * @param writeQueueBytes       bytes the socket itself may buffer before it counts as full
 * @param heartbeatMillis       interval of heartbeat messages, at most 5000
 * @param slowClientMillis      how long a connection may stay unable to take messages before it is
 *                              closed
 */
public record MarketDataConfig(int tradesHistory, long snapshotMillis, int maxConnections, int maxSubscriptions,
                               int maxQueuedMessages, int writeQueueBytes, long heartbeatMillis,
                               long slowClientMillis) {

    /** Longest heartbeat interval API.md allows. */
    public static final long MAX_HEARTBEAT_MILLIS = 5_000;

    public MarketDataConfig {
        if (tradesHistory <= 0 || snapshotMillis <= 0 || maxConnections <= 0 || maxSubscriptions <= 0
                || writeQueueBytes <= 0 || heartbeatMillis <= 0 || slowClientMillis <= 0) {
            throw new IllegalArgumentException("market data settings must all be > 0");
        }
        if (maxQueuedMessages <= maxSubscriptions) {
            throw new IllegalArgumentException("maxQueuedMessages (" + maxQueuedMessages
                    + ") must be more than maxSubscriptions (" + maxSubscriptions
                    + ") so that one snapshot per subscription always fits");
        }
        if (heartbeatMillis > MAX_HEARTBEAT_MILLIS) {
            throw new IllegalArgumentException("heartbeatMillis must be at most " + MAX_HEARTBEAT_MILLIS);
        }
    }
}
