package io.orderentry.http.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.orderentry.testing.ApiClient;
import io.orderentry.testing.ApiClient.Answer;
import io.orderentry.testing.ServiceProcess;
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
 * API.md's "Orders by client id, batches" against the real jar, with API keys: an order read, amended and canceled by
 * its clientOrderId (and another account's, an unknown or a malformed one refused as the contract says), batches of
 * places and cancels mixing valid and invalid entries, answered in request order with exactly the single requests'
 * statuses, retried without placing twice, executed in request order and journaled in one flush, and every refusal
 * of a batch's shape. Each test trades in an instrument of its own.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ClientIdAndBatchIT {

    private static final int SYMBOLS = 16;

    @TempDir
    static Path dir;
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
                "ORDERS_INSTRUMENTS", instruments.toString()), "batches");
    }

    @AfterAll
    void stop() {
        if (service != null) {
            service.close();
        }
    }

    private ApiClient as(final String secret) {
        return service.client().withKey(secret);
    }

    private String symbol() {
        return "S" + nextSymbol++;
    }

    private static String limit(final String symbol, final String side, final String price, final String quantity,
                                final String clientOrderId) {
        return "{\"symbol\":\"" + symbol + "\",\"side\":\"" + side + "\",\"type\":\"LIMIT\",\"price\":\"" + price
                + "\",\"quantity\":\"" + quantity + "\"" + (clientOrderId == null ? ""
                : ",\"clientOrderId\":\"" + clientOrderId + "\"") + "}";
    }

    private static String batch(final String... orders) {
        return "{\"orders\":[" + String.join(",", orders) + "]}";
    }

    private static List<Integer> statuses(final Answer answer) {
        assertEquals(200, answer.status(), answer.body());
        final List<Integer> statuses = new ArrayList<>();
        for (final JsonNode result : answer.json().get("results")) {
            statuses.add(result.get("status").asInt());
        }
        return statuses;
    }

    private static JsonNode result(final Answer answer, final int index) {
        return answer.json().get("results").get(index);
    }

    // ---- by client id ----

    @Test
    void anOrderIsReadAmendedAndCanceledByItsClientOrderId() {
        final String symbol = symbol();
        final Answer placed = as(alice).post("/api/v1/orders", limit(symbol, "BUY", "100.00", "1.0", "mm.1:a-b_c"));
        assertEquals(201, placed.status(), placed.body());
        final long orderId = placed.json().get("orderId").asLong();

        final Answer read = as(alice).get("/api/v1/orders/client:mm.1:a-b_c");
        assertEquals(200, read.status(), read.body());
        assertEquals(orderId, read.json().get("orderId").asLong());
        assertEquals("NEW", read.json().get("status").asText());

        final Answer amended = as(alice).patch("/api/v1/orders/client:mm.1:a-b_c", "{\"quantity\":\"0.5\"}");
        assertEquals(200, amended.status(), amended.body());
        assertEquals(orderId, amended.json().get("orderId").asLong());
        assertEquals("0.5000", amended.json().get("quantity").asText());

        final Answer fills = as(alice).get("/api/v1/orders/client:mm.1:a-b_c/fills");
        assertEquals(200, fills.status(), fills.body());
        assertEquals(orderId, fills.json().get("orderId").asLong());

        final Answer canceled = as(alice).delete("/api/v1/orders/client:mm.1:a-b_c");
        assertEquals(200, canceled.status(), canceled.body());
        assertEquals("CANCELED", canceled.json().get("status").asText());

        final Answer again = as(alice).delete("/api/v1/orders/client:mm.1:a-b_c");
        assertEquals(409, again.status(), again.body());
        assertEquals("ORDER_NOT_OPEN", again.errorCode());
        assertEquals("CANCELED", as(alice).get("/api/v1/orders/client:mm.1:a-b_c").json().get("status").asText(),
                "a final order is still found by its clientOrderId");
    }

    @Test
    void anotherAccountsOrAnUnknownClientOrderIdIsNotFoundAndAMalformedOneIsRefused() {
        final String symbol = symbol();
        assertEquals(201, as(alice).post("/api/v1/orders", limit(symbol, "SELL", "200.00", "1.0", "mine")).status());

        for (final String method : new String[] {"GET", "DELETE", "PATCH"}) {
            final Answer other = call(as(bob), method, "/api/v1/orders/client:mine");
            assertEquals(404, other.status(), method + " " + other.body());
            assertEquals("ORDER_NOT_FOUND", other.errorCode());
            final Answer unknown = call(as(alice), method, "/api/v1/orders/client:never-used");
            assertEquals(404, unknown.status(), method + " " + unknown.body());
            assertEquals("ORDER_NOT_FOUND", unknown.errorCode());
            final Answer malformed = call(as(alice), method, "/api/v1/orders/client:bad%21id");
            assertEquals(400, malformed.status(), method + " " + malformed.body());
            assertEquals("INVALID_CLIENT_ORDER_ID", malformed.errorCode());
            final Answer empty = call(as(alice), method, "/api/v1/orders/client:");
            assertEquals(400, empty.status(), method + " " + empty.body());
            assertEquals("INVALID_CLIENT_ORDER_ID", empty.errorCode());
        }
        assertEquals("NEW", as(alice).get("/api/v1/orders/client:mine").json().get("status").asText(),
                "bob's cancel and amend of the same clientOrderId left alice's order alone");
        final Answer mismatch = as(alice).get("/api/v1/orders/client:mine?accountId=bob");
        assertEquals(403, mismatch.status(), mismatch.body());
        assertEquals("ACCOUNT_MISMATCH", mismatch.errorCode());
        final Answer readOnly = as(aliceReader).delete("/api/v1/orders/client:mine");
        assertEquals(403, readOnly.status(), readOnly.body());
        assertEquals("PERMISSION_DENIED", readOnly.errorCode());
        assertEquals(200, as(aliceReader).get("/api/v1/orders/client:mine").status(), "a read key may look it up");
    }

    private static Answer call(final ApiClient client, final String method, final String path) {
        return switch (method) {
            case "GET" -> client.get(path);
            case "DELETE" -> client.delete(path);
            default -> client.patch(path, "{\"quantity\":\"0.5\"}");
        };
    }

    // ---- batch place ----

    @Test
    void aBatchMixingValidAndInvalidOrdersAnswersEachInRequestOrderWithItsSingleRequestsStatus() {
        final String symbol = symbol();
        final Answer answer = as(alice).post("/api/v1/orders/batch", batch(
                limit(symbol, "BUY", "100.00", "1.0", "mix-1"),
                limit(symbol, "BUY", "100.00", "0.00001", "mix-2"),                   // off the lot
                "{\"symbol\":\"" + symbol + "\",\"side\":\"BUY\",\"type\":\"LIMIT\",\"price\":\"1\","
                        + "\"quantity\":\"1\",\"colour\":\"red\"}",                  // unknown field
                limit("NOPE", "BUY", "100.00", "1.0", null),                         // unknown symbol
                "{\"accountId\":\"bob\",\"symbol\":\"" + symbol + "\",\"side\":\"BUY\",\"type\":\"LIMIT\","
                        + "\"price\":\"1\",\"quantity\":\"1\"}",                     // another account
                "17",                                                                // not an object
                limit(symbol, "SELL", "101.00", "2.0", "mix-3")));
        assertEquals(List.of(201, 422, 400, 422, 403, 400, 201), statuses(answer));
        assertEquals("QUANTITY_NOT_ON_LOT", result(answer, 1).get("error").get("code").asText());
        assertEquals("UNKNOWN_FIELD", result(answer, 2).get("error").get("code").asText());
        assertEquals("UNKNOWN_SYMBOL", result(answer, 3).get("error").get("code").asText());
        assertEquals("ACCOUNT_MISMATCH", result(answer, 4).get("error").get("code").asText());
        assertEquals("INVALID_JSON", result(answer, 5).get("error").get("code").asText());
        final JsonNode first = result(answer, 0).get("order");
        final JsonNode last = result(answer, 6).get("order");
        assertEquals("mix-1", first.get("clientOrderId").asText());
        assertEquals("NEW", first.get("status").asText());
        assertEquals("mix-3", last.get("clientOrderId").asText());
        assertTrue(last.get("orderId").asLong() > first.get("orderId").asLong(), "placed in request order");
        assertEquals(first.get("orderId").asLong(),
                as(alice).get("/api/v1/orders/client:mix-1").json().get("orderId").asLong());
        assertEquals(2, as(alice).get("/api/v1/orders").json().size() - openOfOtherSymbols(symbol),
                "exactly the two valid orders rest");
    }

    private int openOfOtherSymbols(final String symbol) {
        int others = 0;
        for (final JsonNode order : as(alice).get("/api/v1/orders").json()) {
            if (!symbol.equals(order.get("symbol").asText())) {
                others++;
            }
        }
        return others;
    }

    @Test
    void aBatchIsExecutedInRequestOrderSoItsLaterOrderTradesWithItsEarlierOne() {
        final String symbol = symbol();
        final Answer answer = as(alice).post("/api/v1/orders/batch", batch(
                limit(symbol, "SELL", "100.00", "1.0", null),
                limit(symbol, "BUY", "100.00", "1.0", null)));
        assertEquals(List.of(201, 201), statuses(answer));
        assertEquals("FILLED", result(answer, 1).get("order").get("status").asText(), answer.body());
        assertEquals("100.00", result(answer, 1).get("order").get("fills").get(0).get("price").asText());
    }

    @Test
    void aRetriedBatchPlacesNothingTwiceAndAChangedOrderOfItIsAConflict() {
        final String symbol = symbol();
        final String one = limit(symbol, "BUY", "90.00", "1.0", "retry-1");
        final String two = limit(symbol, "BUY", "91.00", "1.0", "retry-2");
        final Answer first = as(alice).post("/api/v1/orders/batch", batch(one, two));
        assertEquals(List.of(201, 201), statuses(first));
        final Answer retry = as(alice).post("/api/v1/orders/batch", batch(one, two));
        assertEquals(List.of(200, 200), statuses(retry));
        for (int k = 0; k < 2; k++) {
            assertEquals(result(first, k).get("order").get("orderId"), result(retry, k).get("order").get("orderId"));
        }
        final Answer changed = as(alice).post("/api/v1/orders/batch", batch(one,
                limit(symbol, "BUY", "92.00", "1.0", "retry-2")));
        assertEquals(List.of(200, 409), statuses(changed));
        assertEquals("DUPLICATE_CLIENT_ORDER_ID", result(changed, 1).get("error").get("code").asText());
        assertEquals("91.00", result(changed, 1).get("order").get("price").asText(), "with the order as placed");
        assertEquals(2, as(alice).get("/api/v1/orders").json().size() - openOfOtherSymbols(symbol));
    }

    @Test
    void aBatchOfTwentyIsJournaledInOneFlush() {
        final String symbol = symbol();
        final String[] orders = new String[20];
        for (int k = 0; k < orders.length; k++) {
            orders[k] = limit(symbol, "BUY", (50 + k) + ".00", "0.1", null);
        }
        final double flushes = service.client().metric("orders_journal_flushes_total");
        final double records = service.client().metric("orders_journal_records_total");
        final Answer answer = as(alice).post("/api/v1/orders/batch", batch(orders));
        assertEquals(20, statuses(answer).stream().filter(s -> s == 201).count(), answer.body());
        assertEquals(20, service.client().metric("orders_journal_records_total") - records);
        assertEquals(1, service.client().metric("orders_journal_flushes_total") - flushes,
                "the batch's twenty orders were published together and made durable by one flush");
    }

    @Test
    void aBatchOfTheWrongShapeIsRefusedWholeAndPlacesNothing() {
        final String symbol = symbol();
        final String[] tooMany = new String[21];
        for (int k = 0; k < tooMany.length; k++) {
            tooMany[k] = limit(symbol, "BUY", "10.00", "1.0", null);
        }
        expectError(as(alice).post("/api/v1/orders/batch", batch(tooMany)), 400, "INVALID_BATCH");
        expectError(as(alice).post("/api/v1/orders/batch", "{\"orders\":[]}"), 400, "INVALID_BATCH");
        expectError(as(alice).post("/api/v1/orders/batch", "{}"), 400, "MISSING_FIELD");
        expectError(as(alice).post("/api/v1/orders/batch", "{\"orders\":{}}"), 400, "INVALID_TYPE");
        expectError(as(alice).post("/api/v1/orders/batch", "{\"orders\":[],\"x\":1}"), 400, "UNKNOWN_FIELD");
        expectError(as(alice).post("/api/v1/orders/batch", "not json"), 400, "INVALID_JSON");
        expectError(as(alice).post("/api/v1/orders/batch", batch(limit(symbol, "BUY", "10.00", "1.0", null))
                + "x"), 400, "INVALID_JSON");
        expectError(as(aliceReader).post("/api/v1/orders/batch", batch(limit(symbol, "BUY", "10.00", "1.0", null))),
                403, "PERMISSION_DENIED");
        expectError(service.client().post("/api/v1/orders/batch", batch(limit(symbol, "BUY", "10.00", "1.0", null))),
                401, "UNAUTHENTICATED");
        expectError(as(alice).get("/api/v1/orders/batch"), 405, "METHOD_NOT_ALLOWED");
        expectError(as(alice).patch("/api/v1/orders/batch", "{}"), 405, "METHOD_NOT_ALLOWED");
        assertEquals(0, as(alice).get("/api/v1/orders").json().size() - openOfOtherSymbols(symbol),
                "nothing placed");
    }

    private static void expectError(final Answer answer, final int status, final String code) {
        assertEquals(status, answer.status(), answer.body());
        assertEquals(code, answer.errorCode(), answer.body());
    }

    // ---- batch cancel ----

    @Test
    void aBatchCancelAnswersEachOrderAsASingleCancelWouldInRequestOrder() {
        final String symbol = symbol();
        final long open = place(alice, limit(symbol, "BUY", "10.00", "1.0", null));
        final long done = place(alice, limit(symbol, "BUY", "11.00", "1.0", null));
        assertEquals(200, as(alice).delete("/api/v1/orders/" + done).status());
        final long bobs = place(bob, limit(symbol, "BUY", "12.00", "1.0", null));
        final Answer answer = as(alice).delete("/api/v1/orders/batch", "{\"orderIds\":[" + open + "," + done + ","
                + bobs + ",\"x\",-3,999999999]}");
        assertEquals(List.of(200, 409, 404, 400, 400, 404), statuses(answer));
        assertEquals("CANCELED", result(answer, 0).get("order").get("status").asText());
        assertEquals("ORDER_NOT_OPEN", result(answer, 1).get("error").get("code").asText());
        assertEquals("CANCELED", result(answer, 1).get("order").get("status").asText(), "with the order, as a 409");
        assertEquals("ORDER_NOT_FOUND", result(answer, 2).get("error").get("code").asText());
        assertEquals("INVALID_ORDER_ID", result(answer, 3).get("error").get("code").asText());
        assertEquals("NEW", as(bob).get("/api/v1/orders/" + bobs).json().get("status").asText(),
                "bob's order is untouched");
    }

    @Test
    void aBatchCancelByClientOrderIdsCancelsOnlyTheKeysAccountsOrders() {
        final String symbol = symbol();
        place(alice, limit(symbol, "SELL", "500.00", "1.0", "bc-1"));
        place(alice, limit(symbol, "SELL", "501.00", "1.0", "bc-2"));
        final long bobs = place(bob, limit(symbol, "SELL", "502.00", "1.0", "bc-1"));
        final Answer answer = as(alice).delete("/api/v1/orders/batch",
                "{\"clientOrderIds\":[\"bc-2\",\"bc-1\",\"bc-9\",\"no good\"]}");
        assertEquals(List.of(200, 200, 404, 400), statuses(answer));
        assertEquals("bc-2", result(answer, 0).get("order").get("clientOrderId").asText());
        assertEquals("INVALID_CLIENT_ORDER_ID", result(answer, 3).get("error").get("code").asText());
        assertEquals("NEW", as(bob).get("/api/v1/orders/" + bobs).json().get("status").asText(),
                "bob's bc-1 is his own");
        expectError(as(alice).delete("/api/v1/orders/batch", "{\"orderIds\":[1],\"clientOrderIds\":[\"a\"]}"), 400,
                "INVALID_BATCH");
        expectError(as(alice).delete("/api/v1/orders/batch", "{\"orderIds\":[]}"), 400, "INVALID_BATCH");
        expectError(as(aliceReader).delete("/api/v1/orders/batch", "{\"orderIds\":[1]}"), 403, "PERMISSION_DENIED");
    }

    private long place(final String secret, final String body) {
        final Answer answer = as(secret).post("/api/v1/orders", body);
        assertEquals(201, answer.status(), answer.body());
        return answer.json().get("orderId").asLong();
    }
}
