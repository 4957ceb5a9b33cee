package io.orderentry.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.orderentry.testing.ApiClient;
import io.orderentry.testing.DatabaseVersusApi;
import io.orderentry.testing.FaultyProxy;
import io.orderentry.testing.MixedOrderLoad;
import io.orderentry.testing.PostgresFixture;
import io.orderentry.testing.ServiceProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Invariant 3: a database outage never stops order entry. A proxy between the service and PostgreSQL
 * cuts every connection for more than 10 s while orders keep coming; afterwards the database catches up
 * by itself and holds exactly what the API answered.
 */
class DatabaseOutageIT {

    @RegisterExtension
    static final PostgresFixture DB = new PostgresFixture();

    private static final long OUTAGE_SECONDS = 11;

    @TempDir
    Path dir;

    @Test
    void ordersKeepGetting201WhileTheDatabaseIsCutAndItCatchesUpCompletelyAfterwards() throws Exception {
        try (FaultyProxy proxy = new FaultyProxy(DB.host(), DB.port());
             ServiceProcess service = ServiceProcess.start(dir, env(proxy), "outage")) {
            final ApiClient api = service.client();
            final MixedOrderLoad load = new MixedOrderLoad(api, 3, 2);
            load.awaitPlaced(300, 30);
            assertTrue(DB.number("SELECT last_sequence FROM high_water_mark") > 0, "written before the outage");

            proxy.cut();
            final int placedBefore = load.placed().size();
            final long cutUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(OUTAGE_SECONDS);
            final JsonNode duringOutage = awaitDatabaseState(api, "DOWN");
            final long persistedDuringOutage = DB.number("SELECT last_sequence FROM high_water_mark");
            Thread.sleep(Math.max(0, TimeUnit.NANOSECONDS.toMillis(cutUntil - System.nanoTime())));
            final JsonNode endOfOutage = api.get("/ready").json();
            assertEquals(persistedDuringOutage, DB.number("SELECT last_sequence FROM high_water_mark"),
                    "nothing reaches the database while it is cut off");
            final int placedDuringOutage = load.placed().size() - placedBefore;
            proxy.restore();

            load.awaitPlaced(load.placed().size() + 200, 30);
            load.stop();
            assertEquals(0, load.unexpectedAnswers(), () -> "orders were refused: " + load.someUnexpectedAnswers());
            assertTrue(placedDuringOutage > 100, "orders placed during the outage: " + placedDuringOutage);
            assertEquals(200, api.get("/ready").status(), "a database outage does not make the service unready");
            assertEquals("DOWN", duringOutage.get("components").get("database").get("status").asText());
            assertTrue(endOfOutage.get("components").get("persistence").get("lagEvents").asLong() > 0, endOfOutage.toString());
            assertTrue(endOfOutage.get("components").get("persistence").get("spoolBytes").asLong() > 0,
                    "the backlog waits on disk: " + endOfOutage);

            DatabaseVersusApi.awaitCaughtUp(api, Duration.ofSeconds(60));
            DatabaseVersusApi.assertSame(api, DB);
            final String metrics = api.get("/metrics").body();
            assertTrue(metric(metrics, "orders_persistence_outages_total") >= 1, metrics);
            assertTrue(metric(metrics, "orders_persistence_catchups_total") >= 1, metrics);
            assertTrue(metric(metrics, "orders_persistence_last_catchup_events") > 0, metrics);
            assertTrue(service.log().contains("database DOWN"), service.log());
            assertTrue(service.log().contains("caught up after the outage"), service.log());
        }
    }

    private static Map<String, String> env(final FaultyProxy proxy) {
        final Map<String, String> env = new HashMap<>(DB.env());
        env.put("ORDERS_DB_URL", DB.urlVia("127.0.0.1", proxy.port()));
        env.put("ORDERS_JOURNAL_SYNC", "none");
        env.put("ORDERS_PERSISTENCE_RETRY_MAX_MILLIS", "500");
        return env;
    }

    private static JsonNode awaitDatabaseState(final ApiClient api, final String state) throws InterruptedException {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        JsonNode ready = api.get("/ready").json();
        while (!ready.get("components").get("database").get("state").asText().equals(state)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the database never showed " + state + ": " + ready);
            }
            Thread.sleep(50);
            ready = api.get("/ready").json();
        }
        return ready;
    }

    private static double metric(final String metrics, final String name) {
        return metrics.lines().filter(line -> line.startsWith(name + " ")).mapToDouble(
                line -> Double.parseDouble(line.substring(name.length() + 1))).findFirst().orElse(-1);
    }
}
