package io.orderentry.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.orderentry.testing.ApiClient;
import io.orderentry.testing.ApiClient.Answer;
import io.orderentry.testing.ServiceProcess;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Recovery of issue 15's operations: after amends (kept and lost priority, trading at once), self-trade prevention,
 * cancel-alls and band rejections, a SIGKILL and a restart answer every order and every book exactly as before: the
 * journal alone (the first restart) and a snapshot plus the journal after it (the second). A changed band takes
 * effect at the next start without changing what earlier orders became.
 */
class OrderOperationsRecoveryIT {

    @TempDir
    Path dir;

    private final List<Long> orders = new ArrayList<>();

    private static String limit(final String account, final String symbol, final String side, final String price,
                                final String quantity, final String extra) {
        return ApiClient.limit(account, null, symbol, side, price, quantity, extra);
    }

    private long place(final ApiClient client, final String body) {
        final Answer answer = client.post("/api/v1/orders", body);
        assertEquals(201, answer.status(), answer.body());
        final long id = answer.json().get("orderId").asLong();
        orders.add(id);
        return id;
    }

    private static void ok(final Answer answer) {
        assertEquals(200, answer.status(), answer.body());
    }

    /** Every kind of operation, in both instruments. */
    private void operate(final ApiClient client, final String round) {
        for (final String symbol : List.of("BTCUSD", "ETHUSD")) {
            place(client, limit("mm", symbol, "SELL", "100.00", "1.0", null));
            final long kept = place(client, limit("mm", symbol, "SELL", "100.00", "1.0", null));
            final long moved = place(client, limit("mm", symbol, "BUY", "98.00", "2.0", null));
            place(client, limit("other", symbol, "SELL", "101.00", "1.0", null));
            ok(client.patch("/api/v1/orders/" + kept, "{\"quantity\":\"0.4\"}"));
            ok(client.patch("/api/v1/orders/" + moved, "{\"price\":\"100.00\"}"));           // trades with mm's asks
            place(client, limit("mm", symbol, "BUY", "101.00", "0.5", "\"selfTradePrevention\":\"EXPIRE_MAKER\""));
            place(client, limit("taker", symbol, "BUY", "150.00", "0.1", null));              // outside the band
            final long gone = place(client, limit("mm", symbol, "BUY", "99.00", "1.0", "\"postOnly\":true"));
            ok(client.patch("/api/v1/orders/" + gone, "{\"quantity\":\"3.0\"}"));
            place(client, limit("quoter", symbol, "BUY", "97.00", "1.0", null));
            place(client, limit("quoter", symbol, "SELL", "103.00", "1.0", null));
        }
        ok(client.delete("/api/v1/orders?accountId=quoter&symbol=BTCUSD"));
        ok(client.delete("/api/v1/orders?accountId=quoter"));
        place(client, limit("quoter", "BTCUSD", "BUY", "96.00", "0.1", "\"clientOrderId\":\"q-" + round + "\""));
    }

    private Map<String, JsonNode> state(final ApiClient client) {
        final Map<String, JsonNode> state = new LinkedHashMap<>();
        for (final long id : orders) {
            final Answer answer = client.get("/api/v1/orders/" + id);
            assertEquals(200, answer.status(), answer.body());
            state.put("order " + id, answer.json());
        }
        for (final String symbol : List.of("BTCUSD", "ETHUSD")) {
            // the book's levels and checksum; its "sequence" numbers the stream's updates of this process, which a
            // restart numbers afresh from the replayed book (14 before a restart, 4 after, in one run)
            final com.fasterxml.jackson.databind.node.ObjectNode book =
                    (com.fasterxml.jackson.databind.node.ObjectNode) client.get("/api/v1/orderbook/" + symbol).json();
            book.remove("sequence");
            state.put("book " + symbol, book);
            state.put("trades " + symbol, client.get("/api/v1/trades/" + symbol).json());
        }
        return state;
    }

    @Test
    void amendedCanceledAndSelfTradePreventedOrdersComeBackExactlyAfterKill9FromTheJournalAndFromASnapshot() {
        final Map<String, String> env = Map.of("ORDERS_AUTH", "none", "ORDERS_JOURNAL_SYNC", "fsync");
        final Map<String, JsonNode> before;
        try (ServiceProcess first = ServiceProcess.start(dir, env, "first")) {
            operate(first.client(), "1");
            before = state(first.client());
            first.kill9();
        }
        final Map<String, JsonNode> afterSnapshot;
        try (ServiceProcess second = ServiceProcess.start(dir, env, "second")) {
            assertEquals(before, state(second.client()), "replayed from the journal");
            ok(second.client().post("/admin/snapshot", ""));
            operate(second.client(), "2");
            afterSnapshot = state(second.client());
            second.kill9();
        }
        try (ServiceProcess third = ServiceProcess.start(dir, env, "third")) {
            assertEquals(afterSnapshot, state(third.client()), "restored from the snapshot, then the journal after it");
        }
    }

    @Test
    void aBandChangedBetweenStartsAppliesFromThatStartOnAndReplayKeepsWhatEachOrderBecame() {
        final Map<String, String> wide = Map.of("ORDERS_AUTH", "none", "ORDERS_PRICE_BAND_PERCENT", "10");
        final Map<String, String> narrow = Map.of("ORDERS_AUTH", "none", "ORDERS_PRICE_BAND_PERCENT", "5");
        final long acceptedUnderTen;
        try (ServiceProcess first = ServiceProcess.start(dir, wide, "wide")) {
            final ApiClient client = first.client();
            place(client, limit("a", "BTCUSD", "SELL", "100.00", "0.1", null));
            place(client, limit("b", "BTCUSD", "BUY", "100.00", "0.1", null));
            acceptedUnderTen = place(client, limit("a", "BTCUSD", "BUY", "92.00", "0.1", null));
            assertEquals("NEW", client.get("/api/v1/orders/" + acceptedUnderTen).json().get("status").asText());
            first.kill9();
        }
        final long rejectedUnderFive;
        try (ServiceProcess second = ServiceProcess.start(dir, narrow, "narrow")) {
            final ApiClient client = second.client();
            assertEquals("5", client.get("/api/v1/symbols").json().get(0).get("priceBandPercent").asText());
            assertEquals("NEW", client.get("/api/v1/orders/" + acceptedUnderTen).json().get("status").asText(),
                    "replayed under the band it was placed under");
            rejectedUnderFive = place(client, limit("a", "BTCUSD", "BUY", "92.00", "0.1", null));
            final JsonNode rejected = client.get("/api/v1/orders/" + rejectedUnderFive).json();
            assertEquals("REJECTED", rejected.get("status").asText());
            assertEquals("PRICE_OUTSIDE_BAND", rejected.get("rejectReason").asText());
            second.kill9();
        }
        try (ServiceProcess third = ServiceProcess.start(dir, wide, "wide-again")) {
            final ApiClient client = third.client();
            assertEquals("NEW", client.get("/api/v1/orders/" + acceptedUnderTen).json().get("status").asText());
            assertEquals("REJECTED", client.get("/api/v1/orders/" + rejectedUnderFive).json().get("status").asText(),
                    "replayed under the 5% band that was in force when it arrived");
            final long acceptedAgain = place(client, limit("a", "BTCUSD", "BUY", "92.00", "0.1", null));
            assertEquals("NEW", client.get("/api/v1/orders/" + acceptedAgain).json().get("status").asText());
        }
    }
}
