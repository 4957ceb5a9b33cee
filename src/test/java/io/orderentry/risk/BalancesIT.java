package io.orderentry.risk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.orderentry.testing.ApiClient;
import io.orderentry.testing.ApiClient.Answer;
import io.orderentry.testing.PostgresFixture;
import io.orderentry.testing.ServiceProcess;
import io.orderentry.testing.StreamClient;
import io.vertx.core.Vertx;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * API.md's "Balances and pre-trade risk" against the real jar with API keys and PostgreSQL: funding by an admin key
 * only, idempotent on its reference; an order its balance does not cover REJECTED; holds, a trade settled at the
 * maker's price with fees to the fee account, a cancel's release, each seen in {@code GET /api/v1/balances} and as
 * balance messages on the private stream in the account's sequence; the same balances after a kill -9 and a restart,
 * in the {@code balances} table, and adding up in the ledger; the refusal counts in {@code /metrics}; a restart with
 * {@code ORDERS_RISK=none} on the journal refused; and the endpoints answering 404 without balances.
 */
class BalancesIT {

    @RegisterExtension
    static final PostgresFixture DB = new PostgresFixture();
    private static final Vertx CLIENTS = Vertx.vertx();

    @TempDir
    Path dir;

    @AfterAll
    static void closeClients() {
        CLIENTS.close().toCompletionStage().toCompletableFuture().join();
    }

    private Map<String, String> env(final Path keys) {
        final Map<String, String> env = new HashMap<>(DB.env());
        env.put("ORDERS_AUTH", "keys");
        env.put("ORDERS_AUTH_KEYS_FILE", keys.toString());
        env.put("ORDERS_RISK", "balances");
        env.put("ORDERS_FEES", "BTCUSD:0.001:0.002");
        env.put("ORDERS_JOURNAL_SYNC", "none");
        return env;
    }

