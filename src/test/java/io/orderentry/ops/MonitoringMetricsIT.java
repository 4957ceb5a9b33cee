package io.orderentry.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.orderentry.testing.ApiClient;
import io.orderentry.testing.FreePort;
import io.orderentry.testing.Metrics;
import io.orderentry.testing.MonitoringFiles;
import io.orderentry.testing.PostgresFixture;
import io.orderentry.testing.ServiceProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every metric the Grafana dashboard and the alert rules read is one the jar exposes: a renamed metric would leave a
 * panel empty and an alert silent, and nothing else would say so. The single node (with PostgreSQL, after orders,
 * a refusal and a garbage collection, so that the series that appear on first use are there) must expose every name
 * but the cluster's; a one-member cluster (without a database) must expose the cluster's. Also what the new figures say: ready, healthy,
 * ring sizes, and disk figures for each state directory.
 */
class MonitoringMetricsIT {

    @RegisterExtension
    static final PostgresFixture DB = new PostgresFixture();

    @TempDir
    Path work;

    @Test
    void everyMetricTheDashboardAndTheAlertsReadIsExposedByASingleNodeOrAClusterMember() throws Exception {
        final Set<String> wanted = MonitoringFiles.metricNames();
        final Set<String> clusterOnly = new TreeSet<>();
        wanted.stream().filter(name -> name.startsWith("orders_cluster_")).forEach(clusterOnly::add);
        assertTrue(clusterOnly.size() >= 5, "the dashboard and the rules read the cluster's figures: " + clusterOnly);

        final String single;
        final Path node = Files.createDirectories(work.resolve("single"));
        try (ServiceProcess service = ServiceProcess.start(node, new HashMap<>(DB.env()), "single")) {
            single = exercised(service);
            final Set<String> missing = new TreeSet<>(wanted);
            missing.removeAll(clusterOnly);
            missing.removeAll(MonitoringFiles.exposedSeries(single));
            assertEquals(Set.of(), missing, "read by the dashboard or the alert rules, not in a single node's /metrics");
            assertEquals(1.0, Metrics.series(single, "orders_ready"));
            assertEquals(1.0, Metrics.series(single, "orders_health_up"));
            assertEquals(65536.0, Metrics.series(single, "orders_input_ring_size"));
            for (final String dir : new String[] {"journal", "audit", "spool", "snapshots"}) {
                assertTrue(Metrics.series(single, "orders_disk_size_bytes{dir=\"" + dir + "\"}") > 0, dir);
                assertTrue(Metrics.series(single, "orders_disk_free_bytes{dir=\"" + dir + "\"}") >= 0, dir);
            }
            assertTrue(Metrics.series(single, "orders_directory_bytes{dir=\"journal\"}") > 0, "the journal holds the orders");
        }

        final Path member = Files.createDirectories(work.resolve("member"));
        try (ServiceProcess service = ServiceProcess.start(member, oneMemberCluster(member), "member")) {
            final String text = exercised(service);
            final Set<String> missing = new TreeSet<>(clusterOnly);
            missing.removeAll(MonitoringFiles.exposedSeries(text));
            assertEquals(Set.of(), missing, "read by the dashboard or the alert rules, not in a cluster member's"
                    + " /metrics");
            assertEquals(1.0, Metrics.series(text, "orders_cluster_role{role=\"LEADER\"}"), "a cluster of one leads");
            assertEquals(0.0, Metrics.series(text, "orders_cluster_leader_member_id"));
            assertEquals(1.0, Metrics.series(text, "orders_cluster_members"));
            assertEquals(1.0, Metrics.series(text, "orders_cluster_in_term"));
            assertTrue(Metrics.series(text, "orders_cluster_commit_position") > 0, "the orders are in the log");
            assertTrue(Metrics.series(text, "orders_directory_bytes{dir=\"cluster\"}") > 0, "the member's log on disk");
        }
    }

    /**
     * Places orders and a refused one, reads one, forces a collection, and returns {@code /metrics} once a collection's
     * pause is in it (the JVM's pause figures appear at the first collection).
     */
    private static String exercised(final ServiceProcess service) throws Exception {
        final ApiClient api = service.client();
        for (int i = 0; i < 20; i++) {
            final ApiClient.Answer placed = api.post("/api/v1/orders", ApiClient.limit("acct-" + (i % 2), "m-" + i,
                    "BTCUSD", i % 2 == 0 ? "BUY" : "SELL", "50000.00", "0.5", null));
            assertTrue(placed.status() == 201, placed.body());
        }
        assertEquals(422, api.post("/api/v1/orders", ApiClient.limit("acct-0", "bad", "BTCUSD", "BUY", "50000.005",
                "0.5", null)).status());
        assertEquals(200, api.get("/api/v1/orders/1").status());
        final Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        String text = api.get("/metrics").body();
        while (!MonitoringFiles.exposedSeries(text).contains("jvm_gc_pause_seconds_count")) {
            assertTrue(System.nanoTime() < deadline, "no garbage collection in 60 s: " + jcmd);
            if (Files.isExecutable(jcmd)) {
                final Process gc = new ProcessBuilder(jcmd.toString(), Long.toString(service.pid()), "GC.run")
                        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
                assertTrue(gc.waitFor(30, TimeUnit.SECONDS), "jcmd GC.run did not end");
            } else {
                api.get("/api/v1/orderbook/BTCUSD");   // garbage, until a young collection comes
            }
            Thread.sleep(200);
            text = api.get("/metrics").body();
        }
        // the disk figures are sampled every few seconds: wait for a sample after the orders were journaled
        Thread.sleep(TimeUnit.SECONDS.toMillis(DiskUsage.PERIOD_SECONDS + 1));
        return api.get("/metrics").body();
    }

    private static Map<String, String> oneMemberCluster(final Path dir) throws IOException {
        // no database: the cluster's own figures are the subject, and the single node's rows are in the fixture's
        final Map<String, String> env = new HashMap<>(Map.of("ORDERS_DB_URL", ""));
        final StringBuilder members = new StringBuilder("0");
        for (int endpoint = 0; endpoint < 5; endpoint++) {
            members.append(",127.0.0.1:").append(FreePort.pickForUdp());
        }
        final Path secret = dir.resolve("cluster-secret");
        Files.writeString(secret, "b25lIG1lbWJlciBjbHVzdGVyIG9mIHRoZSBtb25pdG9yaW5nIHRlc3Q=\n");
        Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-------"));
        env.put("ORDERS_CLUSTER_MEMBERS", members.toString());
        env.put("ORDERS_CLUSTER_MEMBER_ID", "0");
        env.put("ORDERS_CLUSTER_SECRET_FILE", secret.toString());
        env.put("ORDERS_CLUSTER_DIR", dir.resolve("cluster").toString());
        env.put("ORDERS_HTTP_INSTANCES", "1");
        return env;
    }
}
