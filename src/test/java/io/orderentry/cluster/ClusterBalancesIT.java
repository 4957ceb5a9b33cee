package io.orderentry.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.orderentry.testing.ApiClient;
import io.orderentry.testing.ClusterMembers;
import io.orderentry.testing.PostgresFixture;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Balances in cluster mode ({@code ORDERS_RISK=balances}, fees configured alike on the three members): fundings and
 * orders sent to any member go through the log, so every member holds and settles them alike; after the leader is
 * killed and trading goes on under the new one, and after the killed member restarts and catches up, every member
 * answers the same balances, and the fee account holds the fees.
 */
class ClusterBalancesIT {

    @RegisterExtension
    static final PostgresFixture DB = new PostgresFixture();

    private static final Duration START = Duration.ofSeconds(120);

    @TempDir
    Path work;

    @Test
    void everyMemberHoldsTheSameBalancesThroughAFailoverAndARestart() {
        final Map<String, String> env = new HashMap<>(DB.env());
        env.put("ORDERS_RISK", "balances");
        env.put("ORDERS_FEES", "BTCUSD:0.001:0.002");
        try (ClusterMembers cluster = new ClusterMembers(work, env).start(START)) {
            final int first = cluster.leader();
            fund(cluster.client((first + 1) % 3), "alice", "USD", "1000000");
            fund(cluster.client((first + 2) % 3), "bob", "BTC", "10");
            place(cluster.client(first), "bob", "SELL", "50000.00", "4");
            place(cluster.client((first + 1) % 3), "alice", "BUY", "50010.00", "1.5");
            assertEveryMemberAgrees(cluster, List.of("alice", "bob", "fees"));

            cluster.kill(first);
            final int second = cluster.leader();
            place(cluster.client(second), "alice", "BUY", "50000.00", "1");
            fund(cluster.client(second), "bob", "USD", "-10000", "wd-1");
            cluster.restart(first, START);
            assertEveryMemberAgrees(cluster, List.of("alice", "bob", "fees"));
            final Map<String, String> fees = balances(cluster.client(first), "fees");
            assertEquals(Map.of("BTC", "0.0050/0.0000", "USD", "125.000000/0.000000"), fees,
                    "0.2% of 2.5 BTC from alice, 0.1% of 125,000 USD from bob");
        }
    }

    private static void fund(final ApiClient client, final String account, final String asset, final String amount) {
        fund(client, account, asset, amount, account + "-" + asset);
    }

    private static void fund(final ApiClient client, final String account, final String asset, final String amount,
                             final String reference) {
        final ApiClient.Answer answer = retried(() -> client.post("/admin/balances/" + account, "{\"asset\":\"" + asset
                + "\",\"amount\":\"" + amount + "\",\"reference\":\"" + reference + "\"}"));
        assertEquals(true, answer.status() == 201 || answer.status() == 200, answer.body());
    }

    private static int placed;

    /** Places with a clientOrderId, retried as a client would while a new leader is elected. */
    private static void place(final ApiClient client, final String account, final String side, final String price,
                              final String quantity) {
        final String body = "{\"accountId\":\"" + account + "\",\"clientOrderId\":\"c-" + ++placed
                + "\",\"symbol\":\"BTCUSD\",\"side\":\"" + side + "\",\"type\":\"LIMIT\",\"price\":\"" + price
                + "\",\"quantity\":\"" + quantity + "\"}";
        final ApiClient.Answer answer = retried(() -> client.post("/api/v1/orders", body));
        assertEquals(true, answer.status() == 201 || answer.status() == 200, answer.body());
        assertEquals("null", answer.json().get("rejectReason").asText(), answer.body());
    }

    /** @return the first answer that is not a 503 (no leader yet, a command lost with the old one), within 30 s */
    private static ApiClient.Answer retried(final java.util.function.Supplier<ApiClient.Answer> request) {
        final long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        ApiClient.Answer answer = request.get();
        while (answer.status() == 503 && System.nanoTime() < deadline) {
            try {
                Thread.sleep(200);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            answer = request.get();
        }
        return answer;
    }

    /** Every member answers the same balances for each account, once it has applied what the others have. */
    private static void assertEveryMemberAgrees(final ClusterMembers cluster, final List<String> accounts) {
        final long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (true) {
            final List<Map<String, Map<String, String>>> seen = new java.util.ArrayList<>();
            for (int id = 0; id < ClusterMembers.MEMBERS; id++) {
                final Map<String, Map<String, String>> member = new java.util.TreeMap<>();
                for (final String account : accounts) {
                    member.put(account, balances(cluster.client(id), account));
                }
                seen.add(member);
            }
            if (seen.get(0).equals(seen.get(1)) && seen.get(1).equals(seen.get(2))) {
                return;
            }
            if (System.nanoTime() > deadline) {
                assertEquals(seen.get(0), seen.get(1), "members 0 and 1");
                assertEquals(seen.get(1), seen.get(2), "members 1 and 2");
            }
            try {
                Thread.sleep(100);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    private static Map<String, String> balances(final ApiClient client, final String account) {
        final ApiClient.Answer answer = client.get("/admin/balances/" + account);
        assertEquals(200, answer.status(), answer.body());
        final Map<String, String> rows = new java.util.TreeMap<>();
        for (final JsonNode row : answer.json()) {
            rows.put(row.get("asset").asText(), row.get("available").asText() + "/" + row.get("held").asText());
        }
        return rows;
    }
}