    @Test
    void fundedAccountsTradeWithinWhatTheyHoldAndTheBalancesSurviveAKill9InTheApiTheStreamAndTheDatabase()
            throws Exception {
        final Path keys = dir.resolve("keys");
        final String admin = ServiceProcess.createKey(keys, "ops", "--admin");
        final String alice = ServiceProcess.createKey(keys, "alice");
        final String bob = ServiceProcess.createKey(keys, "bob");
        final List<JsonNode> aliceBefore;
        final List<JsonNode> bobBefore;
        final List<JsonNode> feesBefore;
        try (ServiceProcess first = ServiceProcess.start(dir, env(keys), "first")) {
            final ApiClient ops = first.client().withKey(admin);
            final ApiClient a = first.client().withKey(alice);
            final ApiClient b = first.client().withKey(bob);

            // funding: admin keys only, idempotent on the reference, refusals in the documented shape
            assertEquals(403, a.post("/admin/balances/alice", fund("USD", "1", "x")).status());
            final Answer deposit = ops.post("/admin/balances/alice", fund("USD", "100000.00", "dep-1"));
            assertEquals(201, deposit.status(), deposit.body());
            assertEquals(List.of("alice", "USD", "100000.000000", "100000.000000", "0.000000"), List.of(
                    deposit.json().get("accountId").asText(), deposit.json().get("asset").asText(),
                    deposit.json().get("total").asText(), deposit.json().get("available").asText(),
                    deposit.json().get("held").asText()));
            final Answer retry = ops.post("/admin/balances/alice", fund("USD", "100000.00", "dep-1"));
            assertEquals(200, retry.status(), retry.body());
            assertEquals(deposit.json(), retry.json(), "a retry answers what the first answered");
            assertEquals("DUPLICATE_REFERENCE", ops.post("/admin/balances/alice", fund("USD", "5", "dep-1")).errorCode());
            assertEquals(201, ops.post("/admin/balances/bob", fund("BTC", "3", "dep-2")).status());
            final Answer overdrawn = ops.post("/admin/balances/bob", fund("BTC", "-3.0001", "wd-1"));
            assertEquals(List.of(422, "INSUFFICIENT_BALANCE"), List.of(overdrawn.status(), overdrawn.errorCode()));
            assertEquals("UNKNOWN_ASSET", ops.post("/admin/balances/bob", fund("DOGE", "1", "x")).errorCode());
            assertEquals("INVALID_AMOUNT", ops.post("/admin/balances/bob", fund("BTC", "0.00001", "x")).errorCode());
            assertEquals("INVALID_AMOUNT", ops.post("/admin/balances/bob", fund("BTC", "0", "x")).errorCode());
            assertEquals(400, ops.post("/admin/balances/bob", "{\"asset\":\"BTC\"}").status());
            assertEquals(400, ops.post("/admin/balances/b%20b", fund("BTC", "1", "x")).status());

            try (StreamClient stream = StreamClient.connect(CLIENTS, first.port())) {
                stream.subscribeOrders(alice);
                final long start = stream.awaitOrders("snapshot").get("sequence").asLong();

                // an order its balance does not cover: 201 REJECTED, nothing held
                final Answer uncovered = a.post("/api/v1/orders", limit("BUY", "50100.00", "2"));
                assertEquals(201, uncovered.status(), uncovered.body());
                assertEquals(List.of("REJECTED", "INSUFFICIENT_BALANCE"), List.of(
                        uncovered.json().get("status").asText(), uncovered.json().get("rejectReason").asText()));

                // bob's ask holds 1 BTC; alice's bid at 50100 holds 75150 USD and trades 1 at 50000: she gets 100 of
                // her hold back, 1 BTC less her 0.2% taker fee; bob 50000 USD less his 0.1% maker fee
                assertEquals(201, b.post("/api/v1/orders", limit("SELL", "50000.00", "1")).status());
                assertEquals(List.of("2.0000", "1.0000"), balance(b, "BTC"));
                final Answer bid = a.post("/api/v1/orders", limit("BUY", "50100.00", "1.5"));
                assertEquals("PARTIALLY_FILLED", bid.json().get("status").asText(), bid.body());
                assertEquals(List.of("24950.000000", "25050.000000"), balance(a, "USD"));
                assertEquals(List.of("0.9980", "0.0000"), balance(a, "BTC"));
                assertEquals(List.of("49950.000000", "0.000000"), balance(b, "USD"));
                assertEquals(List.of("2.0000", "0.0000"), balance(b, "BTC"));

                // a cancel gives back what the remainder held
                assertEquals(200, a.delete("/api/v1/orders/" + bid.json().get("orderId").asLong()).status());
                assertEquals(List.of("50000.000000", "0.000000"), balance(a, "USD"));

                // the stream: the REJECTED order's updates, then balance messages among the order updates, one
                // sequence; the last USD one is the cancel's release
                JsonNode last = null;
                for (int i = 0; i < 40 && (last == null || !"50000.000000".equals(last.path("available").asText())
                        || !"USD".equals(last.path("asset").asText())); i++) {
                    last = stream.await(m -> "balance".equals(m.path("type").asText()));
                }
                assertEquals(List.of("alice", "USD", "50000.000000", "50000.000000", "0.000000"), List.of(
                        last.get("accountId").asText(), last.get("asset").asText(), last.get("total").asText(),
                        last.get("available").asText(), last.get("held").asText()));
                assertTrue(last.get("sequence").asLong() > start);
                assertEquals(List.of(), stream.gaps(), "balance messages share the account's sequence");
            }
            assertTrue(first.client().metric("orders_order_reasons_total{reason=\"INSUFFICIENT_BALANCE\"}") >= 1);
            assertEquals(1, first.client().metric("orders_fundings_total{result=\"INSUFFICIENT_BALANCE\"}"));
            aliceBefore = all(a);
            bobBefore = all(b);
            feesBefore = all(ops, "fees");
            assertEquals(List.of("0.0020", "50.000000"), List.of(feesBefore.get(0).get("available").asText(),
                    feesBefore.get(1).get("available").asText()));
            first.kill9();
        }

        // the journal holds balances: a start without them is refused, naming the setting
        final Map<String, String> none = new HashMap<>(env(keys));
        none.put("ORDERS_RISK", "none");
        try (ServiceProcess refused = ServiceProcess.launch(dir, none, "without-balances")) {
            assertEquals(2, refused.awaitExit(Duration.ofSeconds(60)));
            assertTrue(refused.log().contains("ORDERS_RISK was balances when the journal was written"),
                    refused.log());
        }

        try (ServiceProcess second = ServiceProcess.start(dir, env(keys), "second")) {
            final ApiClient ops = second.client().withKey(admin);
            assertEquals(aliceBefore, all(second.client().withKey(alice)));
            assertEquals(bobBefore, all(second.client().withKey(bob)));
            assertEquals(feesBefore, all(ops, "fees"));
            final Answer retry = ops.post("/admin/balances/alice", fund("USD", "100000.00", "dep-1"));
            assertEquals(200, retry.status(), "the reference is remembered across the restart: " + retry.body());

            // the database: the balances table is the API's, and every asset's ledger adds up to its funding
            io.orderentry.testing.DatabaseVersusApi.awaitCaughtUp(second.client(), Duration.ofSeconds(60));
            for (final JsonNode row : aliceBefore) {
                assertEquals(new BigDecimal(row.get("available").asText()), new BigDecimal(DB.rows(
                        "SELECT available FROM balances WHERE account_id = 'alice' AND asset = '"
                                + row.get("asset").asText() + "'").get(0).get(0)));
            }
            assertEquals(0, new BigDecimal("100000").compareTo(new BigDecimal(DB.rows(
                    "SELECT sum(total) FROM balances WHERE asset = 'USD'").get(0).get(0))), "nothing created or lost");
            assertEquals(0, new BigDecimal("3").compareTo(new BigDecimal(DB.rows(
                    "SELECT sum(available_change + held_change) FROM balance_ledger WHERE asset = 'BTC'").get(0)
                    .get(0))));
            assertEquals(DB.number("SELECT count(*) FROM balance_ledger"),
                    DB.number("SELECT count(DISTINCT sequence) FROM balance_ledger"));
            assertEquals(DB.number("SELECT count(*) FROM balance_ledger WHERE account_id = 'alice'"),
                    DB.number("SELECT count(*) FROM balance_statement('alice', NULL)"),
                    "an account's statement is its rows of the ledger");
            assertEquals(0, new BigDecimal("50000").compareTo(new BigDecimal(DB.rows("SELECT available FROM"
                    + " balance_statement('alice', 'USD') ORDER BY sequence DESC LIMIT 1").get(0).get(0))),
                    "the statement ends at the balance");
            assertEquals(DB.number("SELECT count(*) FROM balance_ledger"),
                    DB.number("SELECT count(*) FROM order_events WHERE event_type = 'BALANCE_CHANGED'"),
                    "exactly once: every balance event once in the ledger");
        }
    }

