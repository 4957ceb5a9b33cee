package io.orderentry.http.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.orderentry.testing.ApiClient;
import io.orderentry.testing.RawWebSocket;
import io.orderentry.testing.ServiceProcess;
import io.orderentry.testing.StreamClient;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cancel on disconnect against the real jar (API.md, "Cancel on disconnect"): a connection that logged in with
 * {@code cancelOnDisconnect} and closes has exactly its open orders canceled, in one journaled command, with
 * {@code CANCEL_ON_DISCONNECT}; its filled orders, the same account's orders of other connections and of REST, and
 * other accounts' orders stay. A connection that goes silent without a close frame is closed at its heartbeat timeout
 * and canceled the same way; a graceful stop of the service cancels nothing. Heartbeats every 300 ms, so that a silent
 * connection is found within a second; no price bands, so that the test's prices trade as written.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CancelOnDisconnectIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;
    private final Vertx clients = Vertx.vertx();
    private Path keys;
    private ServiceProcess service;
    private String alice;
    private String bob;

    @BeforeAll
    void start() {
        keys = dir.resolve("keys");
        alice = ServiceProcess.createKey(keys, "alice");
        bob = ServiceProcess.createKey(keys, "bob");
        service = startService();
    }

    private ServiceProcess startService() {
        return ServiceProcess.start(dir, Map.of("ORDERS_AUTH", "keys", "ORDERS_AUTH_KEYS_FILE", keys.toString(),
                "ORDERS_INSTRUMENTS", "S0:0.01:0.0001,S1:0.01:0.0001,S2:0.01:0.0001", "ORDERS_WS_HEARTBEAT_MILLIS",
                "300", "ORDERS_PRICE_BAND_PERCENT", "0"), "cancel-on-disconnect");
    }

    @AfterAll
    void stop() {
        if (service != null) {
            service.close();
        }
        clients.close().toCompletionStage().toCompletableFuture().join();
    }

    private StreamClient login(final String secret, final boolean cancelOnDisconnect) {
        final StreamClient client = StreamClient.connect(clients, service.port());
        client.send("{\"op\":\"login\",\"id\":\"login\",\"apiKey\":\"" + secret + "\",\"cancelOnDisconnect\":"
                + cancelOnDisconnect + "}");
        final JsonNode login = client.awaitResult("login");
        assertEquals(200, login.get("status").asInt(), login.toString());
        assertEquals(cancelOnDisconnect, login.get("cancelOnDisconnect").asBoolean());
        return client;
    }

    private static String order(final String symbol, final String side, final String price, final String quantity) {
        return "{\"symbol\":\"" + symbol + "\",\"side\":\"" + side + "\",\"type\":\"LIMIT\",\"price\":\"" + price
                + "\",\"quantity\":\"" + quantity + "\"}";
    }

    private static long place(final StreamClient client, final String id, final String order) {
        client.send("{\"op\":\"place\",\"id\":\"" + id + "\",\"order\":" + order + "}");
        final JsonNode result = client.awaitResult(id);
        assertEquals(201, result.get("status").asInt(), result.toString());
        return result.get("order").get("orderId").asLong();
    }

    private JsonNode order(final String secret, final long orderId) {
        final ApiClient.Answer answer = new ApiClient(service.port(), secret).get("/api/v1/orders/" + orderId);
        assertEquals(200, answer.status(), answer.body());
        return answer.json();
    }

    /** @return the order once it is no longer open (its cancel on disconnect went through), within 10 s */
    private JsonNode awaitFinal(final String secret, final long orderId) throws InterruptedException {
        for (int wait = 0; wait < 200; wait++) {
            final JsonNode order = order(secret, orderId);
            final String status = order.get("status").asText();
            if (!"NEW".equals(status) && !"PARTIALLY_FILLED".equals(status)) {
                return order;
            }
            Thread.sleep(50);
        }
        return order(secret, orderId);
    }

    @Test
    void aClosedConnectionCancelsExactlyItsOpenOrdersAndNothingElse() throws InterruptedException {
        final String s = "S0";
        final StreamClient gone = login(alice, true);
        final long first = place(gone, "a", order(s, "BUY", "10.00", "1.0"));
        final long partly = place(gone, "b", order(s, "SELL", "20.00", "1.0"));
        final long filled = place(gone, "c", order(s, "SELL", "19.00", "0.5"));
        final long bobs;
        final long otherConnection;
        try (StreamClient bobWs = login(bob, true); StreamClient stays = login(alice, false)) {
            place(bobWs, "t", order(s, "BUY", "20.00", "0.8"));                 // fills c, then 0.3 of b
            bobs = place(bobWs, "r", order(s, "BUY", "5.00", "1.0"));
            otherConnection = place(stays, "o", order(s, "BUY", "9.00", "1.0"));
            final ApiClient.Answer rest = new ApiClient(service.port(), alice).post("/api/v1/orders",
                    order(s, "BUY", "8.00", "1.0"));
            assertEquals(201, rest.status(), rest.body());
            final long restOrder = rest.json().get("orderId").asLong();

            gone.close();
            final JsonNode canceledFirst = awaitFinal(alice, first);
            assertEquals("CANCELED", canceledFirst.get("status").asText());
            assertEquals("CANCEL_ON_DISCONNECT", canceledFirst.get("rejectReason").asText());
            final JsonNode canceledPartly = awaitFinal(alice, partly);
            assertEquals("CANCELED", canceledPartly.get("status").asText());
            assertEquals("CANCEL_ON_DISCONNECT", canceledPartly.get("rejectReason").asText());
            assertEquals("0.3000", canceledPartly.get("filledQuantity").asText(), "its fills are kept");
            assertEquals("FILLED", order(alice, filled).get("status").asText());
            assertEquals("NEW", order(alice, otherConnection).get("status").asText(), "another connection's");
            assertEquals("NEW", order(alice, restOrder).get("status").asText(), "placed over REST");
            assertEquals("NEW", order(bob, bobs).get("status").asText(), "another account's");
        }
        assertEquals("CANCELED", awaitFinal(bob, bobs).get("status").asText(),
                "bob's connection asked for cancel on disconnect too, and closed");
        assertTrue(new ApiClient(service.port(), alice).metric("orders_ws_cancels_on_disconnect_total") >= 2);
    }

    @Test
    void aConnectionThatGoesSilentWithoutACloseFrameIsClosedAtItsHeartbeatTimeoutAndCanceled() throws Exception {
        try (RawWebSocket silent = RawWebSocket.open(service.port(), null)) {
            silent.sendText("{\"op\":\"login\",\"id\":1,\"apiKey\":\"" + alice + "\",\"cancelOnDisconnect\":true}");
            silent.sendText("{\"op\":\"place\",\"id\":2,\"order\":" + order("S1", "BUY", "30.00", "1.0") + "}");
            // it reads, but never answers a ping: to the server it is a connection that died
            final int status = silent.awaitClose();
            assertEquals(1008, status, silent.closeReason());
            assertTrue(silent.closeReason().startsWith("heartbeat timeout"), silent.closeReason());
            long orderId = 0;
            for (final String text : silent.texts()) {
                if (text.contains("\"id\":2")) {
                    orderId = JSON.readTree(text).path("order").path("orderId").asLong();
                }
            }
            assertTrue(orderId > 0, "the place was answered before the close: " + silent.texts());
            final JsonNode order = awaitFinal(alice, orderId);
            assertEquals("CANCELED", order.get("status").asText());
            assertEquals("CANCEL_ON_DISCONNECT", order.get("rejectReason").asText());
        }
    }

    @Test
    void aGracefulStopOfTheServiceCancelsNothing() throws InterruptedException {
        final StreamClient ws = login(alice, true);
        final long resting = place(ws, "g", order("S2", "SELL", "40.00", "1.0"));
        assertEquals(0, service.terminate(), "SIGTERM drains and exits 0");
        service = startService();
        final JsonNode after = order(alice, resting);
        assertEquals("NEW", after.get("status").asText(), "the order stays through a graceful stop and restart");
        ws.close();
    }
}
