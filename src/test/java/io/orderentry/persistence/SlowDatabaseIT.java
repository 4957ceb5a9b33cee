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
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
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
 *
 * <p>Which backends may be open: the service's pool ({@code order-entry persistence}) holds one connection per writer
 * lane, and the lanes keep theirs across the stall (a cancelled statement is rolled back, the connection stays in the
 * pool and is taken again at the reconnect), so after the catch-up exactly {@value #WRITERS} of them are left, idle
 * between transactions. The holder and the fixture's query connections are closed; the query asking is excluded by
 * its pid. Anything else in this database (an active or "idle in transaction" backend, one still running a statement
 * past the timeout, one waiting on a lock) would have outlived the slow period: a leak.
 */
class SlowDatabaseIT {

    @RegisterExtension
    static final PostgresFixture DB = new PostgresFixture();

    /** Writer lanes, each with its own connection: the default, set explicitly because the check counts them. */
    private static final int WRITERS = 2;
    private static final String PERSISTENCE = "order-entry persistence";
    /** Client backends of this test's database other than the one asking. */
    private static final String BACKENDS = "SELECT application_name, state, wait_event_type || ':' || wait_event, query"
            + " FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend'"
            + " AND pid <> pg_backend_pid() ORDER BY 1, 2";

    @TempDir
    Path dir;

    @Test
    void writesStalledPastTheStatementTimeoutAreRetriedNeverFailedAndCatchUpExactlyOnce() throws Exception {
        final Map<String, String> env = new HashMap<>(DB.env());
        env.put("ORDERS_JOURNAL_SYNC", "none");
        env.put("ORDERS_PERSISTENCE_WRITERS", Integer.toString(WRITERS));
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
                // still under the lock: PostgreSQL has cancelled every statement running past the 20 s timeout itself
                assertEquals(List.of(), DB.rows("SELECT query, now() - query_start FROM pg_stat_activity"
                        + " WHERE datname = current_database() AND application_name = '" + PERSISTENCE + "'"
                        + " AND state = 'active' AND now() - query_start > interval '25 seconds'"),
                        "a persistence statement ran past the statement timeout");
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
            assertOnlyIdleLaneConnections();
        }
    }

    /**
     * Waits (5 s at most: a closed connection's backend exits a moment after the client let go) until the database's
     * client backends are one idle connection per lane, waiting for its next statement.
     */
    private static void assertOnlyIdleLaneConnections() throws Exception {
        final List<String> expected = Collections.nCopies(WRITERS, PERSISTENCE + " | idle | Client:ClientRead");
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        List<String> seen = backends();
        while (!seen.equals(expected) && System.nanoTime() < deadline) {
            Thread.sleep(100);
            seen = backends();
        }
        assertEquals(expected, seen, "only the lanes' idle connections are left: nothing active, idle in transaction,"
                + " running a timed-out statement or waiting on a lock");
    }

    /** @return the client backends of this database but the asking one: name | state | wait, and the query unless idle */
    private static List<String> backends() throws Exception {
        final List<String> lines = new ArrayList<>();
        for (final List<String> row : DB.rows(BACKENDS)) {
            lines.add(row.get(0) + " | " + row.get(1) + " | " + row.get(2)
                    + ("idle".equals(row.get(1)) ? "" : " | " + row.get(3)));
        }
        return lines;
    }
}
