package io.orderentry.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The spool's disk runs out (a real tmpfs), against the real jar: trading goes on with every order answered 201,
 * spooling stops with the reason in {@code /ready}, the metrics and the log, and the database is not written to again
 * before a restart, which rebuilds the spool from the journal and stores every event exactly once (README, "Spool
 * write failures"; docs/persistence.md). Two ways to run out, each pinned by its own test: the spool's own check that
 * a new segment leaves {@code ORDERS_PERSISTENCE_SPOOL_MIN_FREE_BYTES} free, and the kernel's ENOSPC on a write the
 * check had let through (another writer took the space after it). Needs root (mount); skipped with a message
 * elsewhere. Each test gets the fixture's database emptied.
 */
class SpoolDiskFullIT {

    @RegisterExtension
    static final PostgresFixture DB = new PostgresFixture();

    private static final String SEGMENT_BYTES = Integer.toString(1 << 20);   // the smallest segment
    private static final String NOT_ROOT = "needs root to mount a small tmpfs for a real full disk (run the tests as root)";

    @TempDir
    Path dir;
    private Path spool;
    private boolean mounted;

    /**
     * The free-space check: during a database outage the spool grows on a 3 MiB tmpfs with a 1 MiB reserve; it stops
     * when another segment would eat into the reserve, so the kernel never has to refuse it and the reserve is still
     * free for the journal and the audit trail. Persistence reports FAILED at once, although the database is away too
     * (a restart is needed whatever it does). A restart with the database back catches it up from the journal.
     */
    @Test
    void spoolStopsAtItsFreeSpaceReserveBeforeTheDiskIsFullAndARestartCatchesTheDatabaseUp() throws Exception {
        spool = dir.resolve("spool");
        mounted = Tmpfs.mount(spool, "3m");
        assumeTrue(mounted, NOT_ROOT);
        try (FaultyProxy proxy = new FaultyProxy(DB.host(), DB.port())) {
            final Map<String, String> env = new HashMap<>(DB.env());
            env.put("ORDERS_DB_URL", DB.urlVia("127.0.0.1", proxy.port()));
            env.put("ORDERS_JOURNAL_SYNC", "none");
            env.put("ORDERS_PERSISTENCE_RETRY_MAX_MILLIS", "500");
            env.put("ORDERS_PERSISTENCE_SPOOL_SEGMENT_BYTES", SEGMENT_BYTES);
            env.put("ORDERS_PERSISTENCE_SPOOL_MIN_FREE_BYTES", Integer.toString(1 << 20));
            env.put("ORDERS_SNAPSHOT_ENABLED", "false");
            final Set<Long> answered = new HashSet<>();
            try (ServiceProcess first = ServiceProcess.start(dir, env, "first")) {
                final ApiClient api = first.client();
                final MixedOrderLoad load = new MixedOrderLoad(api, 3, 0);
                load.awaitPlaced(200, 30);
                proxy.cut();
                final String failure = awaitSpoolFailure(api, 90);
                assertTrue(failure.contains("would leave less than ORDERS_PERSISTENCE_SPOOL_MIN_FREE_BYTES (1048576)"),
                        "the spool's own check stopped it: " + failure);
                assertFalse(failure.contains("No space left on device"), "not the kernel: " + failure);
                assertTrue(Files.getFileStore(spool).getUsableSpace() >= 1 << 20,
                        "the reserve is still free for the journal and the audit trail");
                // stopped for good although the database is also away: a restart is needed, whatever it does
                final JsonNode database = api.get("/ready").json().get("components").get("database");
                assertEquals("FAILED", database.get("state").asText(), database.toString());
                assertEquals(1.0, api.metric("orders_persistence_failed"), "an alert need not wait for the database");
                final int before = load.placed().size();
                load.awaitPlaced(before + 200, 30);
                load.stop();
                assertEquals(0, load.unexpectedAnswers(), () -> "orders were refused: " + load.someUnexpectedAnswers());
                assertTrue(load.placed().size() >= before + 200, "trading went on after the spool stopped");
                answered.addAll(load.placed().keySet());
                proxy.restore();
                first.terminate();
            }
            // the catch-up replays the whole journal through a spool bounded by the reserve: give it room
            assertTrue(Tmpfs.resize(spool, "64m"), "growing the tmpfs");
            try (ServiceProcess second = ServiceProcess.start(dir, env, "second")) {
                assertAllStoredOnce(second.client(), answered);
            }
        }
    }

    /**
     * The kernel's ENOSPC: the free-space check let the segment start (reserve 0, a 4 MiB tmpfs), then another writer
     * took every free byte, so the spool's next write to the OS fails in the kernel. Trading goes on (201, journal
     * fsync), the failure is in {@code /ready}, {@code orders_persistence_failed} and the log (not swallowed), the
     * database keeps a gapless prefix and stops there; a restart stores every answered order exactly once.
     */
    @Test
    void kernelEnospcOnASpoolWriteStopsSpoolingNotTradingIsReportedAndARestartStoresEveryAnsweredOrderOnce()
            throws Exception {
        afterKernelEnospc((api, load, mark) -> {
            final int before = load.placed().size();
            load.awaitPlaced(before + 200, 60);
            load.stop();
            assertTrue(load.placed().size() >= before + 200, "trading went on after the spool stopped");

            final ApiClient.Answer ready = api.get("/ready");
            assertEquals(200, ready.status(), "order entry does not depend on the spool: " + ready.body());
            final JsonNode parts = ready.json().get("components");
            assertEquals("DOWN", parts.get("persistence").get("status").asText(), ready.body());
            assertTrue(parts.get("persistence").get("spoolFailure").asText().contains("No space left on device"),
                    ready.body());
            assertEquals("FAILED", parts.get("database").get("state").asText(), ready.body());
            assertTrue(parts.get("persistence").get("engineSequence").asLong() > mark,
                    "events after the failure are not in the database yet: " + ready.body());
            assertEquals(1.0, api.metric("orders_persistence_failed"));
            assertEquals(200, api.get("/health").status(), "trading goes on: not a reason to restart the process");
            assertEquals(mark, assertGaplessPrefix(), "the database stays where the spool stopped");
        });
    }

    /**
     * After a spool failure, space that comes back does not restart spooling: it was refused for good (README: "the
     * database is not written to again before a restart"), since the events it missed exist only in the journal.
     * Orders placed after the space was freed are answered 201, but not a byte more is spooled and the database's
     * mark does not move (a silent resume would leave a gap); a restart then stores every event exactly once.
     */
    @Test
    void spoolingStaysStoppedAfterTheDiskHasRoomAgainAndARestartStoresEveryEventExactlyOnce() throws Exception {
        afterKernelEnospc((api, load, mark) -> {
            final long spooled = spoolSegmentBytes();
            Files.delete(spool.resolve("filler"));
            assertTrue(Files.getFileStore(spool).getUsableSpace() >= 2 << 20, "the space is free again");
            final int before = load.placed().size();
            load.awaitPlaced(before + 300, 60);
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);   // a few writer idle cycles too
            while (System.nanoTime() < deadline) {
                final JsonNode parts = api.get("/ready").json().get("components");
                assertTrue(parts.get("persistence").has("spoolFailure"), "spooling stays stopped: " + parts);
                assertEquals("FAILED", parts.get("database").get("state").asText(), parts.toString());
                Thread.sleep(200);
            }
            load.stop();
            assertTrue(load.placed().size() >= before + 300, "orders were taken after the space was freed");
            assertEquals(spooled, spoolSegmentBytes(), "nothing was spooled after the failure");
            assertEquals(mark, assertGaplessPrefix(), "the database did not move past where the spool stopped");
            assertTrue(api.get("/ready").json().get("components").get("persistence").get("engineSequence").asLong()
                    > mark, "the engine went on");
            assertEquals(1.0, api.metric("orders_persistence_failed"));
        });
    }

    /** What a kernel-ENOSPC test checks while the first service runs on after the spool failed; it stops the load. */
    private interface AfterSpoolFailure {
        void check(ApiClient api, MixedOrderLoad load, long mark) throws Exception;
    }

    /**
     * Runs a service on a 4 MiB tmpfs spool under load until a spool write gets the kernel's ENOSPC
     * ({@link #failSpoolWithKernelEnospc}), lets {@code check} look at it, then requires that no order was refused,
     * restarts with room on the disk and requires every answered order in PostgreSQL exactly once.
     */
    private void afterKernelEnospc(final AfterSpoolFailure check) throws Exception {
        spool = dir.resolve("spool");
        mounted = Tmpfs.mount(spool, "4m");
        assumeTrue(mounted, NOT_ROOT);
        final Map<String, String> env = enospcEnv();
        final Set<Long> answered = new HashSet<>();
        try (ServiceProcess first = ServiceProcess.start(dir, env, "first")) {
            final MixedOrderLoad load = new MixedOrderLoad(first.client(), 3, 0);
            final long mark = failSpoolWithKernelEnospc(first, load);
            check.check(first.client(), load, mark);
            assertEquals(0, load.unexpectedAnswers(), () -> "orders were refused: " + load.someUnexpectedAnswers());
            answered.addAll(load.placed().keySet());
            first.terminate();
        }
        assertTrue(Tmpfs.resize(spool, "64m"), "growing the tmpfs (another writer's file may stay)");
        try (ServiceProcess second = ServiceProcess.start(dir, env, "second")) {
            assertAllStoredOnce(second.client(), answered);
        }
    }

    /** Each test starts a fresh journal, so it gets an empty database (the service creates the schema again). */
    @BeforeEach
    void emptyDatabase() throws Exception {
        DB.dropServiceTables();
    }

    @AfterEach
    void unmount() throws Exception {
        if (mounted) {
            Tmpfs.unmount(spool);
        }
    }

    /** The database directly, journal fsync, smallest segments, no free-space reserve: only the kernel refuses. */
    private static Map<String, String> enospcEnv() {
        final Map<String, String> env = new HashMap<>(DB.env());
        env.put("ORDERS_JOURNAL_SYNC", "fsync");
        env.put("ORDERS_PERSISTENCE_SPOOL_SEGMENT_BYTES", SEGMENT_BYTES);
        env.put("ORDERS_PERSISTENCE_SPOOL_MIN_FREE_BYTES", "0");
        env.put("ORDERS_SNAPSHOT_ENABLED", "false");
        return env;
    }

    /**
     * Lets the load spool into a first segment, fills the tmpfs from outside, and waits until spooling stopped on the
     * kernel's ENOSPC (not the free-space check) and the writer stored everything spooled before it.
     *
     * @return the database's high-water mark then
     */
    private long failSpoolWithKernelEnospc(final ServiceProcess service, final MixedOrderLoad load) throws Exception {
        final ApiClient api = service.client();
        assertTrue(load.awaitPlaced(100, 30) >= 100, "orders before the fault");
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (spoolSegmentBytes() == 0 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertTrue(spoolSegmentBytes() > 0, "a segment was started (the free-space check passed)");
        Tmpfs.fill(spool, "filler");
        assertEquals(0, Files.getFileStore(spool).getUsableSpace(), "the other writer took every free byte");

        final String failure = awaitSpoolFailure(api, 60);
        assertTrue(failure.contains("No space left on device"), "the kernel refused the spool's write: " + failure);
        assertFalse(failure.contains("ORDERS_PERSISTENCE_SPOOL_MIN_FREE_BYTES"), "not the free-space check: " + failure);
        assertTrue(failure.startsWith("writing the spool after event") || failure.startsWith("appending event"),
                "a write of spooled events failed: " + failure);
        final String stopped = "persistence: STOPPED, the spool stopped";
        final long stopDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!service.log().contains(stopped) && System.nanoTime() < stopDeadline) {
            Thread.sleep(100);
        }
        final String log = service.log();
        assertTrue(log.contains("No space left on device") && log.contains("are no longer spooled and will reach "
                + "PostgreSQL only after a restart"), "the stage logs the failure with its cause:\n" + log);
        assertTrue(log.contains(stopped), "the writer stored what was spooled, then stopped:\n" + log);
        return assertGaplessPrefix();
    }

    private static String awaitSpoolFailure(final ApiClient api, final int seconds) throws InterruptedException {
        JsonNode ready = api.get("/ready").json();
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!ready.get("components").get("persistence").has("spoolFailure") && System.nanoTime() < deadline) {
            Thread.sleep(100);
            ready = api.get("/ready").json();
        }
        assertTrue(ready.get("components").get("persistence").has("spoolFailure"), "spooling stopped: " + ready);
        return ready.get("components").get("persistence").get("spoolFailure").asText();
    }

    /** @return bytes in the spool's segment files (the filler is not one) */
    private long spoolSegmentBytes() throws IOException {
        long bytes = 0;
        try (Stream<Path> files = Files.list(spool)) {
            for (final Path file : files.filter(f -> f.getFileName().toString().endsWith(".spool")).toList()) {
                bytes += Files.size(file);
            }
        }
        return bytes;
    }

    /** Every event from 1 to the high-water mark, each once; @return the mark */
    private static long assertGaplessPrefix() throws Exception {
        final long mark = DB.number("SELECT last_sequence FROM high_water_mark");
        assertEquals(mark, DB.number("SELECT count(*) FROM order_events"), "events stored once each");
        assertEquals(mark, DB.number("SELECT coalesce(max(sequence), 0) FROM order_events"), "no gap below the mark");
        return mark;
    }

    /** After a restart: the database catches up and holds every event once, every order as the API has it. */
    private static void assertAllStoredOnce(final ApiClient api, final Set<Long> answered) throws Exception {
        DatabaseVersusApi.awaitCaughtUp(api, Duration.ofSeconds(90));
        DatabaseVersusApi.assertSame(api, DB);
        final Set<Long> stored = new HashSet<>();
        for (final List<String> row : DB.rows("SELECT order_id FROM orders")) {
            stored.add(Long.parseLong(row.get(0)));
        }
        for (final long orderId : answered) {
            assertTrue(stored.contains(orderId), "order " + orderId + " answered 201 is in PostgreSQL");
        }
    }
}
