package io.orderentry.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.orderentry.testing.ApiClient;
import io.orderentry.testing.ServiceProcess;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The balances' differential test across a snapshot, a restart and a kill -9: a seeded stream of fundings, places
 * (LIMIT GTC and IOC, MARKET both sides, some crossing), cancels and amends goes to the real jar over REST and, the
 * same commands in the same order, to the {@link ReferenceMatcher} with its {@link ReferenceBalances}. Every place's
 * outcome (status, reject reason, fill) and every funding's status must agree as they are answered; and every
 * account's balances ({@code GET /admin/balances/{accountId}}) must equal the reference's after a snapshot and more
 * commands, after a SIGTERM and a restart from that snapshot, and after more commands, a kill -9 and a restart from the
 * journal alone.
 */
class BalancesDifferentialIT {

    private static final String[] ASSETS = {"BTC", "USD", "ETH"};
    private static final int[] SCALES = {4, 6, 3};
    private static final String[] SYMBOLS = {"BTCUSD", "ETHUSD"};
    private static final int ACCOUNTS = 5;
    /** What the service derives for its defaults (README): BTCUSD tick 0.01, lot 0.0001; ETHUSD tick 0.01, lot 0.001. */
    private static final RiskRules RULES = new RiskRules(ASSETS, SCALES, new int[] {0, 2}, new int[] {1, 1},
            new long[] {1, 1}, new long[] {1, 10}, new int[2], new int[2], "fees");

    @TempDir
    Path dir;

    private final RecordingEventSink events = new RecordingEventSink();
    private final ReferenceMatcher reference = new ReferenceMatcher(2, EngineConfig.DEFAULTS, new int[2], RULES, events);
    private final Random random = new Random(36);
    private final List<Long> recent = new ArrayList<>();
    private long clock;
    private int fundings;
    private int agreed;

    @Test
    void theServicesBalancesAreTheReferenceModelsAcrossASnapshotARestartAndAKill9() {
        final Map<String, String> env = Map.of("ORDERS_RISK", "balances", "ORDERS_FEES", "BTCUSD:0.001:0.002",
                "ORDERS_JOURNAL_SYNC", "none");
        // what the service journals at its first start, before any order: the default 10% bands, then the fees
        reference.setPriceBand(++clock, 0, 1_000);
        reference.setPriceBand(++clock, 1, 1_000);
        reference.setFees(++clock, 0, 1_000, 2_000);
        try (ServiceProcess first = ServiceProcess.start(dir, env, "first")) {
            for (int a = 0; a < ACCOUNTS; a++) {
                fund(first.client(), "a" + a, 1, 2_000_000_000L);
                fund(first.client(), "a" + a, 0, 200_000);
                fund(first.client(), "a" + a, 2, 200_000);
            }
            run(first.client(), 1_500);
            assertEquals(200, first.client().post("/admin/snapshot", "").status());
            run(first.client(), 500);
            assertSameBalances(first.client(), "after a snapshot");
            assertEquals(0, first.terminate());
        }
        try (ServiceProcess second = ServiceProcess.start(dir, env, "second")) {
            assertTrue(second.log().contains("loaded snapshot"), "restarted from the snapshot");
            assertSameBalances(second.client(), "after a restart from the snapshot");
            run(second.client(), 1_500);
            second.kill9();
        }
        try (ServiceProcess third = ServiceProcess.start(dir, env, "third")) {
            assertSameBalances(third.client(), "after a kill -9 and a restart");
            run(third.client(), 300);
            assertSameBalances(third.client(), "after more commands");
        }
        assertTrue(agreed > 2_000, "places compared: " + agreed);
        assertTrue(fundings > 30, "fundings compared: " + fundings);
    }

    private void run(final ApiClient client, final int commands) {
        for (int i = 0; i < commands; i++) {
            final int roll = random.nextInt(100);
            if (roll < 4) {
                final int asset = random.nextInt(3);
                final long amount = random.nextInt(4) == 0 ? -(1 + random.nextInt(100_000))
                        : 1 + random.nextInt(asset == 1 ? 50_000_000 : 50_000);
                fund(client, "a" + random.nextInt(ACCOUNTS), asset, amount);
            } else if (roll < 22 && !recent.isEmpty()) {
                final long orderId = recent.get(random.nextInt(recent.size()));
                client.delete("/api/v1/orders/" + orderId);
                reference.cancel(++clock, orderId);
            } else if (roll < 32 && !recent.isEmpty()) {
                final long orderId = recent.get(random.nextInt(recent.size()));
                final long price = random.nextBoolean() ? 0 : 100_000 + random.nextInt(21) - 10;
                final long quantity = price != 0 && random.nextBoolean() ? 0 : 1 + random.nextInt(400);
                final StringBuilder body = new StringBuilder("{");
                if (price != 0) {
                    body.append("\"price\":\"").append(BigDecimal.valueOf(price, 2).toPlainString()).append('"');
                }
                if (quantity != 0) {
                    body.append(price != 0 ? "," : "").append("\"quantity\":\"").append(quantity(orderSymbol(orderId),
                            quantity)).append('"');
                }
                client.patch("/api/v1/orders/" + orderId, body.append('}').toString());
                reference.amend(++clock, orderId, price, quantity);
            } else {
                place(client);
            }
        }
    }

