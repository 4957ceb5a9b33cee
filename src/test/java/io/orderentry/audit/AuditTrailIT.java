package io.orderentry.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.orderentry.http.RequestIds;
import io.orderentry.testing.ApiClient;
import io.orderentry.testing.ApiClient.Answer;
import io.orderentry.testing.ServiceProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real jar: answered requests keep their audit records through kill -9, and audit-verify checks the chain. */
class AuditTrailIT {

    private static final Map<String, String> ENV = Map.of("ORDERS_JOURNAL_SYNC", "fsync",
            "ORDERS_AUDIT_MAX_FILE_BYTES", "16384");

    @TempDir
    Path dir;

    @Test
    void everyAnsweredRequestKeepsItsRecordThroughKill9AndTheChainVerifiesAcrossRestarts() throws Exception {
        final Map<String, Integer> answered = new ConcurrentHashMap<>();
        try (ServiceProcess first = ServiceProcess.start(dir, ENV, "first")) {
            final AtomicBoolean running = new AtomicBoolean(true);
            final ExecutorService clients = Executors.newFixedThreadPool(4);
            for (int c = 0; c < 4; c++) {
                final int client = c;
                clients.submit(() -> sendUntilStopped(first.client(), client, running, answered));
            }
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (answered.size() < 1500 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            first.kill9();
            running.set(false);
            clients.shutdown();
            assertTrue(clients.awaitTermination(30, TimeUnit.SECONDS));
        }
        assertTrue(answered.size() >= 500, "too few requests were answered before the kill: " + answered.size());

        try (ServiceProcess second = ServiceProcess.start(dir, ENV, "second")) {
            final Answer after = second.client().post("/api/v1/orders",
                    ApiClient.limit("after", null, "BTCUSD", "BUY", "1.00", "1", null));
            assertEquals(201, after.status());
            answered.put(after.header(RequestIds.HEADER), 201);
            second.terminate();
        }

        final Map<String, JsonNode> byRequest = Trails.records(dir.resolve("audit")).stream()
                .filter(r -> !r.get("requestId").isNull())
                .collect(Collectors.toMap(r -> r.get("requestId").asText(), r -> r));
        for (final Map.Entry<String, Integer> answer : answered.entrySet()) {
            if (answer.getValue() < 400 || answer.getValue() == 409 || answer.getValue() == 404) {
                final JsonNode record = byRequest.get(answer.getKey());
                assertNotNull(record, "the answered request " + answer.getKey() + " (" + answer.getValue()
                        + ") has no audit record after kill -9");
                assertEquals(answer.getValue().intValue(), record.get("outcome").get("httpStatus").asInt());
            }
        }
        final Set<String> kinds = byRequest.values().stream().map(r -> r.get("kind").asText())
                .collect(Collectors.toSet());
        assertTrue(kinds.containsAll(Set.of("PLACE", "CANCEL", "REJECTED_AT_EDGE")), kinds.toString());
        assertTrue(Trails.files(dir.resolve("audit")).size() >= 2, "the trail rotated");

        final Run intact = verify(dir.resolve("audit").toString());
        assertEquals(0, intact.exit(), intact.output());
        assertTrue(intact.output().contains("OK: "), intact.output());
        final Run configured = verify(null);
        assertEquals(0, configured.exit(), "audit-verify without a directory reads ORDERS_AUDIT_DIR: "
                + configured.output());

        final Path file = Trails.files(dir.resolve("audit")).get(1);
        Trails.flipByte(file, Trails.lineOffset(file, 5) + 30);
        final Run broken = verify(dir.resolve("audit").toString());
        assertEquals(1, broken.exit(), broken.output());
        assertTrue(broken.output().contains("BROKEN: " + file.toAbsolutePath() + " line 5: ")
                || broken.output().contains("BROKEN: " + file + " line 5: "), broken.output());
    }

    private record Run(int exit, String output) {
    }

    /** Runs {@code java -jar order-entry.jar audit-verify [dir]} with ORDERS_AUDIT_DIR pointing at the trail. */
    private Run verify(final String directory) throws InterruptedException {
        final List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-jar", ServiceProcess.jar().toAbsolutePath().toString(), "audit-verify"));
        if (directory != null) {
            command.add(directory);
        }
        final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).directory(dir.toFile());
        builder.environment().keySet().removeIf(key -> key.startsWith("ORDERS_"));
        builder.environment().put("ORDERS_AUDIT_DIR", dir.resolve("audit").toString());
        try {
            final Process process = builder.start();
            final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(process.waitFor(60, TimeUnit.SECONDS), "audit-verify did not finish");
            return new Run(process.exitValue(), output);
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Places, cancels and sends bad requests; remembers every answer's request id and status. */
    private static void sendUntilStopped(final ApiClient api, final int client, final AtomicBoolean running,
                                         final Map<String, Integer> answered) {
        long lastOrder = 0;
        for (int n = 0; running.get(); n++) {
            final Answer answer;
            try {
                if (n % 10 == 3) {
                    answer = api.post("/api/v1/orders", ApiClient.limit("acct-" + client, null, "BTCUSD", "BUY",
                            "1.001", "1", null));
                } else if (n % 10 == 7 && lastOrder > 0) {
                    answer = api.delete("/api/v1/orders/" + lastOrder);
                } else {
                    answer = api.post("/api/v1/orders", ApiClient.limit("acct-" + client, "k" + client + "-" + n,
                            "BTCUSD", n % 2 == 0 ? "BUY" : "SELL", (n % 2 == 0 ? 49_990 : 50_010) + n % 7 + ".00",
                            "0.01", null));
                    if (answer.status() == 201) {
                        lastOrder = answer.json().get("orderId").asLong();
                    }
                }
            } catch (final UncheckedIOException killed) {
                return;
            }
            answered.put(answer.header(RequestIds.HEADER), answer.status());
        }
    }
}
