package io.orderentry.http.stream;

import static io.orderentry.testing.ApiClient.limit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.orderentry.testing.ApiClient.Answer;
import io.orderentry.testing.ApiClient;
import io.orderentry.testing.RunningService;
import io.orderentry.testing.StreamClient;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The private {@code orders} channel in the whole service, with authentication off (ORDERS_AUTH=none, where the
 * subscribe names its account): what a subscriber receives, that it is the REST order, and the channel's errors,
 * unsubscribe and metrics. With keys: {@code OrderStreamIT}.
 */
class OrderStreamTest {

    @TempDir
    Path dir;
    private final Vertx clients = Vertx.vertx();
    private RunningService service;
    private ApiClient api;

    @BeforeEach
    void start() {
        service = RunningService.start(dir, Map.of());
        api = service.client();
    }

    @AfterEach
    void stop() {
        service.close();
        clients.close().toCompletionStage().toCompletableFuture().join();
    }

    @Test
    void subscriberGetsItsOpenOrdersThenEachChangeAsTheRestOrderWithConsecutiveSequences() {
        final long resting = place(limit("alice", "c-1", "BTCUSD", "SELL", "101.00", "1", null)).get("orderId").asLong();
        place(limit("bob", null, "BTCUSD", "SELL", "102.00", "1", null));
        try (StreamClient stream = StreamClient.connect(clients, service.port())) {
            stream.subscribeOrdersOf("alice");
            final JsonNode snapshot = stream.awaitOrders("snapshot");
            assertEquals("alice", snapshot.get("accountId").asText());
            assertEquals(0, snapshot.get("sequence").asLong(), "the account's first subscriber in this process");
            assertEquals(1, snapshot.get("orders").size(), "only alice's open orders: " + snapshot);
            assertEquals(api.get("/api/v1/orders/" + resting).json(), snapshot.get("orders").get(0));

            final long second = place(limit("alice", null, "BTCUSD", "SELL", "103.00", "2", null)).get("orderId").asLong();
            final JsonNode accepted = stream.awaitOrders("update");
            assertEquals(1, accepted.get("sequence").asLong());
            assertEquals("ACCEPTED", accepted.get("event").asText());
            assertEquals(second, StreamClient.orderOf(accepted).get("orderId").asLong());

            place(limit("carol", null, "BTCUSD", "BUY", "101.00", "0.4", null));
            final JsonNode fill = stream.awaitOrders("update");
            assertEquals(2, fill.get("sequence").asLong());
            assertEquals("FILL", fill.get("event").asText(), "a resting order's fill reaches its owner unasked");
            assertEquals("PARTIALLY_FILLED", StreamClient.orderOf(fill).get("status").asText());
            assertEquals("MAKER", fill.get("fill").get("liquidity").asText());
            assertEquals("0.4000", fill.get("fill").get("quantity").asText());
            assertEquals("101.00", fill.get("fill").get("price").asText());

            final Answer canceled = api.delete("/api/v1/orders/" + second);
            final JsonNode cancel = stream.awaitOrders("update");
            assertEquals(3, cancel.get("sequence").asLong());
            assertEquals("CANCELED", cancel.get("event").asText());
            assertEquals(canceled.json(), StreamClient.orderOf(cancel), "the order exactly as the REST answer has it");

            assertEquals(List.of(), stream.gaps());
            assertEquals(List.of(resting), List.copyOf(stream.openOrders("alice").keySet()));
            assertTrue(stream.messages().stream().noneMatch(m -> m.path("accountId").asText()
                    .matches("bob|carol")), "nothing of other accounts");
        }
    }

    @Test
    void anAccountIsRequiredWellFormedWhileAuthenticationIsOffAndMarketDataIsUnchanged() {
        try (StreamClient stream = StreamClient.connect(clients, service.port())) {
            stream.subscribeOrders(null);
            assertError(stream.awaitType("error"), "MISSING_FIELD", "accountId");
            stream.send("{\"op\":\"subscribe\",\"channel\":\"orders\",\"accountId\":\"no spaces\"}");
            assertError(stream.awaitType("error"), "INVALID_ACCOUNT_ID", "accountId");
            stream.send("{\"op\":\"subscribe\",\"channel\":\"orders\",\"accountId\":7}");
            assertError(stream.awaitType("error"), "INVALID_TYPE", "accountId");
            stream.unsubscribeOrders();
            assertError(stream.awaitType("error"), "NOT_SUBSCRIBED", null);

            stream.subscribe("book", "BTCUSD");
            assertEquals("book", stream.awaitType("snapshot").get("channel").asText(), "the connection is still usable");
            assertFalse(stream.isClosed());
        }
    }

