package io.orderentry.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Checks that the PostgreSQL projection says what the API says: every order row for row, every fill
 * as a trade row, the event log without gaps. Also waits for persistence to catch up.
 */
public final class DatabaseVersusApi {

    /** What was compared. */
    public record Summary(long orders, long trades, long events) {
    }

    private static final String ORDERS = "SELECT order_id, client_order_id, account_id, symbol, side, order_type,"
            + " time_in_force, post_only::text, price, quantity, status, filled_quantity, remaining_quantity,"
            + " reject_reason, last_sequence, " + iso("created_at") + ", " + iso("updated_at") + ", self_trade_prevention"
            + " FROM orders";
    private static final String TRADES = "SELECT trade_id, price, quantity, taker_order_id, maker_order_id, "
            + iso("executed_at") + ", symbol, taker_side, taker_account_id, maker_account_id FROM trades ORDER BY trade_id";

    private DatabaseVersusApi() {
    }

    /**
     * Waits until the service reports the database UP and no persistence lag, twice in a row.
     *
     * @return the persisted high-water mark
     */
    public static long awaitCaughtUp(final ApiClient api, final Duration timeout) throws InterruptedException {
        final long deadline = System.nanoTime() + timeout.toNanos();
        String last = "";
        int quiet = 0;
        while (System.nanoTime() < deadline) {
            final ApiClient.Answer ready = api.get("/ready");
            last = ready.body();
            final JsonNode parts = ready.json().get("components");
            final JsonNode persistence = parts.get("persistence");
            final boolean caughtUp = parts.get("database").get("state").asText().equals("UP")
                    && persistence.get("lagEvents").asLong() == 0
                    && persistence.get("persistedSequence").asLong() == persistence.get("engineSequence").asLong();
            quiet = caughtUp ? quiet + 1 : 0;
            if (quiet == 2) {
                return persistence.get("persistedSequence").asLong();
            }
            Thread.sleep(100);
        }
        throw new AssertionError("persistence did not catch up within " + timeout + "; /ready: " + last);
    }

    /** Compares every order and trade in the database with the API's answers, from a service with ORDERS_AUTH=none. */
    public static Summary assertSame(final ApiClient api, final PostgresFixture db) throws Exception {
        return assertSame(api, AccountKeys.NONE, db);
    }

    /**
     * Compares every order and trade in the database with the API's answers, each order read with its account's key
     * from {@code keys} (a service with ORDERS_AUTH=keys shows an order only to its account).
     */
    public static Summary assertSame(final ApiClient api, final AccountKeys keys, final PostgresFixture db)
            throws Exception {
        final java.util.function.Function<String, ApiClient> clientOf = keys.clients(api);
        final long events = db.number("SELECT count(*) FROM order_events");
        assertEquals(events, db.number("SELECT coalesce(max(sequence), 0) FROM order_events"), "event sequences have gaps");
        assertEquals(events == 0 ? 0 : 1, db.number("SELECT coalesce(min(sequence), 0) FROM order_events"));
        assertEquals(events, db.number("SELECT last_sequence FROM high_water_mark"), "high-water mark");

        final long orders = db.number("SELECT count(*) FROM orders");
        assertEquals(orders, db.number("SELECT coalesce(max(order_id), 0) FROM orders"), "order ids have gaps");
        // with keys, an order is shown to its account only: no account's key may find one the database lacks
        for (final String account : keys.accounts().isEmpty() ? List.of("") : keys.accounts()) {
            assertEquals(404, (account.isEmpty() ? api : clientOf.apply(account)).get("/api/v1/orders/" + (orders + 1))
                    .status(), "the API knows an order the DB lacks");
        }
        final long trades = db.number("SELECT count(*) FROM trades");
        assertEquals(trades, db.number("SELECT coalesce(max(trade_id), 0) FROM trades"), "trade ids have gaps");

        final Map<Long, List<String>> rows = new HashMap<>();
        for (final List<String> row : db.rows(ORDERS)) {
            rows.put(Long.parseLong(row.get(0)), row);
        }
        final Map<Long, List<List<String>>> fills = new HashMap<>();
        for (final List<String> trade : db.rows(TRADES)) {
            fills.computeIfAbsent(Long.parseLong(trade.get(3)), k -> new ArrayList<>()).add(fill(trade, "TAKER"));
            fills.computeIfAbsent(Long.parseLong(trade.get(4)), k -> new ArrayList<>()).add(fill(trade, "MAKER"));
        }
        final ExecutorService readers = Executors.newFixedThreadPool(4);
        try {
            final List<Future<?>> checks = new ArrayList<>();
            for (final List<String> row : rows.values()) {
                checks.add(readers.submit(() -> {
                    compare(clientOf.apply(row.get(2)), row, fills.getOrDefault(Long.parseLong(row.get(0)), List.of()));
                    return null;
                }));
            }
            for (final Future<?> check : checks) {
                check.get();
            }
        } finally {
            readers.shutdownNow();
        }
        return new Summary(orders, trades, events);
    }

