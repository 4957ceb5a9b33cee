package io.orderentry.http.stream;

import io.orderentry.account.AccountFeedStage;
import io.orderentry.marketdata.MarketDataView;
import io.orderentry.marketdata.SubscriberCounts;
import io.orderentry.ops.MetricsText;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Counters of the WebSocket stream, shared by every event loop. Written on the event loops, read
 * by {@code /metrics}; nothing blocks.
 */
public final class StreamMetrics {

    private final AtomicInteger clients = new AtomicInteger();
    private final AtomicInteger deflateClients = new AtomicInteger();
    private final LongAdder bytesSent = new LongAdder();
    private final LongAdder connections = new LongAdder();
    private final LongAdder conflations = new LongAdder();
    private final LongAdder slowDisconnects = new LongAdder();
    private final LongAdder messages = new LongAdder();
    private final LongAdder overruns = new LongAdder();
    private final LongAdder writes = new LongAdder();
    private final LongAdder fanOutCpuNanos = new LongAdder();
    private final LongAdder deliveryWaitsExpired = new LongAdder();
    private final AtomicLong queuedBytes = new AtomicLong();
    private final Recorder deliveryNanos = new Recorder(TimeUnit.SECONDS.toNanos(60), 2);
    private final Histogram deliverySinceScrape = new Histogram(TimeUnit.SECONDS.toNanos(60), 2);
    private final LongAdder deliveries = new LongAdder();
    private final LongAdder ordersMessages = new LongAdder();
    private final LongAdder ordersResyncs = new LongAdder();
    private final LongAdder refusedMessages = new LongAdder();
    private final LongAdder policyCloses = new LongAdder();
    private final LongAdder orderEntryAnswers = new LongAdder();
    private final LongAdder tooManyPending = new LongAdder();
    private final LongAdder answerCloses = new LongAdder();
    private final LongAdder cancelsOnDisconnect = new LongAdder();
    private long deliverySwappedNanos;

    /** Registers the stream's and the market data consumer's figures, and those of the private orders channel. */
    public void register(final MetricsText metrics, final MarketDataView view, final SubscriberCounts subscribers,
                         final AccountFeedStage orderFeeds) {
        metrics.gauge("orders_ws_orders_subscribers", "Subscriptions to the private orders channel",
                orderFeeds::subscribers);
        metrics.counter("orders_ws_orders_messages_total",
                "Orders channel messages (snapshots and updates) handed to WebSocket connections since start",
                ordersMessages::sum);
        metrics.counter("orders_ws_orders_resyncs_total", "Fresh orders snapshots asked for because a connection fell"
                + " behind (conflated, or too many updates waiting for its event loop)", ordersResyncs::sum);
        metrics.gauge("orders_ws_clients", "Open WebSocket stream connections", clients::get);
        metrics.counter("orders_ws_order_entry_answers_total", "Answers to order-entry messages (login, place,"
                + " cancel, amend, cancelAll) sent on stream connections since start", orderEntryAnswers::sum);
        metrics.counter("orders_ws_too_many_pending_total", "Order-entry messages answered 429 TOO_MANY_PENDING:"
                + " their connection had ORDERS_WS_MAX_PENDING_ORDERS commands waiting", tooManyPending::sum);
        metrics.counter("orders_ws_answer_closes_total", "Stream connections closed because they did not read their"
                + " order answers fast enough to stay within their send bounds", answerCloses::sum);
        metrics.counter("orders_ws_cancels_on_disconnect_total", "Cancels on disconnect sent into the journal (one"
                + " command per closed connection that had open orders)", cancelsOnDisconnect::sum);
        metrics.counter("orders_ws_refused_messages_total", "Client messages refused unread because their connection"
                + " was over ORDERS_WS_MAX_REQUESTS_PER_SECOND", refusedMessages::sum);
        metrics.counter("orders_ws_policy_closes_total", "Stream connections closed for what the client sent or"
                + " because its key was revoked (1007, 1008, 1009)", policyCloses::sum);
        metrics.counter("orders_ws_connections_total", "WebSocket stream connections accepted since start",
                connections::sum);
        metrics.gauge("orders_ws_subscriptions", "Stream subscriptions (channel and symbol) across all connections",
                subscribers::total);
        metrics.counter("orders_ws_messages_total", "Messages handed to WebSocket connections since start",
                messages::sum);
        metrics.counter("orders_ws_conflations_total",
                "Times a slow stream client's backlog was dropped for fresh snapshots", conflations::sum);
        metrics.counter("orders_ws_slow_disconnects_total",
                "Stream clients closed because they stayed unable to take messages", slowDisconnects::sum);
        metrics.counter("orders_ws_loop_overruns_total",
                "Times an event loop fell so far behind the market data consumer that its sessions were resent snapshots",
                overruns::sum);
        metrics.gauge("orders_ws_clients_deflate",
                "Open stream connections that negotiated permessage-deflate and get updates compressed",
                deflateClients::get);
        metrics.counter("orders_ws_bytes_total",
                "Bytes of stream messages handed to WebSocket connections since start, as sent (compressed or not)",
                bytesSent::sum);
        metrics.counter("orders_ws_writes_total",
                "Socket writes of stream messages (a connection's messages of one batch leave in one write)",
                writes::sum);
        metrics.counter("orders_ws_fanout_cpu_seconds_total",
                "CPU the event loops spent writing market data batches to stream connections",
                () -> fanOutCpuNanos.sum() / 1e9);
        metrics.gauge("orders_ws_queued_bytes", "Bytes waiting in stream connections' backlogs behind full sockets",
                queuedBytes::get);
        metrics.counter("orders_ws_delivery_wait_expired_total",
                "Times the market data consumer stopped waiting for the event loops to write a batch",
                deliveryWaitsExpired::sum);
        for (final double quantile : new double[] {0.5, 0.99, 0.999, 1.0}) {
            metrics.gauge("orders_ws_delivery_seconds",
                    "From the market data consumer taking a batch's first engine event to that batch's write to a"
                            + " connection, over the writes since the previous scrape",
                    "quantile=\"" + quantile + "\"", () -> deliveryQuantile(quantile));
        }
        metrics.counter("orders_ws_deliveries_total", "Batches written to stream connections",
                () -> deliveries.sum());
        metrics.gauge("orders_marketdata_last_event_sequence",
                "Last engine event sequence the market data views reflect", view::lastEventSequence);
    }

