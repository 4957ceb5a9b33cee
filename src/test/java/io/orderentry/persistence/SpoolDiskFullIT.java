package io.orderentry.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.orderentry.testing.ApiClient;
import io.orderentry.testing.DatabaseVersusApi;
import io.orderentry.testing.FaultyProxy;
import io.orderentry.testing.MixedOrderLoad;
import io.orderentry.testing.PostgresFixture;
import io.orderentry.testing.ServiceProcess;
import io.orderentry.testing.Tmpfs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A database outage long enough to fill the spool's disk (a real 2 MiB tmpfs): trading goes on with every order
 * answered 201, spooling stops with the reason in {@code /ready}; after a restart with the database back, the
 * database catches up from the journal and holds exactly what the API answered. Needs root (mount).
 */
class SpoolDiskFullIT {

    @RegisterExtension
    static final PostgresFixture DB = new PostgresFixture();

    @TempDir
    Path dir;
    private Path spool;
    private boolean mounted;

    @Test
    void aSpoolDiskThatFillsDuringAnOutageStopsSpoolingNotTradingAndARestartCatchesTheDatabaseUp() throws Exception {
        spool = dir.resolve("spool");
        mounted = Tmpfs.mount(spool, "2m");
        assumeTrue(mounted, "needs root to mount a 2 MiB tmpfs for a real ENOSPC (run the tests as root)");
        try (FaultyProxy proxy = new FaultyProxy(DB.host(), DB.port())) {
            final Map<String, String> env = new HashMap<>(DB.env());
            env.put("ORDERS_DB_URL", DB.urlVia("127.0.0.1", proxy.port()));
            env.put("ORDERS_JOURNAL_SYNC", "none");
            env.put("ORDERS_PERSISTENCE_RETRY_MAX_MILLIS", "500");
            env.put("ORDERS_PERSISTENCE_SPOOL_SEGMENT_BYTES", Integer.toString(1 << 20));   // the smallest segment
            env.put("ORDERS_PERSISTENCE_SPOOL_MIN_FREE_BYTES", "0");   // let the real disk say it is full
            env.put("ORDERS_SNAPSHOT_ENABLED", "false");
            try (ServiceProcess first = ServiceProcess.start(dir, env, "first")) {
                final ApiClient api = first.client();
                final MixedOrderLoad load = new MixedOrderLoad(api, 3, 0);
                load.awaitPlaced(200, 30);
                proxy.cut();
                JsonNode ready = api.get("/ready").json();
                final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
                while (!ready.get("components").get("persistence").has("spoolFailure")
                        && System.nanoTime() < deadline) {
                    Thread.sleep(200);
                    ready = api.get("/ready").json();
                }
                final String failure = ready.get("components").get("persistence").path("spoolFailure").asText();
                // the kernel's ENOSPC, or the spool's own check that the disk has no room for another segment
                assertTrue(failure.contains("No space left on device") || failure.contains("0 bytes free"),
                        "spooling stopped on the full disk: " + ready);
                final int before = load.placed().size();
                load.awaitPlaced(before + 200, 30);
                load.stop();
                assertEquals(0, load.unexpectedAnswers(), () -> "orders were refused: " + load.someUnexpectedAnswers());
                assertTrue(load.placed().size() >= before + 200, "trading went on after the spool stopped");
                proxy.restore();
                first.terminate();
            }
            assertTrue(Tmpfs.resize(spool, "64m"), "growing the tmpfs");
            try (ServiceProcess second = ServiceProcess.start(dir, env, "second")) {
                DatabaseVersusApi.awaitCaughtUp(second.client(), Duration.ofSeconds(90));
                DatabaseVersusApi.assertSame(second.client(), DB);
            }
        }
    }

    @AfterEach
    void unmount() throws Exception {
        if (mounted) {
            Tmpfs.unmount(spool);
        }
    }
}
