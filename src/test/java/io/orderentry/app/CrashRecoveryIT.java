package io.orderentry.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.orderentry.testing.ApiClient;
import io.orderentry.testing.ApiClient.Answer;
import io.orderentry.testing.ServiceProcess;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Invariant 1: an answered order is never lost. The real jar takes concurrent orders, is killed with
 * SIGKILL mid-load, and restarts from its journal.
 */
class CrashRecoveryIT {

    @TempDir
    Path dir;

    @Test
    void everyAnsweredOrderSurvivesKill9WithItsFillsAndIdsKeepRising() throws Exception {
        final Map<Long, JsonNode> answered = new ConcurrentHashMap<>();
        final Map<String, Long> byClientOrderId = new ConcurrentHashMap<>();
        try (ServiceProcess first = ServiceProcess.start(dir, Map.of("ORDERS_JOURNAL_SYNC", "fsync"), "first")) {
            final AtomicBoolean running = new AtomicBoolean(true);
            final ExecutorService clients = Executors.newFixedThreadPool(8);
            for (int c = 0; c < 8; c++) {
                final int client = c;
                clients.submit(() -> placeUntilStopped(first.client(), client, running, answered, byClientOrderId));
            }
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (answered.size() < 3000 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            first.kill9();
            running.set(false);
            clients.shutdown();
            assertTrue(clients.awaitTermination(30, TimeUnit.SECONDS));
        }
        assertTrue(answered.size() >= 1000, "too few orders were answered before the kill: " + answered.size());

        try (ServiceProcess second = ServiceProcess.start(dir, Map.of("ORDERS_JOURNAL_SYNC", "fsync"), "second")) {
            final ApiClient api = second.client();
            long maxId = 0;
            for (final JsonNode before : answered.values()) {
                final long id = before.get("orderId").asLong();
                maxId = Math.max(maxId, id);
                final Answer now = api.get("/api/v1/orders/" + id);
                assertEquals(200, now.status(), "order " + id + " answered before the kill is gone");
                assertSameOrSuccessor(before, now.json());
            }
            for (final Map.Entry<String, Long> retry : byClientOrderId.entrySet().stream().limit(50).toList()) {
                final JsonNode original = answered.get(retry.getValue());
                final Answer again = api.post("/api/v1/orders", bodyOf(original));
                assertEquals(200, again.status(), again.body());
                assertEquals(retry.getValue().longValue(), again.json().get("orderId").asLong(),
                        "a retry after restart must find the original order");
            }
            final Answer fresh = api.post("/api/v1/orders", ApiClient.limit("after", null, "BTCUSD", "BUY", "1.00", "1", null));
            assertEquals(201, fresh.status());
            assertTrue(fresh.json().get("orderId").asLong() > maxId, "ids must keep rising after a restart");
            assertTrue(second.log().contains("replayed"), second.log());
        }
    }

    @Test
    void tornTailIsCutWithAWarningAndTheServiceStarts() throws Exception {
        final long lastId;
        try (ServiceProcess first = ServiceProcess.start(dir, Map.of(), "first")) {
            for (int i = 0; i < 20; i++) {
                assertEquals(201, first.client().post("/api/v1/orders",
                        ApiClient.limit("a", "t-" + i, "BTCUSD", "BUY", "10" + i + ".00", "1", null)).status());
            }
            lastId = first.client().get("/api/v1/orders?accountId=a").json().get(19).get("orderId").asLong();
            first.kill9();
        }
        final Path segment = lastSegment();
        final long goodLength = Files.size(segment);
        try (RandomAccessFile file = new RandomAccessFile(segment.toFile(), "rw")) {
            file.seek(goodLength);
            file.write(new byte[] {60, 0, 0, 0, 1, 2, 3});
        }
        try (ServiceProcess second = ServiceProcess.start(dir, Map.of(), "second")) {
            assertTrue(second.log().contains("torn"), second.log());
            assertEquals(goodLength, Files.size(segment), "the torn bytes must be cut");
            assertEquals(200, second.client().get("/api/v1/orders/" + lastId).status());
            assertEquals(20, second.client().get("/api/v1/orders?accountId=a").json().size());
        }
    }

    @Test
    void corruptionInTheMiddleStopsStartupNamingFileAndOffset() throws Exception {
        try (ServiceProcess first = ServiceProcess.start(dir, Map.of(), "first")) {
            for (int i = 0; i < 50; i++) {
                assertEquals(201, first.client().post("/api/v1/orders",
                        ApiClient.limit("a", null, "BTCUSD", "BUY", "1" + i + ".00", "1", null)).status());
            }
            first.terminate();
        }
        final Path segment = lastSegment();
        final long middle = Files.size(segment) / 2;
        try (RandomAccessFile file = new RandomAccessFile(segment.toFile(), "rw")) {
            file.seek(middle);
            final int b = file.read();
            file.seek(middle);
            file.write(b ^ 0x5A);
        }
        final ServiceProcess second = ServiceProcess.launch(dir, Map.of(), "second");
        final int exit = second.awaitExit(Duration.ofSeconds(60));
        assertNotEquals(0, exit, second.log());
        assertTrue(second.log().contains(segment.getFileName().toString()), second.log());
        assertTrue(second.log().contains("offset"), second.log());
    }

    private Path lastSegment() throws IOException {
        try (Stream<Path> files = Files.list(dir.resolve("journal"))) {
            final List<Path> segments = files.filter(Files::isRegularFile).sorted().toList();
            return segments.get(segments.size() - 1);
        }
    }

    /** The order now is the answered one, or the same order having traded further since. */
    private static void assertSameOrSuccessor(final JsonNode before, final JsonNode now) {
        final String id = before.get("orderId").asText();
        for (final String field : new String[] {"clientOrderId", "accountId", "symbol", "side", "type", "timeInForce",
                "price", "quantity", "createdAt"}) {
            assertEquals(before.get(field), now.get(field), field + " of order " + id);
        }
        final String status = before.get("status").asText();
        if (status.equals("NEW") || status.equals("PARTIALLY_FILLED")) {
            assertTrue(now.get("filledQuantity").decimalValue().compareTo(before.get("filledQuantity").decimalValue()) >= 0);
            for (int i = 0; i < before.get("fills").size(); i++) {
                assertEquals(before.get("fills").get(i), now.get("fills").get(i), "fill " + i + " of order " + id);
            }
        } else {
            for (final String field : new String[] {"status", "filledQuantity", "remainingQuantity", "averagePrice",
                    "rejectReason", "fills", "sequence"}) {
                assertEquals(before.get(field), now.get(field), field + " of final order " + id);
            }
        }
    }

    private static void placeUntilStopped(final ApiClient api, final int client, final AtomicBoolean running,
                                          final Map<Long, JsonNode> answered, final Map<String, Long> byClientOrderId) {
        final Random random = new Random(client);
        int n = 0;
        while (running.get()) {
            final String clientOrderId = "k" + client + "-" + n++;
            final String side = random.nextBoolean() ? "BUY" : "SELL";
            final String body = random.nextInt(10) == 0
                    ? ApiClient.market("acct-" + client, "BTCUSD", side, "0.0" + (1 + random.nextInt(9)))
                    : ApiClient.limit("acct-" + client, clientOrderId, "BTCUSD", side,
                    (side.equals("BUY") ? 49_990 + random.nextInt(15) : 49_995 + random.nextInt(15)) + ".00",
                    "0.0" + (1 + random.nextInt(9)), null);
            try {
                final Answer answer = api.post("/api/v1/orders", body);
                if (answer.status() == 201) {
                    final long id = answer.json().get("orderId").asLong();
                    answered.put(id, answer.json());
                    if (body.contains("clientOrderId")) {
                        byClientOrderId.put(clientOrderId, id);
                    }
                }
            } catch (final UncheckedIOException killed) {
                return;
            }
        }
    }

    private static String bodyOf(final JsonNode order) {
        return ApiClient.limit(order.get("accountId").asText(), order.get("clientOrderId").asText(),
                order.get("symbol").asText(), order.get("side").asText(), order.get("price").asText(),
                order.get("quantity").asText(), null);
    }
}
