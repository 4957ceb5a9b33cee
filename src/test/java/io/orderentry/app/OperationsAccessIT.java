package io.orderentry.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.orderentry.testing.ApiClient;
import io.orderentry.testing.ApiClient.Answer;
import io.orderentry.testing.ServiceProcess;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Who may use the operations endpoints of the real jar ({@code /metrics}, {@code /ready}, {@code /health},
 * {@code POST /admin/snapshot}) with authentication on, with {@code ORDERS_AUTH_OPS} admin and open, and what
 * {@code /ready} and the log say with authentication off. Keys are made by {@code keys create} before the start.
 */
class OperationsAccessIT {

    @TempDir
    Path dir;

    private static void assertRefused(final Answer answer, final int status, final String code) {
        assertEquals(status, answer.status(), answer.body());
        assertEquals(code, answer.errorCode(), answer.body());
    }

    private static void placeOne(final ApiClient api) {
        final Answer placed = api.post("/api/v1/orders", ApiClient.limit("acct-1", "ops-1", "BTCUSD", "BUY", "50000.00",
                "0.1", null));
        assertEquals(201, placed.status(), placed.body());
    }

    @Test
    void withOpsForAdminsOnlyMetricsReadyDetailsAndSnapshotsNeedAnAdminKeyAndHealthIsOpen() {
        final Path keys = dir.resolve("keys");
        final String trade = ServiceProcess.createKey(keys, "acct-1");
        final String admin = ServiceProcess.createKey(keys, "ops", "--admin");
        try (ServiceProcess service = ServiceProcess.start(dir, Map.of("ORDERS_AUTH", "keys", "ORDERS_AUTH_KEYS_FILE",
                keys.toString(), "ORDERS_AUTH_OPS", "admin"), "service")) {
            final ApiClient anonymous = service.client();
            final ApiClient trader = new ApiClient(service.port(), trade);
            final ApiClient operator = new ApiClient(service.port(), admin);

            final Answer noKey = anonymous.get("/metrics");
            assertRefused(noKey, 401, "UNAUTHENTICATED");
            assertEquals("Bearer", noKey.header("WWW-Authenticate"));
            assertRefused(trader.get("/metrics"), 403, "PERMISSION_DENIED");
            final Answer metrics = operator.get("/metrics");
            assertEquals(200, metrics.status(), metrics.body());
            assertTrue(metrics.body().contains("orders_auth_enabled 1"), metrics.body());
            assertTrue(metrics.body().contains("orders_auth_failures_total{code=\"UNAUTHENTICATED\"} 1"),
                    "the refusal above was counted: " + metrics.body());

            for (final ApiClient notAdmin : new ApiClient[] {anonymous, trader}) {
                final Answer bare = notAdmin.get("/ready");
                assertEquals(200, bare.status(), bare.body());
                assertEquals("{\"status\":\"UP\"}", bare.body(), "only the status without an admin key");
            }
            final Answer detailed = operator.get("/ready");
            assertEquals(200, detailed.status(), detailed.body());
            assertEquals("UP", detailed.json().get("status").asText());
            assertTrue(detailed.json().get("components").has("journal"), detailed.body());
            assertFalse(detailed.json().has("warnings"), "authentication is on: " + detailed.body());

            final Answer health = anonymous.get("/health");
            assertEquals(200, health.status(), health.body());
            assertEquals("UP", health.json().get("status").asText());

            placeOne(trader);   // a snapshot needs something journaled
            assertRefused(anonymous.post("/admin/snapshot", ""), 401, "UNAUTHENTICATED");
            assertRefused(trader.post("/admin/snapshot", ""), 403, "PERMISSION_DENIED");
            final Answer snapshot = operator.post("/admin/snapshot", "");
            assertEquals(200, snapshot.status(), snapshot.body());
        }
    }

    @Test
    void withOpsOpenMetricsAndReadyNeedNoKeyButASnapshotStillNeedsAnAdminKey() {
        final Path keys = dir.resolve("keys");
        final String trade = ServiceProcess.createKey(keys, "acct-1");
        final String admin = ServiceProcess.createKey(keys, "ops", "--admin");
        try (ServiceProcess service = ServiceProcess.start(dir, Map.of("ORDERS_AUTH", "keys", "ORDERS_AUTH_KEYS_FILE",
                keys.toString(), "ORDERS_AUTH_OPS", "open"), "service")) {
            final ApiClient anonymous = service.client();
            final Answer metrics = anonymous.get("/metrics");
            assertEquals(200, metrics.status(), metrics.body());
            final Answer ready = anonymous.get("/ready");
            assertEquals(200, ready.status(), ready.body());
            assertTrue(ready.json().get("components").has("journal"), "the detailed body: " + ready.body());

            final ApiClient trader = new ApiClient(service.port(), trade);
            placeOne(trader);
            assertRefused(anonymous.post("/admin/snapshot", ""), 401, "UNAUTHENTICATED");
            assertRefused(trader.post("/admin/snapshot", ""), 403, "PERMISSION_DENIED");
            final Answer snapshot = new ApiClient(service.port(), admin).post("/admin/snapshot", "");
            assertEquals(200, snapshot.status(), snapshot.body());
        }
    }

    @Test
    void withAuthenticationOffReadyAndTheLogWarnThatItIsOff() {
        try (ServiceProcess service = ServiceProcess.start(dir, Map.of("ORDERS_AUTH", "none"), "service")) {
            final Answer ready = service.client().get("/ready");
            assertEquals(200, ready.status(), ready.body());
            final JsonNode warnings = ready.json().get("warnings");
            assertTrue(warnings != null && warnings.isArray() && warnings.size() == 1, ready.body());
            assertTrue(warnings.get(0).asText().startsWith("authentication is off (ORDERS_AUTH=none)"), ready.body());
            assertTrue(service.log().contains("AUTHENTICATION IS OFF (ORDERS_AUTH=none)"), service.log());
            placeOne(service.client());
            final Answer snapshot = service.client().post("/admin/snapshot", "");
            assertEquals(200, snapshot.status(), "no key to ask for: " + snapshot.body());
        }
    }
}
