package io.orderentry.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.orderentry.testing.AccountKeys;
import io.orderentry.testing.ApiClient;
import io.orderentry.testing.ApiClient.Answer;
import io.orderentry.testing.OrderLoad;
import io.orderentry.testing.ServiceProcess;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Invariant 1: an answered order is never lost. The real jar takes concurrent orders, is killed with
 * SIGKILL mid-load, and restarts from its journal. Authentication is on, as the service ships: every account that
 * places or reads orders has its own API key, made with the jar's {@code keys create} before the first start.
 */
class CrashRecoveryIT {

    /** The account of the order placed after the restart, whose id must be above every earlier one. */
    private static final String AFTER = "after";

    @TempDir
    Path dir;

    /** Keys for {@code accounts} in the keys file of the service under test. */
    private AccountKeys keys(final List<String> accounts) {
        return AccountKeys.create(dir.resolve("keys"), accounts);
    }

    /** Keys for the accounts of an {@link OrderLoad} of eight clients, and for the order placed after the restart. */
    private AccountKeys loadKeys() {
        final List<String> accounts = new ArrayList<>(OrderLoad.accounts(8));
        accounts.add(AFTER);
        return keys(accounts);
    }

    @Test
    void everyAnsweredOrderSurvivesKill9WithItsFillsAndIdsKeepRising() throws Exception {
        final Map<Long, JsonNode> answered;
        final Map<String, Long> byClientOrderId;
        final AccountKeys keys = loadKeys();
        final Map<String, String> env = keys.env(Map.of("ORDERS_JOURNAL_SYNC", "fsync"));
        try (ServiceProcess first = ServiceProcess.start(dir, env, "first")) {
            final OrderLoad load = OrderLoad.start(first.client(), 8, keys);
            load.awaitAnswered(3000);
            first.kill9();
            load.close();
            answered = load.answered();
            byClientOrderId = load.byClientOrderId();
        }
        assertTrue(answered.size() >= 1000, "too few orders were answered before the kill: " + answered.size());
        try (ServiceProcess second = ServiceProcess.start(dir, env, "second")) {
            assertEquals(401, second.client().get("/api/v1/orders/1").status(), "the service asks for API keys");
            assertAllPresent(keys.clients(second.client()), answered, byClientOrderId);
            assertTrue(second.log().contains("replayed"), second.log());
        }
    }

    @Test
    void kill9WhileSnapshotsAreWrittenUnderLoadLosesNothingAndTheNextStartUsesAWholeOne() throws Exception {
        final AccountKeys keys = loadKeys();
        final Map<String, String> snapshots = keys.env(Map.of("ORDERS_JOURNAL_SYNC", "fsync",
                "ORDERS_SNAPSHOT_EVERY_COMMANDS", "300", "ORDERS_SNAPSHOT_KEEP", "2"));
        final Map<Long, JsonNode> answered;
        final Map<String, Long> byClientOrderId;
        try (ServiceProcess first = ServiceProcess.start(dir, snapshots, "first")) {
            final OrderLoad load = OrderLoad.start(first.client(), 8, keys);
            load.awaitAnswered(1500);
            // killed while the writer follows the load, a snapshot due every 300 commands: often mid-file
            first.kill9();
            load.close();
            answered = load.answered();
            byClientOrderId = load.byClientOrderId();
            assertTrue(first.log().contains("snapshot: wrote"), "snapshots were written under load: " + first.log());
        }
        // a half-written snapshot as a kill leaves it, and a newest one cut short as a failing disk could
        final Path snapshotDir = dir.resolve("snapshots");
        Files.writeString(snapshotDir.resolve("snapshot-00000000000099999999.snap.tmp"), "half");
        final List<Path> files;
        try (Stream<Path> listed = Files.list(snapshotDir)) {
            files = listed.filter(p -> p.toString().endsWith(".snap")).sorted().toList();
        }
        assertTrue(!files.isEmpty(), "a snapshot was written before the kill");
        final Path cut = snapshotDir.resolve("snapshot-00000000000099999998.snap");
        Files.write(cut, Arrays.copyOf(Files.readAllBytes(files.get(files.size() - 1)), 100));
        try (ServiceProcess second = ServiceProcess.start(dir, snapshots, "second")) {
            assertAllPresent(keys.clients(second.client()), answered, byClientOrderId);
            assertTrue(second.log().contains("snapshot-00000000000099999998.snap is skipped"), second.log());
            assertTrue(second.log().contains("recovery: loaded snapshot"), second.log());
            assertTrue(Files.notExists(snapshotDir.resolve("snapshot-00000000000099999999.snap.tmp")),
                    "the half-written file is cleared");
        }
    }

