package io.orderentry.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.orderentry.testing.ApiClient;
import io.orderentry.testing.ApiClient.Answer;
import io.orderentry.testing.OrderLoad;
import io.orderentry.testing.ServiceProcess;
import io.orderentry.testing.Tmpfs;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real full disk under the journal (a 1 MiB tmpfs, so the kernel answers ENOSPC), against the real jar under a
 * concurrent load: from the first failed write on, orders get only {@code 503 JOURNAL_UNAVAILABLE} with
 * {@code Retry-After}, {@code /ready} says why, reads still work and {@code /health} stays UP; once the disk is grown
 * the journal writes again without a restart; after a restart every order answered 201 is there as answered, every
 * clientOrderId answered 503 can be placed afresh, and the audit trail verifies. Needs root (mount); skipped with a
 * message elsewhere.
 */
class JournalDiskFullIT {

    @TempDir
    Path dir;
    private Path journal;
    private boolean mounted;

    @Test
    void journalDiskFullAnswersOnly503KeepsEveryAnsweredOrderAndRecoversAfterARestart() throws Exception {
        journal = dir.resolve("journal");
        mounted = Tmpfs.mount(journal, "1m");
        assumeTrue(mounted, "needs root to mount a 1 MiB tmpfs for a real ENOSPC (run the tests as root)");
        final Map<String, String> env = Map.of("ORDERS_JOURNAL_SYNC", "fsync",
                "ORDERS_JOURNAL_SEGMENT_BYTES", Integer.toString(1 << 20), "ORDERS_SNAPSHOT_ENABLED", "false");

        final Map<Long, JsonNode> answered = new ConcurrentHashMap<>();
        final Set<String> refused = ConcurrentHashMap.newKeySet();
        try (ServiceProcess first = ServiceProcess.start(dir, env, "first")) {
            final ApiClient api = first.client();
            final AtomicBoolean full = new AtomicBoolean();
            final ExecutorService clients = Executors.newFixedThreadPool(8);
            for (int c = 0; c < 8; c++) {
                final int client = c;
                clients.submit(() -> place(api, client, full, answered, refused));
            }
            clients.shutdown();
            assertTrue(clients.awaitTermination(120, TimeUnit.SECONDS), "the journal's disk never filled");
            assertTrue(full.get(), "no 503 JOURNAL_UNAVAILABLE within the load");
            assertTrue(answered.size() > 1_000, "orders answered before the disk filled: " + answered.size());

            final Answer after = api.post("/api/v1/orders", ApiClient.limit("acct-x", "after-full", "BTCUSD", "BUY",
                    "100.00", "1", null));
            assertEquals(503, after.status(), after.body());
            assertEquals("JOURNAL_UNAVAILABLE", after.errorCode(), after.body());
            assertEquals("1", after.header("Retry-After"));
            refused.add("acct-x/after-full");
            final Answer ready = api.get("/ready");
            assertEquals(503, ready.status());
            assertTrue(ready.json().get("components").get("journal").get("failure").asText()
                    .contains("No space left on device"), ready.body());
            assertEquals(200, api.get("/health").status(), "the journal retries by itself: no restart needed");
            final JsonNode some = answered.values().iterator().next();
            assertEquals(200, api.get("/api/v1/orders/" + some.get("orderId").asText()).status(), "reads still work");
            assertTrue(first.log().contains("No space left on device"), "the log names the cause");

            // space is freed: the next order a second later writes again, without a restart
            assertTrue(Tmpfs.resize(journal, "64m"), "growing the tmpfs");
            Answer resumed = null;
            for (int attempt = 0; attempt < 50; attempt++) {
                Thread.sleep(200);
                resumed = api.post("/api/v1/orders", ApiClient.limit("acct-x", "resumed-" + attempt, "BTCUSD", "BUY",
                        "100.00", "1", null));
                if (resumed.status() == 201) {
                    break;
                }
                assertEquals("JOURNAL_UNAVAILABLE", resumed.errorCode(), resumed.body());
                refused.add("acct-x/resumed-" + attempt);
            }
            assertEquals(201, resumed.status(), "the journal writes again once the disk has room: " + resumed.body());
            answered.put(resumed.json().get("orderId").asLong(), resumed.json());
            assertEquals(200, api.get("/ready").status());
            assertTrue(first.log().contains("journal: writing again after"), "the recovery is logged");
            for (int i = 0; i < 100; i++) {
                final Answer more = api.post("/api/v1/orders", ApiClient.limit("acct-y", "after-" + i, "BTCUSD",
                        "SELL", "60000.00", "1", null));
                assertEquals(201, more.status(), more.body());
                answered.put(more.json().get("orderId").asLong(), more.json());
            }
            first.terminate();
        }

        try (ServiceProcess second = ServiceProcess.start(dir, env, "second")) {
            final ApiClient api = second.client();
            for (final JsonNode order : answered.values()) {
                final Answer now = api.get("/api/v1/orders/" + order.get("orderId").asText());
                assertEquals(200, now.status(), now.body());
                OrderLoad.assertSameOrSuccessor(order, now.json());
            }
            for (final String pair : refused) {
                final String[] parts = pair.split("/");
                final Answer placed = api.post("/api/v1/orders", ApiClient.limit(parts[0], parts[1], "BTCUSD", "BUY",
                        "100.00", "1", null));
                assertEquals(201, placed.status(), pair + " was answered 503, so it was never placed: "
                        + placed.body());
            }
            assertEquals(200, api.get("/health").status());
        }
        final Process verify = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", ServiceProcess.jar().toAbsolutePath().toString(), "audit-verify", dir.resolve("audit").toString())
                .redirectErrorStream(true).start();
        final String output = new String(verify.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(verify.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, verify.exitValue(), output);
    }

    /** Places LIMIT orders with clientOrderIds until the journal refuses them; 201s and 503s are remembered. */
    private static void place(final ApiClient api, final int client, final AtomicBoolean full,
                              final Map<Long, JsonNode> answered, final Set<String> refused) {
        for (int n = 0; n < 200_000 && !(full.get() && n % 50 == 0 && refused.size() > 200); n++) {
            final String account = "acct-" + client;
            final String clientOrderId = "f" + client + "-" + n;
            final String side = n % 2 == 0 ? "BUY" : "SELL";
            final String price = (side.equals("BUY") ? 49_990 + n % 15 : 49_995 + n % 15) + ".00";
            final Answer answer = api.post("/api/v1/orders", ApiClient.limit(account, clientOrderId, "BTCUSD", side,
                    price, "0.01", null));
            if (answer.status() == 201) {
                answered.put(answer.json().get("orderId").asLong(), answer.json());
            } else if (answer.status() == 503 && "JOURNAL_UNAVAILABLE".equals(answer.errorCode())) {
                full.set(true);
                refused.add(account + "/" + clientOrderId);
            } else {
                throw new AssertionError(clientOrderId + ": " + answer.status() + " " + answer.body());
            }
        }
    }

    @AfterEach
    void unmount() throws Exception {
        if (mounted) {
            Tmpfs.unmount(journal);
        }
    }
}
