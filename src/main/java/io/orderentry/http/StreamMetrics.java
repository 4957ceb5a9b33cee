package io.orderentry.http;

import io.orderentry.marketdata.MarketDataView;
import io.orderentry.marketdata.SubscriberCounts;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counters of the WebSocket stream, shared by every event loop. Written on the event loops, read
 * by {@code /metrics}; nothing blocks.
 */
public final class StreamMetrics {

    private final AtomicInteger clients = new AtomicInteger();
    private final LongAdder connections = new LongAdder();
    private final LongAdder conflations = new LongAdder();
    private final LongAdder slowDisconnects = new LongAdder();
    private final LongAdder messages = new LongAdder();
    private final LongAdder overruns = new LongAdder();

    /** Registers the stream's and the market data consumer's figures. */
    public void register(final MetricsText metrics, final MarketDataView view, final SubscriberCounts subscribers) {
        metrics.gauge("orders_ws_clients", "Open WebSocket stream connections", clients::get);
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
        metrics.gauge("orders_marketdata_last_event_sequence",
                "Last engine event sequence the market data views reflect", view::lastEventSequence);
    }

    /**
     * Counts a new connection unless {@code max} are open.
     *
     * @return false when the connection must be refused
     */
    boolean tryOpen(final int max) {
        while (true) {
            final int open = clients.get();
            if (open >= max) {
                return false;
            }
            if (clients.compareAndSet(open, open + 1)) {
                connections.increment();
                return true;
            }
        }
    }

    /** A connection counted by {@link #tryOpen} ended, or its upgrade failed. */
    void closed() {
        clients.decrementAndGet();
    }

    void conflated() {
        conflations.increment();
    }

    void slowDisconnect() {
        slowDisconnects.increment();
    }

    void overrun() {
        overruns.increment();
    }

    void sent() {
        messages.increment();
    }

    /** @return open connections, for tests */
    public int clients() {
        return clients.get();
    }
}
