package io.orderentry.http.stream;

import static io.orderentry.testing.ApiClient.limit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.orderentry.testing.ApiClient.Answer;
import io.orderentry.testing.ApiClient;
import io.orderentry.testing.Metrics;
import io.orderentry.testing.RunningService;
import io.orderentry.testing.StalledStreamClient;
import io.orderentry.testing.StreamClient;
import io.vertx.core.Vertx;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stream client that stops reading must not slow order entry or other clients: it is conflated to
 * fresh snapshots when its backlog overflows and closed once it has stayed behind too long.
 */
class SlowStreamClientTest {

    private static final int BOOK_LEVELS = 500;
    private static final int ORDERS_WHILE_STALLED = 300;

    @TempDir
    Path dir;

    @Test
    void stalledClientIsConflatedThenDroppedWhileOrdersKeepBeingAnswered() {
        final Vertx clients = Vertx.vertx();
        // no price band: the orders below (asks at 90.00, bids and asks at 60.00, over bids from 50.00 up) are further
        // from the mid than a 10% band allows, and each must change the book
        try (RunningService service = RunningService.start(dir, Map.of("ORDERS_WS_WRITE_QUEUE_BYTES", "4096",
                "ORDERS_WS_MAX_QUEUED_MESSAGES", "16", "ORDERS_WS_MAX_SUBSCRIPTIONS", "4",
                "ORDERS_WS_SLOW_CLIENT_MILLIS", "500", "ORDERS_WS_HEARTBEAT_MILLIS", "100",
                "ORDERS_PRICE_BAND_PERCENT", "0", "ORDERS_WS_MAX_REQUESTS_PER_SECOND", "100000",
                "ORDERS_WS_MAX_REQUESTS_BURST", "1000000"))) {
            final ApiClient api = service.client();
            placeBids(api);
            try (StreamClient healthy = StreamClient.connect(clients, service.port());
                 StalledStreamClient stalled = StalledStreamClient.connect(service.port())) {
                healthy.subscribe("book", "BTCUSD");
                healthy.awaitType("snapshot");
                final long healthyStart = healthy.sequence("book", "BTCUSD");

                int resubscribes = 0;
                while (Metrics.value(api, "orders_ws_conflations_total") < 1) {
                    resubscribes += stall(stalled);
                    assertTrue(resubscribes < 10_000, "never conflated after " + resubscribes + " snapshots");
                    place(api, limit("maker", null, "BTCUSD", "SELL", "90.00", "0.01", null));
                }
                int placed = 0;
                while (placed < ORDERS_WHILE_STALLED || Metrics.value(api, "orders_ws_slow_disconnects_total") < 1) {
                    place(api, limit("maker", null, "BTCUSD", placed % 2 == 0 ? "SELL" : "BUY", "60.00", "0.01", null));
                    placed++;
                    if (placed % 10 == 0) {
                        resubscribes += stall(stalled);
                    }
                    assertTrue(placed < 100_000, "the stalled client was never dropped");
                }
                awaitMetricAtLeast(api, "orders_ws_clients", 1);
                assertEquals(1.0, Metrics.value(api, "orders_ws_clients"), "only the healthy client remains");

                try (StreamClient probe = StreamClient.connect(clients, service.port())) {
                    probe.subscribe("book", "BTCUSD");
                    final long current = probe.awaitType("snapshot").get("sequence").asLong();
                    assertTrue(current > healthyStart + ORDERS_WHILE_STALLED / 2, "the orders changed the book");
                    healthy.await(m -> "update".equals(m.path("type").asText()) && m.path("sequence").asLong() >= current);
                }
                assertEquals(List.of(), healthy.gaps(), "the healthy client missed nothing");
                assertEquals(List.of(), healthy.checksumMismatches(), "and its books match every checksum");
                assertFalse(healthy.isClosed());
            }
        } finally {
            clients.close().toCompletionStage().toCompletableFuture().join();
        }
    }

    @Test
    void stalledClientIsConflatedByItsBacklogBytesLongBeforeItsMessageCountAndTheBytesAreFreedWhenItLeaves() {
        try (RunningService service = RunningService.start(dir, Map.of("ORDERS_WS_WRITE_QUEUE_BYTES", "4096",
                "ORDERS_WS_MAX_QUEUED_MESSAGES", "1000000", "ORDERS_WS_MAX_QUEUED_BYTES", "65536",
                "ORDERS_WS_MAX_SUBSCRIPTIONS", "4", "ORDERS_WS_SLOW_CLIENT_MILLIS", "600000",
                "ORDERS_WS_MAX_REQUESTS_PER_SECOND", "100000", "ORDERS_WS_MAX_REQUESTS_BURST", "1000000"))) {
            final ApiClient api = service.client();
            placeBids(api);
            try (StalledStreamClient stalled = StalledStreamClient.connect(service.port())) {
                int resubscribes = 0;
                while (Metrics.value(api, "orders_ws_conflations_total") < 1) {
                    resubscribes += stall(stalled);
                    // fewer than 20,000 messages were ever asked for, so only the byte bound can conflate it
                    assertTrue(resubscribes < 20_000, "never conflated after " + resubscribes + " snapshots");
                }
                assertTrue(Metrics.value(api, "orders_ws_queued_bytes") <= 65_536,
                        "a backlog never holds more than its byte bound");
            }
            awaitMetricAtMost(api, "orders_ws_queued_bytes", 0);
            awaitMetricAtMost(api, "orders_ws_clients", 0);
        }
    }

    /**
     * Asks the stalled client's stream for 20 more full snapshots, as a client that resubscribes would (unsubscribe,
     * then subscribe: a repeated subscribe sends none); the tests lift the message budget so that it may.
     *
     * @return how many were asked for; 0 once the server has cut the connection
     */
    private static int stall(final StalledStreamClient stalled) {
        try {
            for (int i = 0; i < 20; i++) {
                stalled.send("{\"op\":\"unsubscribe\",\"channel\":\"book\",\"symbol\":\"BTCUSD\"}");
                stalled.send("{\"op\":\"subscribe\",\"channel\":\"book\",\"symbol\":\"BTCUSD\"}");
            }
            return 20;
        } catch (final UncheckedIOException closedByServer) {
            return 0;
        }
    }

    /** Fills the BTCUSD book with {@link #BOOK_LEVELS} bid levels, so that each book snapshot is large. */
    private static void placeBids(final ApiClient api) {
        for (int i = 0; i < BOOK_LEVELS; i++) {
            place(api, limit("maker", null, "BTCUSD", "BUY", new BigDecimal(5_000 + i).movePointLeft(2).toPlainString(),
                    "0.01", null));
        }
    }

    private static void place(final ApiClient api, final String body) {
        final Answer answer = api.post("/api/v1/orders", body);
        assertEquals(201, answer.status(), answer.body());
    }

    private static void awaitMetricAtMost(final ApiClient api, final String name, final double value) {
        final long deadline = System.nanoTime() + StreamClient.PATIENCE.toNanos();
        while (!(Metrics.value(api, name) <= value)) {
            assertTrue(System.nanoTime() < deadline, name + " stayed above " + value + ": " + Metrics.value(api, name));
            try {
                Thread.sleep(20);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    private static void awaitMetricAtLeast(final ApiClient api, final String name, final double value) {
        final long deadline = System.nanoTime() + StreamClient.PATIENCE.toNanos();
        while (!(Metrics.value(api, name) >= value)) {
            assertTrue(System.nanoTime() < deadline, name + " never reached " + value);
            try {
                Thread.sleep(20);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }
}