    /** A connection that takes compressed updates opened (+1) or closed (-1). */
    void deflateClients(final int change) {
        deflateClients.addAndGet(change);
    }

    /** @return open connections that take compressed updates: while there are any, updates are compressed */
    int deflateClients() {
        return deflateClients.get();
    }

    /** Counts a connection upgraded to the stream; {@link #closed} follows when its session ends. */
    void opened() {
        clients.incrementAndGet();
        connections.increment();
    }

    /** A connection counted by {@link #opened} ended. */
    void closed() {
        clients.decrementAndGet();
    }

    /** {@code count} orders channel messages were handed to a connection. */
    void ordersSent(final int count) {
        ordersMessages.add(count);
    }

    /** A connection asked for a fresh orders snapshot after falling behind. */
    void ordersResync() {
        ordersResyncs.increment();
    }

    void conflated() {
        conflations.increment();
    }

    /** An order-entry message was answered. */
    void orderEntryAnswer() {
        orderEntryAnswers.increment();
    }

    /** An order-entry message was refused: its connection had its most commands waiting. */
    void tooManyPending() {
        tooManyPending.increment();
    }

    /** A connection was closed: it did not read its order answers. */
    void answerClose() {
        answerCloses.increment();
    }

    /** A closed connection's open orders were sent to be canceled. */
    void cancelOnDisconnect() {
        cancelsOnDisconnect.increment();
    }

    /** A client message was refused for its connection's budget. */
    void refusedMessage() {
        refusedMessages.increment();
    }

    /** A connection was closed for what its client sent (a flood, a message too large once inflated) or a revoked key. */
    void policyClose() {
        policyCloses.increment();
    }

    void slowDisconnect() {
        slowDisconnects.increment();
    }

    void overrun() {
        overruns.increment();
    }

    /** {@code count} messages of {@code bytes} bytes (as sent) left for one connection in one write. */
    void sent(final int count, final int bytes) {
        messages.add(count);
        bytesSent.add(bytes);
        writes.increment();
    }

    /** A batch reached a connection's socket (or its backlog) this long after its first event. */
    void delivered(final long nanos) {
        deliveryNanos.recordValue(Math.min(Math.max(nanos, 0), TimeUnit.SECONDS.toNanos(60)));
        deliveries.increment();
    }

    void fanOutCpu(final long nanos) {
        fanOutCpuNanos.add(nanos);
    }

    void deliveryWaitExpired() {
        deliveryWaitsExpired.increment();
    }

    /**
     * Counts {@code bytes} into the backlog total unless that would pass {@code cap}.
     *
     * @return false when the bytes may not be queued
     */
    boolean tryQueue(final long bytes, final long cap) {
        while (true) {
            final long queued = queuedBytes.get();
            if (queued + bytes > cap) {
                return false;
            }
            if (queuedBytes.compareAndSet(queued, queued + bytes)) {
                return true;
            }
        }
    }

    /** Bytes left a backlog (sent or dropped). */
    void dequeued(final long bytes) {
        queuedBytes.addAndGet(-bytes);
    }

    /**
     * @return the quantile of the delivery latency in seconds over the writes since the previous scrape: the
     *         first quantile read in a scrape takes the interval, the others (read within the same scrape,
     *         well under a second later) use it
     */
    private synchronized double deliveryQuantile(final double quantile) {
        final long now = System.nanoTime();
        if (deliverySwappedNanos == 0 || now - deliverySwappedNanos > TimeUnit.SECONDS.toNanos(1)) {
            deliverySinceScrape.reset();
            deliveryNanos.getIntervalHistogramInto(deliverySinceScrape);
            deliverySwappedNanos = now;
        }
        return deliverySinceScrape.getTotalCount() == 0 ? 0
                : deliverySinceScrape.getValueAtPercentile(quantile * 100) / 1e9;
    }

    /** @return open connections, for tests */
    public int clients() {
        return clients.get();
    }
}
