package io.orderentry.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.orderentry.testing.ApiClient;
import io.orderentry.testing.ApiClient.Answer;
import io.orderentry.testing.ServiceProcess;
import io.orderentry.testing.ThinDisk;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code /health} of the real jar, over HTTP, once a real fault leaves the process unable to take orders for good.
 * README ("Health") and docs/audit.md define that state: the audit trail gave up its chain, e.g. because a finished
 * file failed its background force (its records may be gone from the disk). The fault is real: the audit directory is
 * an ext4 file system whose storage runs out underneath it ({@link ThinDisk}), so writes succeed and the kernel fails
 * the force. (A journal or audit disk that is merely full retries by itself and leaves {@code /health} UP:
 * JournalDiskFullIT, AuditDiskFullIT.) Needs root, a loop device and mkfs.ext4; skipped with a message elsewhere.
 */
class HealthDownIT {

    @TempDir
    Path dir;
    private ThinDisk disk;

    @Test
    void healthAnswers503DownOnceAFinishedAuditFileCannotBeForcedAndStaysDownWhenTheStorageHasRoomAgain()
            throws Exception {
        disk = ThinDisk.mount(dir.resolve("audit"), dir.resolve("audit-storage"), 256 << 10);
        assumeTrue(disk != null, "needs root, a loop device and mkfs.ext4 for a disk whose storage runs out under it"
                + " (run the tests as root)");
        // files of 64 KiB: each roll forces the finished file in the background (ORDERS_AUDIT_SYNC=none)
        final Map<String, String> env = Map.of("ORDERS_AUDIT_SYNC", "none", "ORDERS_AUDIT_MAX_FILE_BYTES",
                Integer.toString(64 << 10), "ORDERS_JOURNAL_SYNC", "fsync", "ORDERS_SNAPSHOT_ENABLED", "false");
        try (ServiceProcess service = ServiceProcess.start(dir, env, "service")) {
            final ApiClient api = service.client();
            final Answer up = api.get("/health");
            assertEquals(200, up.status(), up.body());
            assertEquals("UP", up.json().get("status").asText());

            long lastAnswered = 0;
            Answer last = null;
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            for (int i = 0; System.nanoTime() < deadline; i++) {
                last = api.post("/api/v1/orders", ApiClient.limit("acct-" + i % 7, "h-" + i, "BTCUSD",
                        i % 2 == 0 ? "BUY" : "SELL", (i % 2 == 0 ? 49_000 : 51_000) + i % 50 + ".00", "0.01", null));
                if (last.status() != 201) {
                    break;
                }
                lastAnswered = last.json().get("orderId").asLong();
            }
            assertNotNull(last);
            assertEquals(503, last.status(), "the audit storage never failed: " + last.body());
            assertEquals("AUDIT_UNAVAILABLE", last.errorCode(), last.body());
            assertTrue(lastAnswered > 0, "orders were answered before the fault");

            Answer health = api.get("/health");
            final long downDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (health.status() == 200 && System.nanoTime() < downDeadline) {
                Thread.sleep(100);
                health = api.get("/health");
            }
            assertEquals(503, health.status(), "only a restart helps: " + health.body() + "\n" + service.log());
            assertEquals("DOWN", health.json().get("status").asText(), health.body());
            final String reason = health.json().get("reason").asText();
            assertTrue(reason.contains("the audit trail cannot go on before a restart")
                    && reason.contains("in the background failed"), "the reason names the failed force: " + reason);
            final Answer ready = api.get("/ready");
            assertEquals(503, ready.status(), ready.body());
            assertFalse(ready.json().get("components").get("audit").get("resumable").asBoolean(), ready.body());
            assertTrue(service.log().contains("the trail cannot go on before a restart"), "the log says so");

            // the storage gets room again: the trail still does not resume (its chain is broken), so /health stays
            // DOWN and orders stay refused through several of the trail's once-a-second retries
            assertTrue(disk.grow("64m"), "growing the storage");
            final long stays = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
            while (System.nanoTime() < stays) {
                final Answer still = api.get("/health");
                assertEquals(503, still.status(), "does not recover by itself: " + still.body());
                assertEquals("DOWN", still.json().get("status").asText());
                Thread.sleep(250);
            }
            final Answer refused = api.post("/api/v1/orders", ApiClient.limit("acct-x", "after", "BTCUSD", "BUY",
                    "100.00", "1", null));
            assertEquals(503, refused.status(), refused.body());
            assertEquals("AUDIT_UNAVAILABLE", refused.errorCode(), refused.body());
            assertEquals(200, api.get("/api/v1/orders/" + lastAnswered).status(), "reads still work");
        }
    }

    @AfterEach
    void unmount() throws Exception {
        if (disk != null) {
            disk.unmount();
        }
    }
}
