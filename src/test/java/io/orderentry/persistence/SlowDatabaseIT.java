package io.orderentry.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.orderentry.testing.ApiClient;
import io.orderentry.testing.DatabaseVersusApi;
import io.orderentry.testing.MixedOrderLoad;
import io.orderentry.testing.PostgresFixture;
import io.orderentry.testing.ServiceProcess;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A database that is slow, not down, for 90 s (the figure; {@code -Dslowdb.seconds} to change it): a held
 * lock stalls every write of the persistence writer for longer than its statement timeout (the default, 20 s) and its
 * socket timeout (60 s), while orders keep coming. PostgreSQL cancels the stalled statements itself (no backend is
 * left behind a client that gave up), persistence retries and is never FAILED, and once the lock is gone it catches
 * up with every event exactly once.
 */
class SlowDatabaseIT {

    @RegisterExtension
    static final PostgresFixture DB = new PostgresFixture();

    @TempDir
    Path dir;

    @Test
    void writesStalledPastTheStatementTimeoutAreRetriedNeverFailedAndCatchUpExactlyOnce() throws Exception {
        final Map<String, String> env = new HashMap<>(DB.env());
        env.put("ORDERS_JOURNAL_SYNC", "none");
        final long stallSeconds = Long.getLong("slowdb.seconds", 90);
        try (ServiceProcess service = ServiceProcess.start(dir, env, "slow")) {
            final ApiClient api = service.client();
            final MixedOrderLoad load = new MixedOrderLoad(api, 3, 2);
            load.awaitPlaced(300, 30);
            final Set<String> states = new HashSet<>();
            try (Connection holder = DriverManager.getConnection(DB.url(), DB.user(), DB.password())) {
                holder.setAutoCommit(false);
                holder.createStatement().execute("LOCK TABLE orders IN ACCESS EXCLUSIVE MODE");
                final long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(stallSeconds);
                while (System.nanoTime() < until) {
                    final JsonNode ready = api.get("/ready").json();
                    states.add(ready.get("components").get("database").get("state").asText());
                    Thread.sleep(100);
                }
                holder.rollback();
            }
            load.awaitPlaced(load.placed().size() + 200, 30);
            load.stop();
            assertEquals(0, load.unexpectedAnswers(), () -> "orders were refused: " + load.someUnexpectedAnswers());
            assertTrue(!states.contains("FAILED"), "persistence was never FAILED: " + states);
            assertTrue(service.log().contains("statement timeout"), "the server cancelled the stalled statements");

            DatabaseVersusApi.awaitCaughtUp(api, Duration.ofSeconds(120));
            DatabaseVersusApi.assertSame(api, DB);
            assertNotEquals("FAILED", api.get("/ready").json().get("components").get("database").get("state").asText());
            assertEquals(0, DB.number("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"),
                    "no backend is left waiting on a lock");
            assertTrue(DB.number("SELECT count(*) FROM pg_stat_activity WHERE application_name ="
                    + " 'order-entry persistence' AND state = 'active'") <= 2, "no backend is left running");
        }
    }
}
