package io.orderentry.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.orderentry.testing.ApiClient;
import io.orderentry.testing.ApiClient.Answer;
import io.orderentry.testing.OrderLoad;
import io.orderentry.testing.ServiceProcess;
import io.orderentry.testing.Tmpfs;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real full disk under the audit trail (a 512 KiB tmpfs), against the real jar: from the first record that cannot
 * be written on, orders get only {@code 503 AUDIT_UNAVAILABLE}, reads still work and {@code /health} says a restart
 * is needed; after the disk is grown and the service restarted, every order answered 201 is there, the journaled
 * commands whose records were lost are audited as recovered, and {@code audit-verify} passes. Needs root (mount).
 */
class AuditDiskFullIT {

    @TempDir
    Path dir;
    private Path audit;
    private boolean mounted;

    @Test
    void auditDiskFullRefusesOrdersUntilARestartThatAuditsWhatWasLost() throws Exception {
        audit = dir.resolve("audit");
        mounted = Tmpfs.mount(audit, "512k");
        assumeTrue(mounted, "needs root to mount a 512 KiB tmpfs for a real ENOSPC (run the tests as root)");
        final Map<String, String> env = Map.of("ORDERS_JOURNAL_SYNC", "fsync", "ORDERS_AUDIT_SYNC", "fsync",
                "ORDERS_SNAPSHOT_ENABLED", "false");
        final Map<Long, JsonNode> answered = new ConcurrentHashMap<>();
        try (ServiceProcess first = ServiceProcess.start(dir, env, "first")) {
            final ApiClient api = first.client();
            Answer last = null;
            for (int i = 0; i < 5_000; i++) {
                last = api.post("/api/v1/orders", ApiClient.limit("acct-" + i % 7, "a-" + i, "BTCUSD",
                        i % 2 == 0 ? "BUY" : "SELL", (i % 2 == 0 ? 49_000 : 51_000) + i % 50 + ".00", "0.01", null));
                if (last.status() == 201) {
                    answered.put(last.json().get("orderId").asLong(), last.json());
                } else {
                    break;
                }
            }
            assertEquals(503, last.status(), "the audit disk never filled: " + answered.size() + " orders");
            assertEquals("AUDIT_UNAVAILABLE", last.errorCode(), last.body());
            assertEquals("1", last.header("Retry-After"));
            assertTrue(answered.size() > 100, "orders answered before the disk filled: " + answered.size());
            final JsonNode some = answered.values().iterator().next();
            assertEquals(200, api.get("/api/v1/orders/" + some.get("orderId").asText()).status(), "reads still work");
            final Answer health = api.get("/health");
            assertEquals(503, health.status(), health.body());
            assertTrue(health.json().get("reason").asText().contains("No space left on device"), health.body());
            first.terminate();
        }
        assertTrue(Tmpfs.resize(audit, "64m"), "growing the tmpfs");
        try (ServiceProcess second = ServiceProcess.start(dir, env, "second")) {
            for (final JsonNode order : answered.values()) {
                final Answer now = second.client().get("/api/v1/orders/" + order.get("orderId").asText());
                assertEquals(200, now.status(), now.body());
                OrderLoad.assertSameOrSuccessor(order, now.json());
            }
            assertEquals(201, second.client().post("/api/v1/orders", ApiClient.limit("acct-x", "after", "BTCUSD",
                    "BUY", "100.00", "1", null)).status());
            assertEquals(200, second.client().get("/health").status());
        }
        final Process verify = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", ServiceProcess.jar().toAbsolutePath().toString(), "audit-verify", audit.toString())
                .redirectErrorStream(true).start();
        final String output = new String(verify.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(verify.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, verify.exitValue(), output);
        final List<String> lines;
        try (var files = Files.list(audit)) {
            lines = files.filter(f -> f.getFileName().toString().endsWith(".jsonl")).sorted()
                    .flatMap(f -> {
                        try {
                            return Files.readAllLines(f).stream();
                        } catch (final IOException e) {
                            throw new java.io.UncheckedIOException(e);
                        }
                    }).toList();
        }
        for (final long orderId : answered.keySet()) {
            assertTrue(lines.stream().anyMatch(l -> l.contains("\"orderId\":" + orderId + ",")),
                    "order " + orderId + " answered 201 has an audit record");
        }
    }

    @AfterEach
    void unmount() throws Exception {
        if (mounted) {
            Tmpfs.unmount(audit);
        }
    }
}
