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
import io.vertx.core.http.UpgradeRejectedException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The WebSocket stream's protocol: snapshots, updates, acknowledgements, errors, caps and heartbeats. */
class MarketDataStreamTest {

    @TempDir
    Path dir;
    private final Vertx clients = Vertx.vertx();
    private RunningService service;
    private ApiClient api;

    @BeforeEach
    void start() {
        startService(Map.of());
    }

    @AfterEach
    void stop() {
        service.close();
        clients.close().toCompletionStage().toCompletableFuture().join();
    }

    @Test
    void lateSubscriberGetsTheCurrentBookThenConsecutiveUpdates() {
        place(limit("m", null, "BTCUSD", "SELL", "101.00", "1", null));
        place(limit("m", null, "BTCUSD", "BUY", "99.00", "2", null));
        try (StreamClient stream = StreamClient.connect(clients, service.port())) {
            stream.subscribe("book", "BTCUSD");
            final JsonNode snapshot = stream.awaitType("snapshot");
            assertEquals("book", snapshot.get("channel").asText());
            assertEquals("BTCUSD", snapshot.get("symbol").asText());
            final long sequence = snapshot.get("sequence").asLong();
            // one update per consumer batch: the two orders may have come in one batch (sequence 1) or two (2)
            assertTrue(sequence == 1 || sequence == 2, "the book's updates so far: " + snapshot);
            assertEquals("[[\"99.00\",\"2.0000\"]]", snapshot.get("bids").toString());
            assertEquals("[[\"101.00\",\"1.0000\"]]", snapshot.get("asks").toString());

            place(limit("t", null, "BTCUSD", "BUY", "101.00", "1", null));
            final JsonNode update = stream.awaitType("update");
            assertEquals(sequence + 1, update.get("sequence").asLong());
            assertEquals("[[\"SELL\",\"101.00\",\"0\"]]", update.get("changes").toString(), "the level is gone");
            assertEquals(0, stream.gaps().size(), stream.gaps().toString());
            assertEquals(List.of(), stream.checksumMismatches(), "every book message's checksum matches the client's book");
        }
    }

    @Test
    void tradesAndTickerChannelsSendSnapshotsThenUpdates() {
        place(limit("m", null, "ETHUSD", "SELL", "3000.00", "1", null));
        try (StreamClient stream = StreamClient.connect(clients, service.port())) {
            stream.subscribe("trades", "ETHUSD");
            final JsonNode trades = stream.awaitType("snapshot");
            assertEquals("trades", trades.get("channel").asText());
            assertEquals(0, trades.get("trades").size());
            stream.subscribe("ticker", "ETHUSD");
            final JsonNode ticker = stream.awaitType("snapshot");
            assertEquals("[\"3000.00\",\"1.000\"]", ticker.get("bestAsk").toString());
            assertTrue(ticker.get("bestBid").isNull());
            assertTrue(ticker.get("lastTrade").isNull());

            place(limit("t", null, "ETHUSD", "BUY", "3000.00", "0.25", null));
            final JsonNode traded = stream.await(m -> "update".equals(m.path("type").asText())
                    && "trades".equals(m.path("channel").asText()));
            assertEquals(trades.get("sequence").asLong() + 1, traded.get("sequence").asLong());
            assertEquals("0.250", traded.get("trades").get(0).get("quantity").asText());
            assertEquals("BUY", traded.get("trades").get(0).get("takerSide").asText());
            final JsonNode ticked = stream.await(m -> "update".equals(m.path("type").asText())
                    && "ticker".equals(m.path("channel").asText()));
            assertEquals("[\"3000.00\",\"0.750\"]", ticked.get("bestAsk").toString());
            assertEquals("3000.00", ticked.get("lastTrade").get("price").asText());
            assertEquals("0.250", ticked.get("volume24h").asText());
        }
    }

    @Test
    void unknownChannelSymbolOpAndMalformedJsonAreAnsweredInTheErrorShape() {
        try (StreamClient stream = StreamClient.connect(clients, service.port())) {
            assertError(stream, "{\"op\":\"subscribe\",\"channel\":\"candles\",\"symbol\":\"BTCUSD\"}", "UNKNOWN_CHANNEL", "channel");
            assertError(stream, "{\"op\":\"subscribe\",\"channel\":\"book\",\"symbol\":\"DOGEUSD\"}", "UNKNOWN_SYMBOL", "symbol");
            assertError(stream, "{\"op\":\"dance\",\"channel\":\"book\",\"symbol\":\"BTCUSD\"}", "UNKNOWN_OP", "op");
            assertError(stream, "{\"channel\":\"book\",\"symbol\":\"BTCUSD\"}", "MISSING_FIELD", "op");
            assertError(stream, "{\"op\":\"subscribe\",\"channel\":7,\"symbol\":\"BTCUSD\"}", "INVALID_TYPE", "channel");
            assertError(stream, "{\"op\":\"subscribe\",", "INVALID_JSON", null);
            assertError(stream, "[\"subscribe\"]", "INVALID_JSON", null);
            assertError(stream, "{\"op\":\"unsubscribe\",\"channel\":\"book\",\"symbol\":\"BTCUSD\"}", "NOT_SUBSCRIBED", null);

            stream.subscribe("book", "BTCUSD");
            assertEquals("book", stream.awaitType("snapshot").get("channel").asText(), "errors leave the connection usable");
        }
    }