    private static void compare(final ApiClient api, final List<String> row, final List<List<String>> fills)
            throws SQLException {
        final String id = row.get(0);
        final ApiClient.Answer answer = api.get("/api/v1/orders/" + id);
        assertEquals(200, answer.status(), "order " + id + " is in the database but not in the API");
        final JsonNode o = answer.json();
        final String at = "order " + id + ": " + o + " vs " + row;
        assertEquals(text(o, "clientOrderId"), row.get(1), at);
        assertEquals(o.get("accountId").asText(), row.get(2), at);
        assertEquals(o.get("symbol").asText(), row.get(3), at);
        assertEquals(o.get("side").asText(), row.get(4), at);
        assertEquals(o.get("type").asText(), row.get(5), at);
        assertEquals(o.get("timeInForce").asText(), row.get(6), at);
        assertEquals(o.get("postOnly").asText(), row.get(7), at);
        assertEquals(text(o, "price"), row.get(8), at);
        assertEquals(o.get("quantity").asText(), row.get(9), at);
        assertEquals(o.get("status").asText(), row.get(10), at);
        assertEquals(o.get("filledQuantity").asText(), row.get(11), at);
        assertEquals(o.get("remainingQuantity").asText(), row.get(12), at);
        assertEquals(text(o, "rejectReason"), row.get(13), at);
        assertEquals(o.get("sequence").asText(), row.get(14), at);
        assertEquals(o.get("createdAt").asText(), row.get(15), at);
        assertEquals(o.get("updatedAt").asText(), row.get(16), at);
        assertEquals(o.get("selfTradePrevention").asText(), row.get(17), at);
        final JsonNode apiFills = o.get("fills");
        assertEquals(apiFills.size(), fills.size(), "fills of " + at);
        BigDecimal notional = BigDecimal.ZERO;
        BigDecimal filled = BigDecimal.ZERO;
        for (int i = 0; i < fills.size(); i++) {
            final JsonNode f = apiFills.get(i);
            final List<String> t = fills.get(i);
            assertEquals(List.of(f.get("tradeId").asText(), f.get("price").asText(), f.get("quantity").asText(),
                    f.get("liquidity").asText(), f.get("timestamp").asText()), t, "fill " + i + " of " + at);
            notional = notional.add(new BigDecimal(t.get(1)).multiply(new BigDecimal(t.get(2))));
            filled = filled.add(new BigDecimal(t.get(2)));
        }
        if (!fills.isEmpty()) {
            final int scale = new BigDecimal(fills.get(0).get(1)).scale();
            assertEquals(o.get("averagePrice").asText(), notional.divide(filled, scale, RoundingMode.HALF_EVEN)
                    .toPlainString(), "average price from the trades of " + at);
        }
        assertTrue(fills.isEmpty() == o.get("averagePrice").isNull(), at);
    }

    private static List<String> fill(final List<String> trade, final String liquidity) {
        return List.of(trade.get(0), trade.get(1), trade.get(2), liquidity, trade.get(5));
    }

    private static String text(final JsonNode order, final String field) {
        return order.get(field).isNull() ? null : order.get(field).asText();
    }

    private static String iso(final String column) {
        return "to_char(" + column + " AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"')";
    }
}
