package io.orderentry.marketdata;

import io.orderentry.config.ConfigException;
import io.orderentry.config.ConfigReader;
import io.orderentry.config.SettingNames;

/**
 * Settings of the market data views and the WebSocket stream. Read from the settings by {@link #from}, which checks
 * each bound with the variable's name; the constructor checks what no setting's bound implies.
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
 * @param maxQueuedBytes        bytes a connection's backlog may hold before it is conflated
 * @param totalQueuedBytes      bytes the backlogs of all connections together may hold; a connection
 *                              that would go past it is conflated
 * @param maxDeliveryWaitMillis longest the consumer waits for the event loops to write a batch to the
 *                              subscribers before it takes the next one
 * @param fanOutCpuPercent      share of one core (percent) the event loops may spend writing to
 *                              subscribers, on average
 * @param sendBufferBytes       the kernel's send buffer of each stream connection ({@code SO_SNDBUF}, which Linux
 *                              doubles); 0 leaves it to the kernel's autotuning (up to 4 MiB a socket)
 * @param deflate               whether the stream accepts permessage-deflate from clients that offer it, and then
 *                              sends them updates compressed once for all
 * @param input                 what one connection may send: messages a second, burst, and the largest message
 */
public record MarketDataConfig(int tradesHistory, long snapshotMillis, int maxConnections, int maxSubscriptions,
                               int maxQueuedMessages, int writeQueueBytes, long heartbeatMillis,
                               long slowClientMillis, long maxQueuedBytes, long totalQueuedBytes,
                               long maxDeliveryWaitMillis, int fanOutCpuPercent, int sendBufferBytes,
                               boolean deflate, StreamInput input) {

    /**
     * What one stream connection may send (README, "Market data", "Client messages"): {@code perSecond} messages a
     * second on average with bursts of {@code burst} (a token bucket per connection, charged before a message is
     * inflated or parsed), each frame and message at most {@code maxMessageBytes}, also once inflated.
     */
    public record StreamInput(int perSecond, int burst, int maxMessageBytes, int maxPendingOrders) {

        /** The defaults of order-entry.properties. */
        public static final StreamInput DEFAULT = new StreamInput(20, 40, 4096, 256);

        /** With the default bound of order commands waiting for their answers per connection. */
        public StreamInput(final int perSecond, final int burst, final int maxMessageBytes) {
            this(perSecond, burst, maxMessageBytes, DEFAULT.maxPendingOrders());
        }
        /** The smallest {@code maxMessageBytes}: a subscribe with an API key fits in far less. */
        public static final int MIN_MESSAGE_BYTES = 512;

        public StreamInput {
            if (perSecond <= 0 || burst < 1 || maxMessageBytes < MIN_MESSAGE_BYTES || maxPendingOrders < 1) {
                throw new IllegalArgumentException("stream input: messages a second and burst must be > 0, the"
                        + " largest message at least " + MIN_MESSAGE_BYTES + " bytes, the pending orders at least 1");
            }
        }
    }

    /** Longest heartbeat interval API.md allows. */
    public static final long MAX_HEARTBEAT_MILLIS = 5_000;
    /** Default of {@code sendBufferBytes}. */
    public static final int DEFAULT_SEND_BUFFER_BYTES = 16 * 1024;
    /** The smallest {@code sendBufferBytes} other than 0. */
    public static final int MIN_SEND_BUFFER_BYTES = 4096;

    /** As the canonical constructor, with the default {@code sendBufferBytes} and compression accepted. */
    public MarketDataConfig(final int tradesHistory, final long snapshotMillis, final int maxConnections,
                            final int maxSubscriptions, final int maxQueuedMessages, final int writeQueueBytes,
                            final long heartbeatMillis, final long slowClientMillis, final long maxQueuedBytes,
                            final long totalQueuedBytes, final long maxDeliveryWaitMillis, final int fanOutCpuPercent) {
        this(tradesHistory, snapshotMillis, maxConnections, maxSubscriptions, maxQueuedMessages, writeQueueBytes,
                heartbeatMillis, slowClientMillis, maxQueuedBytes, totalQueuedBytes, maxDeliveryWaitMillis,
                fanOutCpuPercent, DEFAULT_SEND_BUFFER_BYTES, true, StreamInput.DEFAULT);
    }

    public MarketDataConfig {
        if (input == null) {
            throw new IllegalArgumentException("the stream's input limits are required");
        }
        if (tradesHistory <= 0 || snapshotMillis <= 0 || maxConnections <= 0 || maxSubscriptions <= 0
                || writeQueueBytes <= 0 || heartbeatMillis <= 0 || slowClientMillis <= 0 || maxQueuedBytes <= 0
                || totalQueuedBytes < maxQueuedBytes || maxDeliveryWaitMillis <= 0 || fanOutCpuPercent <= 0 || fanOutCpuPercent > 100
                || sendBufferBytes < 0 || (sendBufferBytes > 0 && sendBufferBytes < MIN_SEND_BUFFER_BYTES)) {
            throw new IllegalArgumentException("market data settings must all be > 0 (the send buffer 0 or at least "
                    + MIN_SEND_BUFFER_BYTES + "), and the total backlog at least one connection's");
        }
    }

    /** @return the most order commands of one stream connection that may wait for their answers */
    public int maxPendingOrders() {
        return input.maxPendingOrders();
    }

    /** @return the market data views' and the stream's settings ({@code marketdata.*}, {@code ws.*}) */
    public static MarketDataConfig from(final ConfigReader settings) {
        final int subscriptions = settings.intValue("ws.max.subscriptions", 1, 10_000);
        final int queued = settings.intValue("ws.max.queued.messages", 2, 1_000_000);
        if (queued <= subscriptions) {
            throw new ConfigException(SettingNames.envName("ws.max.queued.messages") + " (" + queued
                    + ") must be more than " + SettingNames.envName("ws.max.subscriptions") + " (" + subscriptions
                    + "), so that one snapshot per subscription always fits in a connection's backlog");
        }
        return new MarketDataConfig(
                settings.intValue("marketdata.trades.history", 1, 1_000_000),
                settings.longValue("marketdata.snapshot.millis", 1, 60_000),
                settings.intValue("ws.max.connections", 1, 1_000_000),
                subscriptions,
                queued,
                settings.intValue("ws.write.queue.bytes", 1024, 64 << 20),
                settings.longValue("ws.heartbeat.millis", 100, MAX_HEARTBEAT_MILLIS),
                settings.longValue("ws.slow.client.millis", 100, 600_000),
                settings.longValue("ws.max.queued.bytes", 4096, 1L << 30),
                settings.longValue("ws.total.queued.bytes", 4096, 1L << 40),
                settings.longValue("marketdata.max.delivery.wait.millis", 1, 10_000),
                settings.intValue("ws.fanout.cpu.percent", 1, 100),
                settings.intValue("ws.send.buffer.bytes", 0, 64 << 20),
                settings.bool("ws.deflate"),
                new StreamInput(settings.intValue("ws.max.requests.per.second", 1, 100_000),
                        settings.intValue("ws.max.requests.burst", 1, 1_000_000),
                        settings.intValue("ws.max.message.bytes", StreamInput.MIN_MESSAGE_BYTES, 1 << 20),
                        settings.intValue("ws.max.pending.orders", 1, 100_000)));
    }
}