    @Test
    void withoutBalancesTheBalanceEndpointsAnswer404AndTheSymbolsStillNameTheirAssets() {
        final Map<String, String> env = new HashMap<>();
        env.put("ORDERS_AUTH", "none");
        try (ServiceProcess service = ServiceProcess.start(dir, env, "none")) {
            final Answer balances = service.client().get("/api/v1/balances?accountId=alice");
            assertEquals(List.of(404, "BALANCES_DISABLED"), List.of(balances.status(), balances.errorCode()));
            assertEquals("BALANCES_DISABLED", service.client().post("/admin/balances/alice",
                    fund("USD", "1", "x")).errorCode());
            final JsonNode symbol = service.client().get("/api/v1/symbols").json().get(0);
            assertEquals(List.of("BTC", "USD"), List.of(symbol.get("baseAsset").asText(),
                    symbol.get("quoteAsset").asText()));
            assertTrue(!symbol.has("makerFeeRate"), "fees are shown with balances only");
            // and an order is matched whatever the account holds, as before
            assertEquals("NEW", service.client().post("/api/v1/orders", "{\"accountId\":\"alice\",\"symbol\":\"BTCUSD\","
                    + "\"side\":\"BUY\",\"type\":\"LIMIT\",\"price\":\"100.00\",\"quantity\":\"1\"}").json()
                    .get("status").asText());
        }
    }

    private static String fund(final String asset, final String amount, final String reference) {
        return "{\"asset\":\"" + asset + "\",\"amount\":\"" + amount + "\",\"reference\":\"" + reference + "\"}";
    }

    private static String limit(final String side, final String price, final String quantity) {
        return "{\"symbol\":\"BTCUSD\",\"side\":\"" + side + "\",\"type\":\"LIMIT\",\"price\":\"" + price
                + "\",\"quantity\":\"" + quantity + "\"}";
    }

    /** @return available and held of the key's account in the asset */
    private static List<String> balance(final ApiClient client, final String asset) {
        for (final JsonNode row : all(client)) {
            if (row.get("asset").asText().equals(asset)) {
                return List.of(row.get("available").asText(), row.get("held").asText());
            }
        }
        return List.of("none");
    }

    private static List<JsonNode> all(final ApiClient client) {
        final Answer answer = client.get("/api/v1/balances");
        assertEquals(200, answer.status(), answer.body());
        final List<JsonNode> rows = new java.util.ArrayList<>();
        answer.json().forEach(rows::add);
        return rows;
    }

    /** @return any account's balances, as an admin key reads them */
    private static List<JsonNode> all(final ApiClient admin, final String account) {
        final Answer answer = admin.get("/admin/balances/" + account);
        assertEquals(200, answer.status(), answer.body());
        final List<JsonNode> rows = new java.util.ArrayList<>();
        answer.json().forEach(rows::add);
        return rows;
    }
}