    @Test
    void sigtermUnderLoadDrainsExitsZeroAndLosesNothingAnswered() throws Exception {
        final Map<Long, JsonNode> answered;
        final Map<String, Long> byClientOrderId;
        final AccountKeys keys = loadKeys();
        final Map<String, String> env = keys.env(Map.of("ORDERS_JOURNAL_SYNC", "fsync"));
        try (ServiceProcess first = ServiceProcess.start(dir, env, "first")) {
            final OrderLoad load = OrderLoad.start(first.client(), 8, keys);
            load.awaitAnswered(2000);
            assertEquals(0, first.terminate(), first.log());
            load.close();
            answered = load.answered();
            byClientOrderId = load.byClientOrderId();
            assertTrue(first.log().contains("drained"), first.log());
        }
        try (ServiceProcess second = ServiceProcess.start(dir, keys.env(), "second")) {
            assertAllPresent(keys.clients(second.client()), answered, byClientOrderId);
        }
    }

    /** Every answered order is there as answered (or traded further), retries find it, new ids are higher. */
    @Test
    void sigtermDuringTheReplayStopsCleanlyWithStatus0AndTheNextStartReplaysEveryRecord() throws Exception {
        io.orderentry.bench.snapshot.HistoryGenerator.main(new String[] {dir.resolve("journal").toString(), "100000",
                "3000000"});
        // The test processes get 512 MiB; with the default retention (1,000,000 final orders, and as many kept for
        // retries) this history's replay needs all of it (502 MiB live after the replay, measured), so one more
        // field per order ran it out of memory. Its subject is stopping during a replay, not the heap.
        final Map<String, String> env = keys(List.of()).env(Map.of("ORDERS_SNAPSHOT_ENABLED", "false",
                "ORDERS_QUERY_RETAINED_FINAL_ORDERS", "200000", "ORDERS_ENGINE_DEDUP_WINDOW", "200000"));
        try (ServiceProcess first = ServiceProcess.launch(dir, env, "first")) {
            final long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
            while (!first.log().contains("recovery: replaying the journal") && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            Thread.sleep(300);
            assertTrue(!first.log().contains("recovery: replayed"), "still replaying when stopped: " + first.log());
            assertEquals(0, first.terminate(), first.log());
            assertTrue(first.log().contains("stopping during recovery"), first.log());
            assertTrue(first.log().contains("stopped"), first.log());
            assertTrue(!first.log().contains("startup failed"), first.log());
        }
        try (ServiceProcess second = ServiceProcess.launch(dir, env, "second")) {
            second.awaitReady(java.time.Duration.ofSeconds(120));
            assertTrue(second.log().contains("recovery: replayed 3000000 records"), second.log());
        }
    }

    @Test
    void aConfigurationTheJournalRefusesExitsWithStatus2() throws Exception {
        final AccountKeys keys = keys(List.of("a"));
        try (ServiceProcess first = ServiceProcess.start(dir, keys.env(), "first")) {
            assertEquals(201, first.client().withKey(keys.secret("a")).post("/api/v1/orders",
                    ApiClient.limit("a", null, "BTCUSD", "BUY", "10.00", "1", null)).status());
            assertEquals(0, first.terminate(), "a graceful stop exits with 0");
        }
        final ServiceProcess refused = ServiceProcess.launch(dir,
                keys.env(Map.of("ORDERS_INSTRUMENTS", "BTCUSD:0.01:0.001,ETHUSD:0.01:0.001")), "refused");
        assertEquals(2, refused.awaitExit(Duration.ofSeconds(60)), refused.log());
        assertTrue(refused.log().contains("BTCUSD lot size was 0.0001 when the journal was written"), refused.log());
    }

    /** @param clientOf the client of each account, sending its key */
    private static void assertAllPresent(final Function<String, ApiClient> clientOf, final Map<Long, JsonNode> answered,
                                         final Map<String, Long> byClientOrderId) {
        long maxId = 0;
        for (final JsonNode before : answered.values()) {
            final long id = before.get("orderId").asLong();
            maxId = Math.max(maxId, id);
            final Answer now = clientOf.apply(before.get("accountId").asText()).get("/api/v1/orders/" + id);
            assertEquals(200, now.status(), "order " + id + " answered before the stop is gone");
            OrderLoad.assertSameOrSuccessor(before, now.json());
        }
        for (final Map.Entry<String, Long> retry : byClientOrderId.entrySet().stream().limit(50).toList()) {
            final JsonNode original = answered.get(retry.getValue());
            final Answer again = clientOf.apply(original.get("accountId").asText()).post("/api/v1/orders",
                    OrderLoad.retryBody(original));
            assertEquals(200, again.status(), again.body());
            assertEquals(retry.getValue().longValue(), again.json().get("orderId").asLong(),
                    "a retry after restart must find the original order");
        }
        final Answer fresh = clientOf.apply(AFTER).post("/api/v1/orders",
                ApiClient.limit(AFTER, null, "BTCUSD", "BUY", "1.00", "1", null));
        assertEquals(201, fresh.status());
        assertTrue(fresh.json().get("orderId").asLong() > maxId, "ids must keep rising after a restart");
    }

    @Test
    void tornTailIsCutWithAWarningAndTheServiceStarts() throws Exception {
        final long lastId;
        final AccountKeys keys = keys(List.of("a"));
        try (ServiceProcess first = ServiceProcess.start(dir, keys.env(), "first")) {
            final ApiClient a = first.client().withKey(keys.secret("a"));
            for (int i = 0; i < 20; i++) {
                assertEquals(201, a.post("/api/v1/orders",
                        ApiClient.limit("a", "t-" + i, "BTCUSD", "BUY", "10" + i + ".00", "1", null)).status());
            }
            lastId = a.get("/api/v1/orders?accountId=a").json().get(19).get("orderId").asLong();
            first.kill9();
        }
        final Path segment = lastSegment();
        final long goodLength = Files.size(segment);
        try (RandomAccessFile file = new RandomAccessFile(segment.toFile(), "rw")) {
            file.seek(goodLength);
            file.write(new byte[] {60, 0, 0, 0, 1, 2, 3});
        }
        try (ServiceProcess second = ServiceProcess.start(dir, keys.env(), "second")) {
            final ApiClient a = second.client().withKey(keys.secret("a"));
            assertTrue(second.log().contains("torn"), second.log());
            assertEquals(goodLength, Files.size(segment), "the torn bytes must be cut");
            assertEquals(200, a.get("/api/v1/orders/" + lastId).status());
            assertEquals(20, a.get("/api/v1/orders?accountId=a").json().size());
        }
    }

    @Test
    void corruptionInTheMiddleStopsStartupNamingFileAndOffset() throws Exception {
        // No snapshot: a start reads only the records after its snapshot, so damage before it would go unread.
        final AccountKeys keys = keys(List.of("a"));
        try (ServiceProcess first = ServiceProcess.start(dir, keys.env(Map.of("ORDERS_SNAPSHOT_ON_SHUTDOWN", "false")),
                "first")) {
            final ApiClient a = first.client().withKey(keys.secret("a"));
            for (int i = 0; i < 50; i++) {
                assertEquals(201, a.post("/api/v1/orders",
                        ApiClient.limit("a", null, "BTCUSD", "BUY", "1" + i + ".00", "1", null)).status());
            }
            first.terminate();
        }
        final Path segment = lastSegment();
        final long middle = Files.size(segment) / 2;
        try (RandomAccessFile file = new RandomAccessFile(segment.toFile(), "rw")) {
            file.seek(middle);
            final int b = file.read();
            file.seek(middle);
            file.write(b ^ 0x5A);
        }
        final ServiceProcess second = ServiceProcess.launch(dir, keys.env(), "second");
        final int exit = second.awaitExit(Duration.ofSeconds(60));
        assertNotEquals(0, exit, second.log());
        assertTrue(second.log().contains(segment.getFileName().toString()), second.log());
        assertTrue(second.log().contains("offset"), second.log());
    }

    private Path lastSegment() throws IOException {
        try (Stream<Path> files = Files.list(dir.resolve("journal"))) {
            final List<Path> segments = files.filter(f -> f.getFileName().toString().endsWith(".journal")).sorted().toList();
            return segments.get(segments.size() - 1);
        }
    }
}
