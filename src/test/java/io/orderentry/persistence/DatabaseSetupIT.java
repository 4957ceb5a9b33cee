package io.orderentry.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.orderentry.testing.ApiClient;
import io.orderentry.testing.DatabaseVersusApi;
import io.orderentry.testing.FreePort;
import io.orderentry.testing.PostgresFixture;
import io.orderentry.testing.ServiceProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * No manual database setup, and a clear word when the database cannot be used: the service creates and
 * migrates a missing database, and with a wrong URL or login it still takes orders, says why in its log
 * and names the database as down in /ready.
 */
class DatabaseSetupIT {

    /** Every migration the jar ships, db/migration/V1__... to the newest: a new database gets them all. */
    private static final long MIGRATIONS = migrations();

    private static long migrations() {
        try (java.util.stream.Stream<java.nio.file.Path> files = java.nio.file.Files.list(java.nio.file.Path.of("db",
                "migration"))) {
            return files.filter(f -> f.getFileName().toString().matches("V\\d+__.*\\.sql")).count();
        } catch (final java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @RegisterExtension
    static final PostgresFixture DB = new PostgresFixture();

    @TempDir
    Path dir;

    @Test
    void aMissingDatabaseIsCreatedAndMigratedAtStartup() throws Exception {
        assumeTrue(DB.createsDatabases(), "the test server does not let this user create databases");
        final String name = "oe_test_created_" + ProcessHandle.current().pid();
        DB.dropDatabase(name);
        final Map<String, String> env = new HashMap<>(DB.env());
        env.put("ORDERS_DB_URL", DB.urlOfNewDatabase(name));
        try (ServiceProcess service = ServiceProcess.start(dir, env, "created")) {
            assertEquals(201, service.client().post("/api/v1/orders",
                    ApiClient.limit("a", "x", "BTCUSD", "BUY", "100.00", "1", null)).status());
            DatabaseVersusApi.awaitCaughtUp(service.client(), Duration.ofSeconds(30));
            assertTrue(service.log().contains("created database '" + name + "'"), service.log());
            assertTrue(service.log().contains("applied " + MIGRATIONS + " migration(s)"), service.log());
        } finally {
            DB.dropDatabase(name);
        }
    }

    @Test
    void anUnreachableDatabaseIsLoggedClearlyReportedDownAndOrdersAreStillTaken() throws Exception {
        final Map<String, String> env = new HashMap<>(DB.env());
        env.put("ORDERS_DB_URL", "jdbc:postgresql://127.0.0.1:" + FreePort.pick() + "/orderentry");
        try (ServiceProcess service = ServiceProcess.start(dir, env, "unreachable")) {
            assertOrdersTakenWithDatabaseDown(service);
            assertTrue(service.log().contains("cannot use the database"), service.log());
            assertTrue(service.log().contains("cannot reach PostgreSQL at 127.0.0.1:"), service.log());
            assertTrue(service.log().contains("ORDERS_DB_URL"), service.log());
        }
    }

    @Test
    void aRefusedLoginIsLoggedClearlyReportedDownAndOrdersAreStillTaken() throws Exception {
        final Map<String, String> env = new HashMap<>(DB.env());
        env.put("ORDERS_DB_USER", "no_such_user_" + ProcessHandle.current().pid());
        env.put("ORDERS_DB_PASSWORD", "pw-secret-1234");
        try (ServiceProcess service = ServiceProcess.start(dir, env, "login")) {
            assertOrdersTakenWithDatabaseDown(service);
            assertTrue(service.log().contains("refused the login of user 'no_such_user_"), service.log());
            assertTrue(service.log().contains("ORDERS_DB_PASSWORD"), service.log());
            assertTrue(!service.log().contains("pw-secret-1234"), "the password is never logged");
        }
    }

    private static void assertOrdersTakenWithDatabaseDown(final ServiceProcess service) {
        final ApiClient api = service.client();
        for (int i = 0; i < 20; i++) {
            assertEquals(201, api.post("/api/v1/orders",
                    ApiClient.limit("a", "k" + i, "BTCUSD", i % 2 == 0 ? "BUY" : "SELL", "100.00", "1", null)).status());
        }
        final ApiClient.Answer ready = api.get("/ready");
        assertEquals(200, ready.status(), ready.body());
        final JsonNode database = ready.json().get("components").get("database");
        assertEquals("DOWN", database.get("status").asText(), ready.body());
        assertEquals("DOWN", database.get("state").asText(), ready.body());
        assertTrue(database.get("error").asText().length() > 10, ready.body());
        assertTrue(ready.json().get("components").get("persistence").get("lagEvents").asLong() >= 40, ready.body());
        assertEquals("UP", ready.json().get("status").asText(), ready.body());
    }
}
