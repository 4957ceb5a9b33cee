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
 * be written on, orders get only {@code 503 AUDIT_UNAVAILABLE}, reads still work, {@code /ready} says why and
 * {@code /health} stays UP (the trail retries by itself); once the disk is grown, orders are taken again without a
 * restart, the records kept meanwhile are in the trail, every order answered 201 has its record and
 * {@code audit-verify} passes. Needs root (mount).
 */
class AuditDiskFullIT {

    @TempDir
    Path dir;
    private Path audit;
    private boolean mounted;

    @Test
    void auditDiskFullRefusesOrdersUntilTheDiskHasRoomAgainThenWritesWhatItKeptWithoutARestart() throws Exception {
        audit = dir.resolve("audit");
        mounted = Tmpfs.mount(audit, "512k");
        assumeTrue(mounted, "needs root to mount a 512 KiB tmpfs for a real ENOSPC (run the tests as root)");
        final Map<String, String> env = Map.of("ORDERS_JOURNAL_SYNC", "fsync", "ORDERS_AUDIT_SYNC", "fsync",
                "ORDERS_SNAPSHOT_ENABLED", "false");
        final Map<Long, JsonNode> answered = new ConcurrentHashMap<>();
        try (ServiceProcess service = ServiceProcess.start(dir, env, "service")) {
            final ApiClient api = service.client();
            Answer last = null;
            int i = 0;
            for (; i < 5_000; i++) {
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
            Thread.sleep(2_500);   // two retries against the still full disk
            assertEquals("AUDIT_UNAVAILABLE", api.post("/api/v1/orders", ApiClient.limit("acct-x", "a-" + i,
                    "BTCUSD", "BUY", "100.00", "1", null)).errorCode(), "still full: still refused");
            final Answer ready = api.get("/ready");
            assertEquals(503, ready.status(), ready.body());
            final JsonNode component = ready.json().get("components").get("audit");
            assertTrue(component.get("failure").asText().contains("No space left on device"), ready.body());
            assertTrue(component.get("pendingRecords").asLong() >= 1, "the record that did not fit is kept: " + ready.body());
            assertEquals(200, api.get("/health").status(), "the trail retries by itself: no restart needed");

            assertTrue(Tmpfs.resize(audit, "64m"), "growing the tmpfs");
            Answer again = null;
            for (int attempt = 0; attempt < 100; attempt++) {
                Thread.sleep(100);
                again = api.post("/api/v1/orders", ApiClient.limit("acct-x", "a-" + i, "BTCUSD", "BUY", "100.00",
                        "1", null));
                if (again.status() != 503) {
                    break;
                }
            }
            assertEquals(201, again.status(), "the clientOrderId answered 503 is placed afresh: " + again.body());
            answered.put(again.json().get("orderId").asLong(), again.json());
            assertEquals(200, api.get("/ready").status());
            for (final JsonNode order : answered.values()) {
                final Answer now = api.get("/api/v1/orders/" + order.get("orderId").asText());
                assertEquals(200, now.status(), now.body());
                OrderLoad.assertSameOrSuccessor(order, now.json());
            }
            service.terminate();
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
        assertTrue(lines.stream().noneMatch(l -> l.contains("\"recovered\":true")),
                "nothing had to be audited as recovered: the kept records were written: " + lines.size());
    }

    @AfterEach
    void unmount() throws Exception {
        if (mounted) {
            Tmpfs.unmount(audit);
        }
    }
}
