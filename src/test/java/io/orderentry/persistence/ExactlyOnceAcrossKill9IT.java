package io.orderentry.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.orderentry.testing.AccountKeys;
import io.orderentry.testing.DatabaseVersusApi;
import io.orderentry.testing.MixedOrderLoad;
import io.orderentry.testing.PostgresFixture;
import io.orderentry.testing.ServiceProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Invariant 4 across a crash: the real jar is killed with SIGKILL while it writes to PostgreSQL under
 * load, and restarted. The journal replay regenerates what the database missed; nothing is written twice.
 * Authentication is on, as the service ships: each account of the load has its own API key.
 */
class ExactlyOnceAcrossKill9IT {

    @RegisterExtension
    static final PostgresFixture DB = new PostgresFixture();

    @TempDir
    Path dir;

    @Test
    void afterKill9AndRestartTheDatabaseHoldsEveryEventOnceWithoutGaps() throws Exception {
        final Map<Long, JsonNode> answered;
        final long persistedBeforeKill;
        final AccountKeys keys = AccountKeys.create(dir.resolve("keys"), MixedOrderLoad.accounts(6));
        try (ServiceProcess first = ServiceProcess.start(dir, keys.env(env()), "first")) {
            final MixedOrderLoad load = new MixedOrderLoad(first.client(), 6, 0, keys);
            load.awaitPlaced(3_000, 60);
            persistedBeforeKill = DB.number("SELECT last_sequence FROM high_water_mark");
            first.kill9();
            load.stop();
            answered = load.placed();
            assertEquals(0, load.unexpectedAnswers(), () -> "unexpected answers: " + load.someUnexpectedAnswers());
        }
        assertTrue(answered.size() >= 1_000, "too few orders before the kill: " + answered.size());
        assertTrue(persistedBeforeKill > 0, "the database should have been written to before the kill");

        try (ServiceProcess second = ServiceProcess.start(dir, keys.env(env()), "second")) {
            assertEquals(401, second.client().get("/api/v1/orders/1").status(), "the service asks for API keys");
            DatabaseVersusApi.awaitCaughtUp(second.client(), Duration.ofSeconds(60));
            final DatabaseVersusApi.Summary compared = DatabaseVersusApi.assertSame(second.client(), keys, DB);
            final long maxAnswered = answered.keySet().stream().mapToLong(Long::longValue).max().orElseThrow();
            assertTrue(compared.orders() >= maxAnswered, "answered order " + maxAnswered + " is missing: " + compared);
            final Set<Long> stored = new HashSet<>();
            for (final List<String> row : DB.rows("SELECT order_id FROM orders")) {
                assertTrue(stored.add(Long.parseLong(row.get(0))), "order " + row.get(0) + " twice");
            }
            assertTrue(stored.containsAll(answered.keySet()), "every answered order is stored");
            assertEquals(compared.events(), DB.number("SELECT count(DISTINCT sequence) FROM order_events"));
            assertTrue(second.log().contains("catching up"), second.log());
        }
    }

    /** The journal is written to the OS without fsync: a killed process loses nothing the OS holds. */
    private static Map<String, String> env() {
        final Map<String, String> env = new HashMap<>(DB.env());
        env.put("ORDERS_JOURNAL_SYNC", "none");
        return env;
    }
}