    private final Map<Long, Integer> symbols = new java.util.HashMap<>();

    private int orderSymbol(final long orderId) {
        return symbols.get(orderId);
    }

    private void place(final ApiClient client) {
        final String account = "a" + random.nextInt(ACCOUNTS);
        final int symbol = random.nextInt(2);
        final Side side = random.nextBoolean() ? Side.BUY : Side.SELL;
        final boolean market = random.nextInt(10) == 0;
        final TimeInForce tif = market ? TimeInForce.IOC : random.nextInt(5) == 0 ? TimeInForce.IOC : TimeInForce.GTC;
        final long price = market ? 0 : 100_000 + (side == Side.BUY ? -1 : 1) * (random.nextInt(12) - 4);
        final long quantity = 1 + random.nextInt(random.nextInt(20) == 0 ? 5_000_000 : 500);
        final String body = "{\"accountId\":\"" + account + "\",\"symbol\":\"" + SYMBOLS[symbol] + "\",\"side\":\""
                + side + "\",\"type\":\"" + (market ? "MARKET" : "LIMIT") + "\",\"timeInForce\":\"" + tif + "\""
                + (market ? "" : ",\"price\":\"" + BigDecimal.valueOf(price, 2).toPlainString() + "\"")
                + ",\"quantity\":\"" + quantity(symbol, quantity) + "\"}";
        final ApiClient.Answer answer = client.post("/api/v1/orders", body);
        events.clear();
        reference.place(++clock, account, null, symbol, side, market ? OrderType.MARKET : OrderType.LIMIT, tif, false,
                SelfTradePrevention.NONE, price, quantity);
        assertEquals(201, answer.status(), answer.body());
        final RecordedEvent.Updated last = events.updates().get(events.updates().size() - 1);
        final long orderId = answer.json().get("orderId").asLong();
        assertEquals(last.orderId(), orderId, "the same order ids");
        assertEquals(List.of(last.status().name(), last.rejectReason() == RejectReason.NONE ? "null"
                        : last.rejectReason().name(), quantity(symbol, last.filled())),
                List.of(answer.json().get("status").asText(), answer.json().get("rejectReason").asText(),
                        answer.json().get("filledQuantity").asText()), "order " + orderId + ": " + body);
        agreed++;
        symbols.put(orderId, symbol);
        recent.add(orderId);
        if (recent.size() > 200) {
            recent.remove(0);
        }
    }

    private void fund(final ApiClient client, final String account, final int asset, final long units) {
        final String reference0 = "r" + ++fundings;
        final ApiClient.Answer answer = client.post("/admin/balances/" + account, "{\"asset\":\"" + ASSETS[asset]
                + "\",\"amount\":\"" + BigDecimal.valueOf(units, SCALES[asset]).toPlainString() + "\",\"reference\":\""
                + reference0 + "\"}");
        events.clear();
        reference.fund(++clock, account, asset, units, reference0);
        final RecordedEvent.Funded funded = (RecordedEvent.Funded) events.events().get(events.events().size() - 1);
        assertEquals(funded.result() == CommandResult.FUNDED ? 201 : 422, answer.status(), answer.body());
    }

    private static String quantity(final int symbol, final long lots) {
        return BigDecimal.valueOf(lots, symbol == 0 ? 4 : 3).toPlainString();
    }

    private void assertSameBalances(final ApiClient client, final String when) {
        for (int a = 0; a <= ACCOUNTS; a++) {
            final String account = a == ACCOUNTS ? "fees" : "a" + a;
            final Map<String, String> expected = new TreeMap<>();
            for (int asset = 0; asset < ASSETS.length; asset++) {
                final long available = reference.available(account, asset);
                final long held = reference.held(account, asset);
                if (available != 0 || held != 0) {
                    expected.put(ASSETS[asset], BigDecimal.valueOf(available, SCALES[asset]).toPlainString() + "/"
                            + BigDecimal.valueOf(held, SCALES[asset]).toPlainString());
                }
            }
            final ApiClient.Answer answer = client.get("/admin/balances/" + account);
            assertEquals(200, answer.status(), answer.body());
            final Map<String, String> actual = new TreeMap<>();
            for (final JsonNode row : answer.json()) {
                actual.put(row.get("asset").asText(), row.get("available").asText() + "/" + row.get("held").asText());
            }
            assertEquals(expected, actual, account + " " + when);
        }
        reference.checkInvariants();
    }
}