    @Test
    void unsubscribeIsAcknowledgedAndStopsUpdates() {
        try (StreamClient stream = StreamClient.connect(clients, service.port())) {
            stream.subscribe("book", "BTCUSD");
            stream.awaitType("snapshot");
            stream.unsubscribe("book", "BTCUSD");
            final JsonNode ack = stream.awaitType("unsubscribed");
            assertEquals("book", ack.get("channel").asText());
            assertEquals("BTCUSD", ack.get("symbol").asText());
            stream.subscribe("book", "ETHUSD");
            stream.awaitType("snapshot");
            final long btcSequence = stream.sequence("book", "BTCUSD");

            place(limit("m", null, "BTCUSD", "BUY", "99.00", "1", null));
            place(limit("m", null, "ETHUSD", "BUY", "99.00", "1", null));
            final JsonNode update = stream.awaitType("update");
            assertEquals("ETHUSD", update.get("symbol").asText(), "nothing more arrives for BTCUSD");
            assertEquals(btcSequence, stream.sequence("book", "BTCUSD"));
        }
    }

    @Test
    void unsubscribingAndSubscribingAgainSendsAFreshSnapshot() {
        place(limit("m", null, "BTCUSD", "BUY", "99.00", "1", null));
        try (StreamClient stream = StreamClient.connect(clients, service.port())) {
            stream.subscribe("book", "BTCUSD");
            final long first = stream.awaitType("snapshot").get("sequence").asLong();
            place(limit("m", null, "BTCUSD", "BUY", "98.00", "1", null));
            stream.awaitType("update");
            stream.unsubscribe("book", "BTCUSD");
            stream.subscribe("book", "BTCUSD");
            final JsonNode again = stream.awaitType("snapshot");
            assertEquals(first + 1, again.get("sequence").asLong());
            assertEquals(2, again.get("bids").size());
        }
    }

    @Test
    void subscriptionsPerConnectionAreCapped() {
        restartWith(Map.of("ORDERS_WS_MAX_SUBSCRIPTIONS", "2", "ORDERS_WS_MAX_QUEUED_MESSAGES", "10"));
        try (StreamClient stream = StreamClient.connect(clients, service.port())) {
            stream.subscribe("book", "BTCUSD");
            stream.subscribe("trades", "BTCUSD");
            stream.subscribe("book", "BTCUSD");
            stream.subscribe("ticker", "BTCUSD");
            assertEquals("ALREADY_SUBSCRIBED", stream.awaitType("error").get("error").get("code").asText(),
                    "a subscription the connection has is not counted twice");
            final JsonNode error = stream.awaitType("error");
            assertEquals("TOO_MANY_SUBSCRIPTIONS", error.get("error").get("code").asText());
            assertTrue(error.get("error").get("message").asText().contains("2"));
        }
    }

    @Test
    void connectionsBeyondTheCapAreRefusedWith503() {
        restartWith(Map.of("ORDERS_WS_MAX_CONNECTIONS", "1"));
        try (StreamClient first = StreamClient.connect(clients, service.port())) {
            final Throwable refused = StreamClient.refusedConnection(clients, service.port());
            assertTrue(refused instanceof UpgradeRejectedException, refused.toString());
            assertEquals(503, ((UpgradeRejectedException) refused).getStatus());
            assertFalse(first.isClosed());
        }
    }

    @Test
    void heartbeatsArriveWhileTheMarketIsQuiet() {
        restartWith(Map.of("ORDERS_WS_HEARTBEAT_MILLIS", "100"));
        try (StreamClient stream = StreamClient.connect(clients, service.port())) {
            final JsonNode first = stream.awaitType("heartbeat");
            final JsonNode second = stream.awaitType("heartbeat");
            assertTrue(first.get("timestamp").asText().endsWith("Z"));
            assertTrue(second.get("timestamp").asText().compareTo(first.get("timestamp").asText()) >= 0);
        }
    }

    private void assertError(final StreamClient stream, final String message, final String code, final String field) {
        stream.send(message);
        final JsonNode error = stream.awaitType("error");
        assertEquals(code, error.get("error").get("code").asText(), error.toString());
        assertFalse(error.get("error").get("message").asText().isBlank());
        if (field == null) {
            assertTrue(error.get("error").get("field") == null, error.toString());
        } else {
            assertEquals(field, error.get("error").get("field").asText());
        }
    }

    private void restartWith(final Map<String, String> overrides) {
        service.close();
        startService(overrides);
    }

    private void startService(final Map<String, String> overrides) {
        final Map<String, String> env = new HashMap<>(overrides);
        service = RunningService.start(dir.resolve("run-" + System.nanoTime()), env);
        api = service.client();
    }

    private JsonNode place(final String body) {
        final Answer answer = api.post("/api/v1/orders", body);
        assertEquals(201, answer.status(), answer.body());
        return answer.json();
    }
}
