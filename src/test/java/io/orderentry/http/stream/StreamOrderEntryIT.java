package io.orderentry.http.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.orderentry.testing.ApiClient;
import io.orderentry.testing.ApiClient.Answer;
import io.orderentry.testing.ServiceProcess;
import io.orderentry.testing.StreamClient;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Order entry on {@code /api/v1/stream} against the real jar with API keys (API.md, "Order entry on the stream"):
 * login, place, cancel, amend and cancelAll answered once each with the REST call's status, order and error and the
 * client's id; the same validation, permissions and ownership; a command before login answered 401 with the connection
 * left open; the upgrade's header as good as a login; retries by clientOrderId; the private orders channel on the same
 * connection; the per-connection bound of waiting commands; and many short-lived sessions leaving nothing behind. Each
 * test trades in an instrument of its own.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StreamOrderEntryIT {

    private static final int SYMBOLS = 12;
    private static final int MAX_PENDING = 4;

    @TempDir
    static Path dir;
    private final Vertx clients = Vertx.vertx();
    private ServiceProcess service;
    private String alice;
    private String bob;
    private String aliceReader;
    private int nextSymbol;

    @BeforeAll
    void start() {
        final Path keys = dir.resolve("keys");
        alice = ServiceProcess.createKey(keys, "alice");
        bob = ServiceProcess.createKey(keys, "bob");
        aliceReader = ServiceProcess.createKey(keys, "alice", "--read-only");
        final StringBuilder instruments = new StringBuilder();
        for (int i = 0; i < SYMBOLS; i++) {
            instruments.append(i == 0 ? "" : ",").append("S").append(i).append(":0.01:0.0001");
        }
        service = ServiceProcess.start(dir, Map.of("ORDERS_AUTH", "keys", "ORDERS_AUTH_KEYS_FILE", keys.toString(),
                "ORDERS_INSTRUMENTS", instruments.toString(), "ORDERS_WS_MAX_PENDING_ORDERS",
                Integer.toString(MAX_PENDING)), "stream-entry");
    }

    @AfterAll
    void stop() {
        if (service != null) {
            service.close();
        }
        clients.close().toCompletionStage().toCompletableFuture().join();
    }

    private String symbol() {
        return "S" + nextSymbol++;
    }

    private StreamClient loggedIn(final String secret) {
        final StreamClient client = StreamClient.connect(clients, service.port());
        client.send("{\"op\":\"login\",\"id\":\"login\",\"apiKey\":\"" + secret + "\"}");
        final JsonNode login = client.awaitResult("login");
        assertEquals(200, login.get("status").asInt(), login.toString());
        return client;
    }

    private static String order(final String symbol, final String side, final String price, final String quantity,
                                final String clientOrderId) {
        return "{\"symbol\":\"" + symbol + "\",\"side\":\"" + side + "\",\"type\":\"LIMIT\",\"price\":\"" + price
                + "\",\"quantity\":\"" + quantity + "\"" + (clientOrderId == null ? ""
                : ",\"clientOrderId\":\"" + clientOrderId + "\"") + "}";
    }

    private static JsonNode call(final StreamClient client, final String id, final String message) {
        client.send(message);
        final JsonNode result = client.awaitResult(id);
        assertEquals(id, result.get("id").asText());
        return result;
    }

    private static JsonNode place(final StreamClient client, final String id, final String order) {
        return call(client, id, "{\"op\":\"place\",\"id\":\"" + id + "\",\"order\":" + order + "}");
    }

    private static void expectError(final JsonNode result, final int status, final String code) {
        assertEquals(status, result.get("status").asInt(), result.toString());
        assertEquals(code, result.get("error").get("code").asText(), result.toString());
    }

    @Test
    void everyOrderOperationIsAnsweredOnceWithItsIdAndWhatTheRestCallAnswers() {
        final String symbol = symbol();
        try (StreamClient ws = loggedIn(alice)) {
            final JsonNode placed = place(ws, "r-1", order(symbol, "BUY", "100.00", "1.0", "ws-1"));
            assertEquals(201, placed.get("status").asInt(), placed.toString());
            final JsonNode order = placed.get("order");
            final long orderId = order.get("orderId").asLong();
            assertEquals("alice", order.get("accountId").asText());
            assertEquals("NEW", order.get("status").asText());
            final Answer rest = new ApiClient(service.port(), alice).get("/api/v1/orders/" + orderId);
            assertEquals(rest.json().get("createdAt"), order.get("createdAt"), "the same order REST shows");

            final JsonNode amended = call(ws, "r-2", "{\"op\":\"amend\",\"id\":\"r-2\",\"orderId\":" + orderId
                    + ",\"quantity\":\"0.5\"}");
            assertEquals(200, amended.get("status").asInt(), amended.toString());
            assertEquals("0.5000", amended.get("order").get("quantity").asText());

            final JsonNode second = place(ws, "r-3", order(symbol, "BUY", "99.00", "1.0", "ws-2"));
            assertEquals(201, second.get("status").asInt());

            final JsonNode canceled = call(ws, "r-4", "{\"op\":\"cancel\",\"id\":\"r-4\",\"clientOrderId\":\"ws-1\"}");
            assertEquals(200, canceled.get("status").asInt(), canceled.toString());
            assertEquals("CANCELED", canceled.get("order").get("status").asText());
            final JsonNode again = call(ws, "r-5", "{\"op\":\"cancel\",\"id\":\"r-5\",\"orderId\":" + orderId + "}");
            expectError(again, 409, "ORDER_NOT_OPEN");
            assertEquals("CANCELED", again.get("order").get("status").asText(), "a 409 carries the order, as REST");

            final JsonNode all = call(ws, "r-6", "{\"op\":\"cancelAll\",\"id\":\"r-6\",\"symbol\":\"" + symbol + "\"}");
            assertEquals(200, all.get("status").asInt(), all.toString());
            assertEquals(1, all.get("canceled").size());
            assertEquals("ws-2", all.get("canceled").get(0).get("clientOrderId").asText());
            assertEquals("CANCEL_ALL", all.get("canceled").get(0).get("rejectReason").asText());

            final JsonNode numeric = call(ws, "17", "{\"op\":\"cancelAll\",\"id\":17,\"symbol\":\"" + symbol
                    + "\"}");
            assertTrue(numeric.get("id").isInt(), "an integer id is echoed as an integer");
            assertEquals(0, numeric.get("canceled").size());
        }
    }

    @Test
    void aCommandBeforeLoginIsUnauthenticatedAndTheConnectionStaysOpen() {
        final String symbol = symbol();
        try (StreamClient ws = StreamClient.connect(clients, service.port())) {
            expectError(place(ws, "early", order(symbol, "SELL", "10.00", "1.0", null)), 401, "UNAUTHENTICATED");
            expectError(call(ws, "bad-login", "{\"op\":\"login\",\"id\":\"bad-login\",\"apiKey\":\"k.nope\"}"), 401,
                    "INVALID_API_KEY");
            assertTrue(!ws.isClosed(), "still open");
            ws.send("{\"op\":\"login\",\"id\":\"login\",\"apiKey\":\"" + alice + "\",\"cancelOnDisconnect\":false}");
            final JsonNode login = ws.awaitResult("login");
            assertEquals("alice", login.get("accountId").asText());
            assertEquals(201, place(ws, "late", order(symbol, "SELL", "10.00", "1.0", null)).get("status").asInt());
            expectError(call(ws, "other", "{\"op\":\"login\",\"id\":\"other\",\"apiKey\":\"" + bob + "\"}"), 400,
                    "ALREADY_LOGGED_IN");
        }
    }

    @Test
    void theUpgradesAuthorizationHeaderLogsTheConnectionInAndALoginWithoutAKeyTakesIt() {
        final String symbol = symbol();
        try (StreamClient ws = StreamClient.connect(clients, service.port(), Map.of("Authorization", "Bearer " + bob))) {
            final JsonNode login = call(ws, "h-0", "{\"op\":\"login\",\"id\":\"h-0\",\"cancelOnDisconnect\":true}");
            assertEquals(200, login.get("status").asInt(), "a login without apiKey takes the header's: " + login);
            assertEquals("bob", login.get("accountId").asText());
            assertTrue(login.get("cancelOnDisconnect").asBoolean());
            final JsonNode placed = place(ws, "h-1", order(symbol, "SELL", "20.00", "1.0", null));
            assertEquals(201, placed.get("status").asInt(), placed.toString());
            assertEquals("bob", placed.get("order").get("accountId").asText());
        }
    }

    @Test
    void badCommandsAreRefusedWithTheCodesRestGivesAndChangeNothing() {
        final String symbol = symbol();
        try (StreamClient ws = loggedIn(alice); StreamClient bobs = loggedIn(bob)) {
            expectError(place(ws, "e-1", order(symbol, "BUY", "10.001", "1.0", null)), 422, "PRICE_NOT_ON_TICK");
            expectError(place(ws, "e-2", "{\"symbol\":\"NOPE\",\"side\":\"BUY\",\"type\":\"LIMIT\",\"price\":\"1\","
                    + "\"quantity\":\"1\"}"), 422, "UNKNOWN_SYMBOL");
            expectError(place(ws, "e-3", "{\"symbol\":\"" + symbol + "\",\"side\":\"UP\",\"type\":\"LIMIT\","
                    + "\"price\":\"1\",\"quantity\":\"1\"}"), 400, "INVALID_ENUM");
            expectError(place(ws, "e-4", "{\"accountId\":\"bob\",\"symbol\":\"" + symbol + "\",\"side\":\"BUY\","
                    + "\"type\":\"LIMIT\",\"price\":\"1\",\"quantity\":\"1\"}"), 403, "ACCOUNT_MISMATCH");
            expectError(call(ws, "e-5", "{\"op\":\"place\",\"id\":\"e-5\",\"order\":{},\"extra\":1}"), 400,
                    "UNKNOWN_FIELD");
            expectError(call(ws, "e-6", "{\"op\":\"cancel\",\"id\":\"e-6\"}"), 400, "MISSING_FIELD");
            expectError(call(ws, "e-7", "{\"op\":\"amend\",\"id\":\"e-7\",\"orderId\":999999999,"
                    + "\"quantity\":\"1\"}"), 404, "ORDER_NOT_FOUND");
            ws.send("{\"op\":\"place\",\"order\":{}}");
            final JsonNode noId = ws.await(m -> "result".equals(m.path("op").asText()) && m.get("id").isNull());
            expectError(noId, 400, "MISSING_FIELD");

            final long bobsOrder = place(bobs, "b-1", order(symbol, "SELL", "50.00", "1.0", "bobs"))
                    .get("order").get("orderId").asLong();
            expectError(call(ws, "e-8", "{\"op\":\"cancel\",\"id\":\"e-8\",\"orderId\":" + bobsOrder + "}"), 404,
                    "ORDER_NOT_FOUND");
            expectError(call(ws, "e-9", "{\"op\":\"cancel\",\"id\":\"e-9\",\"clientOrderId\":\"bobs\"}"), 404,
                    "ORDER_NOT_FOUND");
            expectError(call(ws, "e-10", "{\"op\":\"amend\",\"id\":\"e-10\",\"orderId\":" + bobsOrder
                    + ",\"quantity\":\"0.5\"}"), 404, "ORDER_NOT_FOUND");
            final Answer stillThere = new ApiClient(service.port(), bob).get("/api/v1/orders/" + bobsOrder);
            assertEquals("NEW", stillThere.json().get("status").asText(), "alice's attempts left bob's order alone");
            assertEquals("1.0000", stillThere.json().get("quantity").asText());
        }
        try (StreamClient reader = loggedIn(aliceReader)) {
            expectError(place(reader, "ro", order(symbol, "BUY", "1.00", "1.0", null)), 403, "PERMISSION_DENIED");
        }
    }

    @Test
    void aRetriedPlaceIsAnsweredWithTheFirstOrderAndAChangedOneIsAConflict() {
        final String symbol = symbol();
        try (StreamClient ws = loggedIn(alice)) {
            final JsonNode first = place(ws, "p-1", order(symbol, "BUY", "30.00", "1.0", "same"));
            assertEquals(201, first.get("status").asInt());
            final JsonNode retry = place(ws, "p-2", order(symbol, "BUY", "30.00", "1.0", "same"));
            assertEquals(200, retry.get("status").asInt(), retry.toString());
            assertEquals(first.get("order").get("orderId"), retry.get("order").get("orderId"));
            final JsonNode changed = place(ws, "p-3", order(symbol, "BUY", "31.00", "1.0", "same"));
            expectError(changed, 409, "DUPLICATE_CLIENT_ORDER_ID");
            assertEquals("30.00", changed.get("order").get("price").asText());
        }
    }

    @Test
    void aCancelByClientOrderIdSentRightBehindItsPlaceWaitsForItAndIsAnsweredAfterIt() {
        final String symbol = symbol();
        try (StreamClient ws = loggedIn(alice)) {
            for (int n = 0; n < 20; n++) {
                // no wait between the three: the bad amend and the cancel arrive while the place is still in flight
                // (three commands waiting, within the connection's bound of four)
                ws.send("{\"op\":\"place\",\"id\":\"bp-" + n + "\",\"order\":" + order(symbol, "BUY",
                        "5.00", "1.0", "behind-" + n) + "}");
                ws.send("{\"op\":\"amend\",\"id\":\"ba-" + n + "\",\"clientOrderId\":\"behind-" + n
                        + "\",\"quantity\":\"0.00001\"}");
                ws.send("{\"op\":\"cancel\",\"id\":\"bc-" + n + "\",\"clientOrderId\":\"behind-" + n + "\"}");
                ws.awaitResult("bc-" + n);
            }
            for (int n = 0; n < 20; n++) {
                final JsonNode placed = ws.awaitResult("bp-" + n);
                assertEquals(201, placed.get("status").asInt(), placed.toString());
                expectError(ws.awaitResult("ba-" + n), 422, "QUANTITY_NOT_ON_LOT");
                final JsonNode canceled = ws.awaitResult("bc-" + n);
                assertEquals(200, canceled.get("status").asInt(), "found, not 404: " + canceled);
                assertEquals(placed.get("order").get("orderId"), canceled.get("order").get("orderId"));
                assertEquals("CANCELED", canceled.get("order").get("status").asText());
            }
            final List<String> order = new ArrayList<>();
            for (final JsonNode m : ws.messages()) {
                if ("result".equals(m.path("op").asText()) && m.path("id").asText().startsWith("b")) {
                    order.add(m.path("id").asText());
                }
            }
            for (int n = 0; n < 20; n++) {
                assertTrue(order.indexOf("bp-" + n) < order.indexOf("ba-" + n)
                        && order.indexOf("ba-" + n) < order.indexOf("bc-" + n),
                        "the answers concerning one order come in request order: " + order);
            }
        }
    }

    @Test
    void thePrivateOrdersChannelKeepsWorkingOnTheSameConnection() {
        final String symbol = symbol();
        try (StreamClient ws = loggedIn(alice)) {
            ws.subscribeOrders(alice);
            ws.awaitOrders("snapshot");
            final long orderId = place(ws, "o-1", order(symbol, "SELL", "40.00", "1.0", "feed-1"))
                    .get("order").get("orderId").asLong();
            final JsonNode update = ws.await(m -> "ACCEPTED".equals(m.path("event").asText())
                    && m.path("orderId").asLong() == orderId);
            assertEquals("feed-1", update.get("clientOrderId").asText());
        }
    }

    @Test
    void aConnectionWithItsMostCommandsWaitingIsRefusedMoreAndEveryCommandIsAnsweredOnce() {
        final String symbol = symbol();
        final int sent = 40;
        try (StreamClient ws = loggedIn(alice)) {
            for (int k = 0; k < sent; k++) {
                ws.send("{\"op\":\"place\",\"id\":\"q-" + k + "\",\"order\":" + order(symbol, "BUY",
                        (1 + k) + ".00", "0.1", "q-" + k) + "}");
            }
            int placed = 0;
            int refused = 0;
            for (int k = 0; k < sent; k++) {
                final JsonNode result = ws.awaitResult("q-" + k);
                if (result.get("status").asInt() == 201) {
                    placed++;
                } else {
                    expectError(result, 429, "TOO_MANY_PENDING");
                    refused++;
                }
            }
            for (int k = 0; k < sent; k++) {
                assertEquals(1, ws.results("q-" + k), "answered exactly once: q-" + k);
            }
            assertEquals(sent, placed + refused);
            assertTrue(refused > 0, "forty commands sent at once onto a bound of " + MAX_PENDING
                    + " waiting: some must be refused (" + placed + " placed)");
            final ApiClient rest = new ApiClient(service.port(), alice);
            int open = 0;
            for (final JsonNode o : rest.get("/api/v1/orders").json()) {
                if (symbol.equals(o.get("symbol").asText())) {
                    open++;
                }
            }
            assertEquals(placed, open, "exactly the orders answered 201 rest");
        }
    }

    @Test
    void manyShortLivedSessionsThatPlaceAnOrderLeaveNothingBehind() {
        final String symbol = symbol();
        final ApiClient rest = new ApiClient(service.port(), alice);
        final double clientsBefore = rest.metric("orders_ws_clients");
        for (int n = 0; n < 150; n++) {
            try (StreamClient ws = loggedIn(n % 2 == 0 ? alice : bob)) {
                final JsonNode placed = place(ws, "s-" + n, order(symbol, n % 2 == 0 ? "BUY" : "SELL",
                        n % 2 == 0 ? "10.00" : "90.00", "0.1", null));
                assertEquals(201, placed.get("status").asInt(), placed.toString());
            }
        }
        for (int wait = 0; wait < 200 && rest.metric("orders_ws_clients") != clientsBefore; wait++) {
            pause();
        }
        assertEquals(clientsBefore, rest.metric("orders_ws_clients"), "every connection given back");
        assertEquals(0, rest.metric("orders_http_waiting_requests"), "no command left waiting");
        try (StreamClient ws = loggedIn(alice)) {
            assertEquals(201, place(ws, "after", order(symbol, "BUY", "11.00", "0.1", null)).get("status").asInt());
        }
    }

    /** Lets the service's event loops finish closing what the client closed (50 ms). */
    private static void pause() {
        try {
            Thread.sleep(50);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