    @Test
    void unsubscribeIsAcknowledgedAndStopsTheUpdatesAndClosingLeavesNoSubscriber() {
        try (StreamClient stream = StreamClient.connect(clients, service.port())) {
            stream.subscribeOrdersOf("alice");
            stream.awaitOrders("snapshot");
            assertEquals(1.0, api.metric("orders_ws_orders_subscribers"));
            stream.unsubscribeOrders();
            final JsonNode ack = stream.awaitType("unsubscribed");
            assertEquals("orders", ack.get("channel").asText());
            assertEquals("alice", ack.get("accountId").asText());
            assertEquals(0.0, api.metric("orders_ws_orders_subscribers"));

            stream.subscribe("book", "BTCUSD");
            stream.awaitType("snapshot");
            place(limit("alice", null, "BTCUSD", "BUY", "99.00", "1", null));
            stream.await(m -> "update".equals(m.path("type").asText()) && "book".equals(m.path("channel").asText()));
            assertTrue(stream.messages().stream().noneMatch(m -> "orders".equals(m.path("channel").asText())
                    && m.has("event")), "no orders update after the unsubscribe");

            stream.subscribeOrdersOf("alice");
            final JsonNode again = stream.awaitOrders("snapshot");
            assertEquals(1, again.get("sequence").asLong(), "the feed kept counting while nobody followed it");
            assertEquals(1, again.get("orders").size());
        }
        awaitMetric("orders_ws_orders_subscribers", 0.0);
        assertTrue(api.metric("orders_ws_orders_messages_total") >= 2, "two snapshots were sent");
    }

    @Test
    void aSecondSubscribeReplacesTheFirstWithAFreshSnapshot() {
        try (StreamClient stream = StreamClient.connect(clients, service.port())) {
            stream.subscribeOrdersOf("alice");
            stream.awaitOrders("snapshot");
            place(limit("bob", null, "BTCUSD", "BUY", "99.00", "1", null));
            stream.subscribeOrdersOf("bob");
            final JsonNode bob = stream.awaitOrders("snapshot");
            assertEquals("bob", bob.get("accountId").asText());
            assertEquals(1, bob.get("orders").size());
            place(limit("alice", null, "BTCUSD", "BUY", "98.00", "1", null));
            place(limit("bob", null, "BTCUSD", "BUY", "97.00", "1", null));
            final JsonNode update = stream.awaitOrders("update");
            assertEquals("bob", update.get("accountId").asText(), "alice's feed was left");
            assertEquals(1.0, api.metric("orders_ws_orders_subscribers"));
        }
    }

    @Test
    void aSubscriberThatFallsBehindIsConflatedAndThenResumesFromAFreshSnapshotWithoutAGap() {
        service.close();
        service = RunningService.start(dir.resolve("slow"), Map.of("ORDERS_WS_WRITE_QUEUE_BYTES", "4096",
                "ORDERS_WS_SEND_BUFFER_BYTES", "4096", "ORDERS_WS_MAX_QUEUED_MESSAGES", "16",
                "ORDERS_WS_MAX_SUBSCRIPTIONS", "4", "ORDERS_WS_SLOW_CLIENT_MILLIS", "600000"));
        api = service.client();
        // filled a lot at a time: each update carries every fill of the order so far, so the updates grow
        final long maker = place(limit("alice", null, "BTCUSD", "SELL", "100.00", "1", null)).get("orderId").asLong();
        try (StreamClient stream = StreamClient.connectWithSmallReceiveBuffer(clients, service.port())) {
            stream.subscribeOrdersOf("alice");
            stream.awaitOrders("snapshot");
            stream.pause();
            int placed = 0;
            while (api.metric("orders_ws_conflations_total") < 1) {
                place(limit("bob", null, "BTCUSD", "BUY", "100.00", "0.0001", null));
                assertTrue(++placed < 5_000, "never conflated");
            }
            final long later = place(limit("alice", null, "BTCUSD", "SELL", "101.00", "1", null)).get("orderId").asLong();
            assertEquals(200, api.get("/api/v1/orders/" + maker).status(), "reads went on meanwhile");
            stream.resume();

            final long last = placed + 1;     // a fill per order of bob's, then the later order's ACCEPTED
            stream.await(m -> "orders".equals(m.path("channel").asText()) && m.get("sequence").asLong() == last);
            assertTrue(stream.messages().stream().filter(m -> "orders".equals(m.path("channel").asText())
                    && "snapshot".equals(m.path("type").asText())).count() >= 2, "a fresh snapshot came");
            assertEquals(List.of(maker, later), List.copyOf(stream.openOrders("alice").keySet()));
            assertEquals(api.get("/api/v1/orders/" + maker).json(), stream.openOrders("alice").get(maker));
            assertEquals(List.of(), stream.gaps(), "updates before the conflation were consecutive");
            assertTrue(api.metric("orders_ws_orders_resyncs_total") >= 1);
        }
    }

    private static void assertError(final JsonNode message, final String code, final String field) {
        assertEquals(code, message.get("error").get("code").asText(), message.toString());
        assertEquals(field, message.get("error").has("field") ? message.get("error").get("field").asText() : null);
    }

    private void awaitMetric(final String name, final double value) {
        final long deadline = System.nanoTime() + StreamClient.PATIENCE.toNanos();
        while (api.metric(name) != value) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(name + " is " + api.metric(name) + ", not " + value);
            }
            try {
                Thread.sleep(20);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    private JsonNode place(final String body) {
        final Answer answer = api.post("/api/v1/orders", body);
        assertEquals(201, answer.status(), answer.body());
        return answer.json();
    }
}
