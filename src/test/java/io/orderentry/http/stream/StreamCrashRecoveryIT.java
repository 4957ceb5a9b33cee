package io.orderentry.http.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.orderentry.testing.AccountKeys;
import io.orderentry.testing.ApiClient;
import io.orderentry.testing.OrderLoad;
import io.orderentry.testing.ServiceProcess;
import io.orderentry.testing.StreamClient;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Invariant 1 for order entry over the stream: the jar takes orders from several WebSocket sessions, each with
 * several in flight, is killed with SIGKILL while orders are still on their way, and restarts from its journal; every
 * order a session was answered 201 for is there with the same terms and ids (and its fills, or later ones), a retry
 * by clientOrderId finds it, and new ids keep rising.
 */
class StreamCrashRecoveryIT {

    private static final int SESSIONS = 4;
    private static final int IN_FLIGHT = 4;

    @TempDir
    Path dir;

    @Test
    void everyOrderAnsweredOverTheStreamSurvivesKill9WithOrdersInFlight() throws Exception {
        final List<String> accounts = new ArrayList<>();
        for (int i = 0; i < SESSIONS; i++) {
            accounts.add("ws-" + i);
        }
        final AccountKeys keys = AccountKeys.create(dir.resolve("keys"), accounts);
        final Map<String, String> env = keys.env(Map.of("ORDERS_JOURNAL_SYNC", "fsync"));
        final Map<Long, JsonNode> answered = new HashMap<>();
        final Vertx vertx = Vertx.vertx();
        try {
            try (ServiceProcess first = ServiceProcess.start(dir, env, "first")) {
                final List<StreamClient> sessions = new ArrayList<>();
                for (int i = 0; i < SESSIONS; i++) {
                    final StreamClient client = StreamClient.connect(vertx, first.port());
                    client.send("{\"op\":\"login\",\"id\":\"login\",\"apiKey\":\"" + keys.secret("ws-" + i) + "\"}");
                    assertEquals(200, client.awaitResult("login").get("status").asInt());
                    sessions.add(client);
                }
                final int[] sent = new int[SESSIONS];
                final int[] read = new int[SESSIONS];
                final Random random = new Random(35);
                boolean inFlightAtKill = false;
                while (answered.size() < 600) {
                    for (int i = 0; i < SESSIONS; i++) {
                        final StreamClient client = sessions.get(i);
                        collect(client, read, i, answered);
                        while (sent[i] - (read[i]) < IN_FLIGHT) {
                            client.send(place(i, sent[i]++, random));
                        }
                    }
                    Thread.sleep(2);
                }
                for (int i = 0; i < SESSIONS; i++) {
                    inFlightAtKill |= sent[i] > read[i];
                }
                first.kill9();
                for (int i = 0; i < SESSIONS; i++) {
                    collect(sessions.get(i), read, i, answered);   // answers that arrived before the kill
                }
                assertTrue(inFlightAtKill, "orders were on their way when the service was killed");
            }
            assertTrue(answered.size() >= 600);
            try (ServiceProcess second = ServiceProcess.start(dir, env, "second")) {
                long maxId = 0;
                for (final JsonNode before : answered.values()) {
                    final long id = before.get("orderId").asLong();
                    maxId = Math.max(maxId, id);
                    final ApiClient owner = second.client().withKey(keys.secret(before.get("accountId").asText()));
                    final ApiClient.Answer now = owner.get("/api/v1/orders/" + id);
                    assertEquals(200, now.status(), "order " + id + " answered over the stream before the kill is gone");
                    OrderLoad.assertSameOrSuccessor(before, now.json());
                }
                final JsonNode any = answered.values().iterator().next();
                final ApiClient owner = second.client().withKey(keys.secret(any.get("accountId").asText()));
                final ApiClient.Answer retry = owner.post("/api/v1/orders", OrderLoad.retryBody(any));
                assertEquals(200, retry.status(), retry.body());
                assertEquals(any.get("orderId"), retry.json().get("orderId"));
                final ApiClient.Answer fresh = owner.post("/api/v1/orders", "{\"symbol\":\"BTCUSD\",\"side\":\"BUY\","
                        + "\"type\":\"LIMIT\",\"price\":\"49990.00\",\"quantity\":\"0.001\"}");
                assertEquals(201, fresh.status(), fresh.body());
                assertTrue(fresh.json().get("orderId").asLong() > maxId, "ids keep rising after the restart");
            }
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().join();
        }
    }

    /** Reads the session's new results: every 201's order goes into {@code answered}. */
    private static void collect(final StreamClient client, final int[] read, final int session,
                                final Map<Long, JsonNode> answered) {
        final List<JsonNode> messages = client.messages();
        int results = 0;
        for (final JsonNode message : messages) {
            if ("result".equals(message.path("op").asText()) && !"login".equals(message.path("id").asText())) {
                results++;
                if (results > read[session] && message.get("status").asInt() == 201) {
                    final JsonNode order = message.get("order");
                    answered.put(order.get("orderId").asLong(), order);
                }
            }
        }
        read[session] = results;
    }

    private static String place(final int session, final int n, final Random random) {
        final String side = random.nextBoolean() ? "BUY" : "SELL";
        final String price = (side.equals("BUY") ? 50_000 - random.nextInt(4) : 49_998 + random.nextInt(4)) + ".00";
        return "{\"op\":\"place\",\"id\":\"p-" + n + "\",\"order\":{\"clientOrderId\":\"ws" + session + "-" + n
                + "\",\"symbol\":\"BTCUSD\",\"side\":\"" + side + "\",\"type\":\"LIMIT\",\"price\":\"" + price
                + "\",\"quantity\":\"0.00" + (1 + random.nextInt(9)) + "\"}}";
    }
}
