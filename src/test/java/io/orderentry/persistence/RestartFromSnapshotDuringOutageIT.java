package io.orderentry.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A restart while PostgreSQL cannot be reached still starts from a snapshot (the snapshot records how far the
 * database had got, and its mark only rises), replays only the journal after it, and once the database is back it
 * catches up to exactly what the API answered: nothing the snapshot skipped is missing from it.
 */
class RestartFromSnapshotDuringOutageIT {

    @RegisterExtension
    static final PostgresFixture DB = new PostgresFixture();

    @TempDir
    Path dir;

    @Test
    void restartDuringADatabaseOutageLoadsTheSnapshotAndTheDatabaseCatchesUpExactlyAfterwards() throws Exception {
        try (FaultyProxy proxy = new FaultyProxy(DB.host(), DB.port())) {
            final Map<String, String> env = env(proxy);
            try (ServiceProcess first = ServiceProcess.start(dir, env, "before")) {
                final ApiClient api = first.client();
                final MixedOrderLoad load = new MixedOrderLoad(api, 3, 2);
                load.awaitPlaced(300, 30);
                load.stop();
                DatabaseVersusApi.awaitCaughtUp(api, Duration.ofSeconds(60));
                final ApiClient.Answer snapshot = api.post("/admin/snapshot", "");
                assertEquals(200, snapshot.status(), snapshot.body());
                place(api, "after-snapshot", 150);   // journaled after the snapshot, in the database by the graceful stop
                assertEquals(0, first.terminate(), first.log());
            }
            proxy.cut();
            try (ServiceProcess second = ServiceProcess.start(dir, env, "during-outage")) {
                final ApiClient api = second.client();
                assertTrue(second.log().contains("recovery: loaded snapshot"), second.log());
                assertEquals("DOWN", api.get("/ready").json().get("components").get("database").get("status").asText());
                place(api, "during-outage", 150);
                proxy.restore();
                DatabaseVersusApi.awaitCaughtUp(api, Duration.ofSeconds(60));
                DatabaseVersusApi.assertSame(api, DB);
            }
        }
    }

    /** Places crossing and resting orders, each with a new clientOrderId, and checks each is accepted. */
    private static void place(final ApiClient api, final String prefix, final int count) {
        for (int i = 0; i < count; i++) {
            final String side = i % 2 == 0 ? "BUY" : "SELL";
            final String price = (i % 2 == 0 ? 50_000 + i % 7 : 50_003 - i % 7) + ".00";
            final ApiClient.Answer answer = api.post("/api/v1/orders", ApiClient.limit("acct-" + i % 5,
                    prefix + "-" + i, "BTCUSD", side, price, "0.01" + i % 10, null));
            assertEquals(201, answer.status(), answer.body());
        }
    }

    private static Map<String, String> env(final FaultyProxy proxy) {
        final Map<String, String> env = new HashMap<>(DB.env());
        env.put("ORDERS_DB_URL", DB.urlVia("127.0.0.1", proxy.port()));
        env.put("ORDERS_JOURNAL_SYNC", "none");
        env.put("ORDERS_PERSISTENCE_RETRY_MAX_MILLIS", "500");
        env.put("ORDERS_DB_CONNECT_TIMEOUT_SECONDS", "1");
        return env;
    }
}
