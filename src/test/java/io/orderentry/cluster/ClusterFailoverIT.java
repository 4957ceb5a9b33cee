package io.orderentry.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import io.orderentry.audit.AuditVerification;
import io.orderentry.audit.AuditVerifier;
import io.orderentry.testing.ApiClient;
import io.orderentry.testing.DatabaseVersusApi;
import io.orderentry.testing.FreePort;
import io.orderentry.testing.PostgresFixture;
import io.orderentry.testing.ServiceProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Three members of a cluster as child processes of the real jar, on loopback: every member serves HTTP and answers
 * with the engine's real outcome once the command is committed; the leader killed with SIGKILL mid-load loses no
 * answered order; the killed member rejoins and catches up; a majority down answers 503, never 201.
 *
 * <p>The tests share one cluster and run in order, each leaving all three members running for the next (three JVMs,
 * each with its Aeron media driver, archive and consensus module, are what this two-core machine can start once).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterFailoverIT {

    /** One database for the three members: the leader writes it, the others follow its high-water mark. */
    @RegisterExtension
    static final PostgresFixture DB = new PostgresFixture();

    private static final int MEMBERS = 3;
    private static final Duration START = Duration.ofSeconds(120);

    @TempDir
    static Path work;

    private String members;
    private Path secretFile;
    private final ServiceProcess[] nodes = new ServiceProcess[MEMBERS];

    @BeforeAll
    void startCluster() {
        final StringBuilder list = new StringBuilder();
        for (int id = 0; id < MEMBERS; id++) {
            if (id > 0) {
                list.append('|');
            }
            list.append(id);
            for (int endpoint = 0; endpoint < 5; endpoint++) {
                list.append(",127.0.0.1:").append(FreePort.pickForUdp());
            }
        }
        members = list.toString();
        // the secret the members share (required in cluster mode): one file, owner-only
        secretFile = work.resolve("cluster-secret");
        try {
            Files.writeString(secretFile, "c2VjcmV0IG9mIHRoZSBmYWlsb3ZlciB0ZXN0J3MgbWVtYmVycw==\n");
            Files.setPosixFilePermissions(secretFile,
                    java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        } catch (final java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        for (int id = 0; id < MEMBERS; id++) {
            nodes[id] = launch(id);
        }
        for (final ServiceProcess node : nodes) {
            node.awaitReady(START);
        }
    }

    @AfterAll
    void stopCluster() {
        for (final ServiceProcess node : nodes) {
            if (node != null) {
                node.close();
            }
        }
    }

    /** One client per member process: each {@code ApiClient} has an HttpClient, its selector thread and connections. */
    private final Map<ServiceProcess, ApiClient> clients = new ConcurrentHashMap<>();

    private ApiClient api(final ServiceProcess node) {
        return clients.computeIfAbsent(node, ServiceProcess::client);
    }

    private ServiceProcess launch(final int id) {
        final Path dir = work.resolve("member-" + id);
        final Map<String, String> env = new HashMap<>(DB.env());
        env.put("ORDERS_CLUSTER_MEMBERS", members);
        env.put("ORDERS_CLUSTER_MEMBER_ID", Integer.toString(id));
        env.put("ORDERS_CLUSTER_SECRET_FILE", secretFile.toString());
        env.put("ORDERS_CLUSTER_DIR", dir.resolve("cluster").toString());
        // the service's own leader and answer timeouts: the failover below is timed with the defaults users get
        env.put("ORDERS_JOURNAL_DIR", dir.resolve("journal").toString());
        env.put("ORDERS_AUDIT_DIR", dir.resolve("audit").toString());
        env.put("ORDERS_HTTP_INSTANCES", "1");
        // a snapshot every 500 commands: the load of the tests takes several, the restarts load them
        env.put("ORDERS_SNAPSHOT_EVERY_COMMANDS", "500");
        // 64 KiB segments (and log terms): the log is purged every few hundred commands, so every failover and restart
        // above happens on logs whose beginning is gone
        env.put("ORDERS_CLUSTER_SEGMENT_BYTES", "65536");
        try {
            java.nio.file.Files.createDirectories(dir);
        } catch (final java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return ServiceProcess.launch(dir, env, "member-" + id);
    }

    private int leader() {
        final long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            for (int id = 0; id < MEMBERS; id++) {
                try {
                    if (nodes[id] != null && api(nodes[id]).metric("orders_cluster_leader") == 1) {
                        return id;
                    }
                } catch (final RuntimeException | AssertionError notNow) {
                    // down, or not started yet
                }
            }
            sleep(100);
        }
        throw new AssertionError("no member says it leads");
    }

    @Test
    @Order(1)
    void anOrderPlacedOnAnyMemberIsAnsweredWithTheEnginesOutcomeAndSeenByEveryMember() {
        final ApiClient first = api(nodes[0]);
        final ApiClient second = api(nodes[1]);
        final ApiClient.Answer resting = first.post("/api/v1/orders", ApiClient.limit("maker", "c1-rest", "BTCUSD",
                "SELL", "50000.00", "0.0100", null));
        assertEquals(201, resting.status(), resting.body());
        assertEquals("NEW", resting.json().get("status").asText());
        final ApiClient.Answer taking = second.post("/api/v1/orders", ApiClient.limit("taker", "c1-take", "BTCUSD",
                "BUY", "50000.00", "0.0040", null));
        assertEquals(201, taking.status(), taking.body());
        assertEquals("FILLED", taking.json().get("status").asText(), taking.body());
        final long makerId = resting.json().get("orderId").asLong();
        assertTrue(taking.json().get("orderId").asLong() > makerId, "ids increase across members");
        for (final ServiceProcess node : nodes) {
            final JsonNode maker = awaitOrder(api(node), makerId, "PARTIALLY_FILLED");
            assertEquals("0.0040", maker.get("filledQuantity").asText(), maker.toString());
        }
        // a retry by clientOrderId on another member is the same order, not a second one
        final ApiClient.Answer retried = api(nodes[2]).post("/api/v1/orders", ApiClient.limit("maker", "c1-rest",
                "BTCUSD", "SELL", "50000.00", "0.0100", null));
        assertEquals(makerId, retried.json().get("orderId").asLong(), retried.body());
        assertTrue(retried.status() == 200 || retried.status() == 201, retried.body());
    }

    @Test
    @Order(2)
    void killingTheLeaderMidLoadLosesNoAnsweredOrderAndTheKilledMemberCatchesUp() throws Exception {
        final int leader = leader();
        final AtomicBoolean running = new AtomicBoolean(true);
        final Map<String, Long> acknowledged = new ConcurrentHashMap<>();   // clientOrderId -> orderId
        final ConcurrentLinkedQueue<long[]> answers = new ConcurrentLinkedQueue<>();   // {sent, answered, orderId}
        final AtomicInteger unavailable = new AtomicInteger();
        final AtomicInteger outcomeUnknown = new AtomicInteger();
        final AtomicInteger wrong = new AtomicInteger();
        final List<Thread> clients = new ArrayList<>();
        for (int t = 0; t < MEMBERS; t++) {
            final int target = t;
            if (target == leader) {
                continue;   // the clients of the killed member would only see refused connections
            }
            final Thread client = new Thread(() -> {
                final ApiClient api = api(nodes[target]);
                int n = 0;
                while (running.get()) {
                    final String clientOrderId = "f" + target + "-" + n++;
                    final String side = n % 2 == 0 ? "BUY" : "SELL";
                    final String price = side.equals("BUY") ? "49990.00" : "50010.00";
                    try {
                        final long sent = System.nanoTime();
                        final ApiClient.Answer answer = api.post("/api/v1/orders", ApiClient.limit("acct-" + target,
                                clientOrderId, "BTCUSD", side, price, "0.0010", null));
                        if (answer.status() == 201) {
                            final long orderId = answer.json().get("orderId").asLong();
                            acknowledged.put(clientOrderId, orderId);
                            answers.add(new long[] {sent, System.nanoTime(), orderId});
                        } else if (answer.status() == 503) {
                            if (answer.header("Retry-After") == null) {
                                wrong.incrementAndGet();
                            }
                            if (answer.body().contains("OUTCOME_UNKNOWN")) {
                                outcomeUnknown.incrementAndGet();
                            }
                            unavailable.incrementAndGet();
                            sleep(50);
                        } else {
                            wrong.incrementAndGet();
                        }
                    } catch (final RuntimeException e) {
                        sleep(50);
                    }
                }
            });
            client.start();
            clients.add(client);
        }
        sleep(3000);
        // the restarted leader must load a snapshot: the load goes on until a periodic one was taken (500 commands)
        final long snapshotBy = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!nodes[(leader + 1) % MEMBERS].log().contains("wrote the cluster's snapshot")
                && System.nanoTime() < snapshotBy) {
            sleep(200);
        }
        final long beforeKill = maxOrderId(answers);
        final long killedAt = System.nanoTime();
        nodes[leader].kill9();
        // availability again: the first 201 to a request sent after the kill, which only a new leader can commit
        long firstAfter = 0;
        final long deadline = killedAt + Duration.ofSeconds(60).toNanos();
        while (firstAfter == 0 && System.nanoTime() < deadline) {
            for (final long[] answer : answers) {
                if (answer[0] > killedAt) {
                    firstAfter = firstAfter == 0 ? answer[1] : Math.min(firstAfter, answer[1]);
                }
            }
            sleep(20);
        }
        assertTrue(firstAfter > 0, "no order sent after the leader's kill was answered within 60 s");
        System.out.printf("cluster failover: leader %d killed; the first order sent after it was answered 201 %d ms"
                + " after the kill%n", leader, (firstAfter - killedAt) / 1_000_000);
        // issue 34: under 2 s by default on this machine (bench/cluster.sh failover, median of 5); the bound here is
        // generous, for a loaded CI machine, but far below the 4.5 s the former defaults took
        assertTrue(firstAfter - killedAt < Duration.ofSeconds(4).toNanos(), "the first 201 after the kill came "
                + (firstAfter - killedAt) / 1_000_000 + " ms after it");
        for (final long[] answer : answers) {
            if (answer[0] > killedAt) {
                assertTrue(answer[2] > beforeKill, "ids keep increasing across the failover: " + answer[2]
                        + " after " + beforeKill);
            }
        }
        sleep(2000);
        running.set(false);
        for (final Thread client : clients) {
            client.join();
        }
        assertEquals(0, wrong.get(), "answers other than 201 and 503 with Retry-After");
        assertEquals(0, outcomeUnknown.get(), "a failover answers only 503s that say the order was not executed, never"
                + " one that leaves the client unsure whether it may resend");
        assertFalse(acknowledged.isEmpty());
        assertTheFailoverWasLoggedAsAnExpectedEventNotAsAnError(leader);

        assertTrue(nodes[(leader + 1) % MEMBERS].log().contains("wrote the cluster's snapshot"),
                "the load took more than 500 commands: a periodic snapshot");
        nodes[leader] = launch(leader);
        nodes[leader].awaitReady(START);
        for (int id = 0; id < MEMBERS; id++) {
            final ApiClient api = api(nodes[id]);
            for (final Map.Entry<String, Long> order : acknowledged.entrySet()) {
                final JsonNode state = awaitOrder(api, order.getValue(), null);
                assertEquals(order.getKey(), state.get("clientOrderId").asText(), state.toString());
            }
        }
        assertSameOrders(acknowledged);
        assertTheDatabaseMatchesTheApiAndOnlyTheLeaderWritesIt();
        assertEveryMembersAuditTrailHoldsEveryCommandOfTheLogOnce(acknowledged.size());
    }

    /**
     * Issue 34: every member's trail, the restarted leader's too, is intact and holds every command of the log once
     * (audit-verify's completeness check), from the log's first command to the same last one on every member.
     */
    private void assertEveryMembersAuditTrailHoldsEveryCommandOfTheLogOnce(final int answered) throws Exception {
        final long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (true) {
            final AuditVerification[] trails = new AuditVerification[MEMBERS];
            for (int id = 0; id < MEMBERS; id++) {
                trails[id] = AuditVerifier.verify(work.resolve("member-" + id).resolve("audit"));
                assertTrue(trails[id].intact(), "member " + id + ": " + trails[id].summary());
                assertTrue(trails[id].complete(), "member " + id + ": " + trails[id].summary());
                assertEquals(1, trails[id].firstCommand(), "member " + id + ": " + trails[id].summary());
            }
            final boolean same = trails[0].lastCommand() == trails[1].lastCommand()
                    && trails[1].lastCommand() == trails[2].lastCommand();
            if (same || System.nanoTime() > deadline) {
                assertTrue(same, "every member's trail ends at the log's last command: "
                        + trails[0].summary() + " | " + trails[1].summary() + " | " + trails[2].summary());
                assertTrue(trails[0].lastCommand() >= answered, "the log holds at least the " + answered
                        + " orders answered 201: " + trails[0].summary());
                return;
            }
            sleep(200);
        }
    }

    /**
     * Issue 34: operators alert on ERROR, and a failover is not one. The survivors say at WARN, without a stack trace,
     * that the leader's heartbeat timed out, and log none of Aeron's consensus events at ERROR.
     */
    private void assertTheFailoverWasLoggedAsAnExpectedEventNotAsAnError(final int killed) {
        boolean timeoutLogged = false;
        for (int id = 0; id < MEMBERS; id++) {
            if (id == killed) {
                continue;
            }
            final List<String> lines = nodes[id].log().lines().toList();
            for (final String line : lines) {
                assertFalse(line.contains(" ERROR ") && line.contains("ClusterEvent"),
                        "member " + id + " logged a consensus event as an error: " + line);
                assertFalse(line.startsWith("io.aeron.cluster.client.ClusterEvent"),
                        "member " + id + " logged a consensus event's stack trace: " + line);
            }
            timeoutLogged |= lines.stream().anyMatch(l -> l.contains(" WARN ")
                    && l.contains("cluster: leader heartbeat timeout"));
        }
        assertTrue(timeoutLogged, "a survivor says at WARN that the leader's heartbeat timed out");
    }

    @Test
    @Order(3)
    void aRollingRestartUnderLoadLosesNothingAndAnswersNothingTwice() throws Exception {
        final AtomicBoolean running = new AtomicBoolean(true);
        final Map<String, Long> acknowledged = new ConcurrentHashMap<>();   // clientOrderId -> orderId
        final AtomicInteger twice = new AtomicInteger();
        final AtomicInteger wrong = new AtomicInteger();
        final ConcurrentLinkedQueue<String> wrongAnswers = new ConcurrentLinkedQueue<>();
        final List<Thread> clients = new ArrayList<>();
        for (int t = 0; t < 2; t++) {
            final int thread = t;
            final Thread client = new Thread(() -> {
                int n = 0;
                while (running.get()) {
                    final int target = n % MEMBERS;
                    final String clientOrderId = "r" + thread + "-" + n++;
                    final ServiceProcess node = nodes[target];
                    try {
                        final ApiClient.Answer answer = api(node).post("/api/v1/orders", ApiClient.limit(
                                "roll-" + thread, clientOrderId, "ETHUSD", n % 2 == 0 ? "BUY" : "SELL",
                                n % 2 == 0 ? "2900.00" : "3100.00", "0.010", null));
                        if (answer.status() == 201) {
                            if (acknowledged.put(clientOrderId, answer.json().get("orderId").asLong()) != null) {
                                twice.incrementAndGet();
                            }
                        } else if (answer.status() != 503 || answer.header("Retry-After") == null) {
                            if (wrong.incrementAndGet() <= 5) {
                                wrongAnswers.add(answer.status() + " " + answer.body());
                            }
                        }
                    } catch (final RuntimeException downOrStopping) {
                        sleep(20);
                    }
                }
            });
            client.start();
            clients.add(client);
        }
        for (int id = 0; id < MEMBERS; id++) {
            sleep(1500);
            assertEquals(0, nodes[id].terminate(), "a graceful stop exits 0:\n" + nodes[id].log());
            nodes[id] = launch(id);
            nodes[id].awaitReady(START);
        }
        sleep(1500);
        running.set(false);
        for (final Thread client : clients) {
            client.join();
        }
        assertEquals(0, wrong.get(), "answers other than 201 and 503 with Retry-After: " + wrongAnswers);
        assertEquals(0, twice.get(), "a clientOrderId answered 201 twice");
        assertTrue(acknowledged.size() > 10, "too few orders went through: " + acknowledged.size());
        final java.util.Set<Long> distinct = new java.util.HashSet<>(acknowledged.values());
        assertEquals(acknowledged.size(), distinct.size(), "two requests answered with the same order");
        for (int id = 0; id < MEMBERS; id++) {
            for (final Map.Entry<String, Long> order : acknowledged.entrySet()) {
                final JsonNode state = awaitOrder(api(nodes[id]), order.getValue(), null);
                assertEquals(order.getKey(), state.get("clientOrderId").asText(), state.toString());
            }
        }
        assertSameOrders(acknowledged);
        assertTheDatabaseMatchesTheApiAndOnlyTheLeaderWritesIt();
        assertEveryMembersAuditTrailHoldsEveryCommandOfTheLogOnce(acknowledged.size());
    }

    @Test
    @Order(4)
    void aMemberRestartedAfterAClusterSnapshotLoadsItAndReplaysOnlyTheLogAfterIt() throws Exception {
        final int leader = leader();
        final ApiClient api = api(nodes[leader]);
        final ApiClient.Answer before = api.post("/api/v1/orders", ApiClient.limit("snap", "s-1", "BTCUSD", "SELL",
                "50500.00", "0.0100", null));
        assertEquals(201, before.status(), before.body());
        final ApiClient.Answer snapshot = api.post("/admin/snapshot", "");
        assertEquals(200, snapshot.status(), snapshot.body());
        final ApiClient.Answer notLeader = api(nodes[(leader + 1) % MEMBERS]).post("/admin/snapshot", "");
        assertEquals(409, notLeader.status(), notLeader.body());
        final ApiClient.Answer after = api.post("/api/v1/orders", ApiClient.limit("snap", "s-2", "BTCUSD", "BUY",
                "50500.00", "0.0040", null));
        assertEquals(201, after.status(), after.body());
        assertEquals("FILLED", after.json().get("status").asText(), after.body());

        final int follower = (leader + 1) % MEMBERS;
        // every member takes the snapshot at the same log position, each in its own time
        final long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!nodes[follower].log().contains("wrote the cluster's snapshot") && System.nanoTime() < deadline) {
            sleep(100);
        }
        assertTrue(nodes[follower].log().contains("wrote the cluster's snapshot"), nodes[follower].log());
        sleep(2000);   // and Aeron records that it has it (in the recording log, after the service sent it)
        nodes[follower].kill9();
        nodes[follower] = launch(follower);
        nodes[follower].awaitReady(START);
        assertTrue(nodes[follower].log().contains("loaded the cluster's snapshot"), nodes[follower].log());
        // s-1 came before the snapshot, s-2 (which traded with the book) after it: the restarted member has both, in
        // the same state as the members that never stopped
        final long afterId = after.json().get("orderId").asLong();
        assertEquals("FILLED", awaitOrder(api(nodes[follower]), afterId, null).get("status").asText());
        assertSameOrders(Map.of("s-1", before.json().get("orderId").asLong(), "s-2", afterId));
        // its trail neither lacks nor repeats the commands between the snapshot and where it had audited to
        assertEveryMembersAuditTrailHoldsEveryCommandOfTheLogOnce(2);
    }

    @Test
    @Order(5)
    void withOneFollowerDownTradingGoesOnAndWithAMajorityDownNothingIsAnswered201() {
        final int leader = leader();
        final int follower = (leader + 1) % MEMBERS;
        final int other = (leader + 2) % MEMBERS;
        nodes[follower].kill9();
        final ApiClient.Answer stillTrading = api(nodes[leader]).post("/api/v1/orders", ApiClient.limit("min",
                "m-1", "ETHUSD", "BUY", "2990.00", "0.100", null));
        assertEquals(201, stillTrading.status(), stillTrading.body());
        final ApiClient.Answer viaFollower = api(nodes[other]).post("/api/v1/orders", ApiClient.limit("min",
                "m-2", "ETHUSD", "BUY", "2990.00", "0.100", null));
        assertEquals(201, viaFollower.status(), viaFollower.body());

        nodes[other].kill9();
        for (int i = 0; i < 5; i++) {
            final ApiClient.Answer answer = api(nodes[leader]).post("/api/v1/orders", ApiClient.limit("min",
                    "m-lost-" + i, "ETHUSD", "BUY", "2990.00", "0.100", null));
            assertEquals(503, answer.status(), "a leader without a majority must not answer 201: " + answer.body());
            assertNotNull(answer.header("Retry-After"), answer.body());
        }
        nodes[follower] = launch(follower);
        nodes[other] = launch(other);
        for (final ServiceProcess node : nodes) {
            node.awaitReady(START);
        }
    }

    @Test
    @Order(6)
    void theLogIsPurgedOnlyWhereNoMemberNeedsItAndAMemberWithoutItIsRebuiltFromACopy() throws Exception {
        // the load of the tests above took many snapshots: every member deleted the beginning of its log
        for (int id = 0; id < MEMBERS; id++) {
            final int member = id;
            awaitMetric(member, "orders_cluster_log_start_position", start -> start > 0);
            final double floor = api(nodes[member]).metric("orders_cluster_log_floor");
            assertTrue(api(nodes[member]).metric("orders_cluster_log_start_position") <= floor,
                    "member " + member + " deleted log some member needs (floor " + floor + ")");
            assertEquals(0, api(nodes[member]).metric("orders_cluster_log_purge_failures_total"), "member " + member);
        }
        // a member that is down holds the purge back: the others keep the log it will need
        final int leader = leader();
        final int down = (leader + 1) % MEMBERS;
        final int other = (leader + 2) % MEMBERS;
        nodes[down].kill9();
        final double floor = api(nodes[leader]).metric("orders_cluster_log_floor");
        final double snapshotsDeleted = api(nodes[leader]).metric("orders_cluster_snapshots_purged_total");
        final Map<String, Long> placed = place(nodes[leader], "held", 1500);   // three snapshots while it is down
        sleep(3 * LogPurger.CHECK_MILLIS);
        for (final int up : new int[] {leader, other}) {
            assertEquals(floor, api(nodes[up]).metric("orders_cluster_log_floor"), "member " + up);
            assertTrue(api(nodes[up]).metric("orders_cluster_log_start_position") <= floor, "member " + up);
        }
        // a member's own old snapshots go all the same: no other member uses them
        assertTrue(api(nodes[leader]).metric("orders_cluster_snapshots_purged_total") > snapshotsDeleted);
        nodes[down] = launch(down);
        nodes[down].awaitReady(START);
        awaitMetric(leader, "orders_cluster_log_floor", moved -> moved > floor);
        assertSameOrders(placed);

        // a member whose directory is lost cannot get the purged log from the others: it says so and is not ready
        nodes[down].kill9();
        final Path lost = work.resolve("member-" + down).resolve("cluster");
        deleteTree(lost);
        nodes[down] = launch(down);
        final long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        ApiClient.Answer ready = null;
        while ((ready == null || !ready.body().contains("purged")) && System.nanoTime() < deadline) {
            sleep(500);
            try {
                ready = api(nodes[down]).get("/ready");
            } catch (final RuntimeException notListeningYet) {
                // its HTTP port opens once its client reaches the leader
            }
        }
        assertNotNull(ready, "the member never answered /ready");
        assertEquals(503, ready.status(), ready.body());
        assertTrue(ready.body().contains("rebuild its directory from a copy"), ready.body());
        nodes[down].kill9();

        // rebuilt from a copy of a stopped member's directory, it loads that member's snapshot and catches up
        assertEquals(0, nodes[other].terminate(), "a SIGTERM stops a member cleanly");
        deleteTree(lost);
        copyTree(work.resolve("member-" + other).resolve("cluster"), lost);
        Files.deleteIfExists(lost.resolve("member.lock"));
        nodes[other] = launch(other);
        nodes[down] = launch(down);
        nodes[other].awaitReady(START);
        nodes[down].awaitReady(START);
        final Map<String, Long> after = place(nodes[leader()], "rebuilt", 50);
        after.putAll(placed);
        assertSameOrders(after);
    }

    @Test
    @Order(7)
    void aSwitchArmedOnOneMemberAndRefreshedOnTheOthersHoldsAndFiresOnceClusterWideWhenTheRefreshesStop() {
        final int leader = leader();
        final int armedOn = (leader + 1) % MEMBERS;
        final long resting = placeResting(armedOn, "dms-1");
        final long kept = placeResting(armedOn, "dms-2");
        final double firedBefore = api(nodes[0]).metric("orders_dead_mans_switch_fired_total");
        arm(armedOn, "dms", 2);
        // 4 s of refreshes, every 0.5 s, on the two other members: a per-member switch would fire on armedOn at 2 s
        for (int i = 0; i < 8; i++) {
            arm((armedOn + 1 + i % 2) % MEMBERS, "dms", 2);
            sleep(500);
        }
        for (int id = 0; id < MEMBERS; id++) {
            assertEquals("NEW", awaitOrder(api(nodes[id]), resting, null).get("status").asText(), "member " + id);
            assertEquals(1, api(nodes[id]).metric("orders_dead_mans_switch_armed"), "member " + id);
        }
        // the refreshes stop: the switch fires once, and every member cancels the account's orders
        for (int id = 0; id < MEMBERS; id++) {
            awaitOrder(api(nodes[id]), resting, "CANCELED");
            awaitOrder(api(nodes[id]), kept, "CANCELED");
        }
        sleep(1000);
        for (int id = 0; id < MEMBERS; id++) {
            assertEquals(firedBefore + 1, api(nodes[id]).metric("orders_dead_mans_switch_fired_total"),
                    "member " + id + ": one cancel-all for the whole cluster");
            assertEquals(0, api(nodes[id]).metric("orders_dead_mans_switch_armed"), "member " + id);
        }
        // a disarm on another member disarms the cluster's switch
        final long survivor = placeResting(armedOn, "dms-3");
        arm(armedOn, "dms", 1);
        arm((armedOn + 2) % MEMBERS, "dms", 0);
        sleep(2500);
        for (int id = 0; id < MEMBERS; id++) {
            assertEquals("NEW", awaitOrder(api(nodes[id]), survivor, null).get("status").asText(), "member " + id);
            assertEquals(firedBefore + 1, api(nodes[id]).metric("orders_dead_mans_switch_fired_total"));
        }
    }

    @Test
    @Order(8)
    void aSwitchArmedBeforeTheLeaderDiesFiresFromTheNewLeaderAndEveryMembersAuditHoldsItsCancelAll() throws Exception {
        final int leader = leader();
        final int armedOn = (leader + 1) % MEMBERS;
        final long resting = placeResting(armedOn, "dms-4");
        arm(armedOn, "dms", 3);
        nodes[leader].kill9();
        // nobody refreshes it: the timer the dead leader held is the new leader's, and it fires there
        for (int id = 0; id < MEMBERS; id++) {
            if (id != leader) {
                awaitOrder(api(nodes[id]), resting, "CANCELED");
            }
        }
        final int newLeader = leader();
        assertTrue(newLeader != leader, "a survivor leads");
        nodes[leader] = launch(leader);
        nodes[leader].awaitReady(START);
        assertEquals("CANCELED", awaitOrder(api(nodes[leader]), resting, "CANCELED").get("status").asText(),
                "the restarted member replays the cancel-all the timer made");
        assertEveryMembersAuditTrailHoldsEveryCommandOfTheLogOnce(1);
    }

    /** @return the id of a resting order of account {@code dms} placed on member {@code member} */
    private long placeResting(final int member, final String clientOrderId) {
        final ApiClient.Answer placed = api(nodes[member]).post("/api/v1/orders", ApiClient.limit("dms",
                clientOrderId, "ETHUSD", "BUY", "2900.00", "0.100", null));
        assertEquals(201, placed.status(), placed.body());
        return placed.json().get("orderId").asLong();
    }

    /** Arms (0: disarms) the account's switch on {@code member}, retrying a 503 (arming twice is the same). */
    private void arm(final int member, final String account, final int timeoutSeconds) {
        ApiClient.Answer answer = null;
        for (int attempt = 0; attempt < 20; attempt++) {
            answer = api(nodes[member]).post("/api/v1/cancel-all-after", "{\"accountId\":\"" + account
                    + "\",\"timeoutSeconds\":" + timeoutSeconds + "}");
            if (answer.status() != 503) {
                break;
            }
            sleep(100);
        }
        assertEquals(200, answer.status(), answer.body());
        assertEquals(timeoutSeconds == 0, answer.json().get("triggerAt").isNull(), answer.body());
    }

    /** Places {@code count} resting orders on {@code node} from four threads; returns clientOrderId to orderId. */
    private Map<String, Long> place(final ServiceProcess node, final String prefix, final int count)
            throws InterruptedException {
        final Map<String, Long> placed = new ConcurrentHashMap<>();
        final AtomicInteger next = new AtomicInteger();
        final List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            final Thread thread = new Thread(() -> {
                for (int i = next.getAndIncrement(); i < count; i = next.getAndIncrement()) {
                    final String clientOrderId = prefix + "-" + i;
                    final ApiClient.Answer answer = api(node).post("/api/v1/orders", ApiClient.limit("purge",
                            clientOrderId, "ETHUSD", i % 2 == 0 ? "BUY" : "SELL", i % 2 == 0 ? "2900.00" : "3100.00",
                            "0.100", null));
                    assertEquals(201, answer.status(), answer.body());
                    placed.put(clientOrderId, answer.json().get("orderId").asLong());
                }
            });
            thread.start();
            threads.add(thread);
        }
        for (final Thread thread : threads) {
            thread.join();
        }
        assertEquals(count, placed.size());
        return placed;
    }

    private void awaitMetric(final int member, final String metric, final java.util.function.DoublePredicate until) {
        final long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        double value = Double.NaN;
        while (System.nanoTime() < deadline) {
            value = api(nodes[member]).metric(metric);
            if (until.test(value)) {
                return;
            }
            sleep(200);
        }
        fail("member " + member + ": " + metric + " stayed " + value);
    }

    private static void deleteTree(final Path root) throws java.io.IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (var paths = Files.walk(root)) {
            for (final Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }

    private static void copyTree(final Path from, final Path to) throws java.io.IOException {
        try (var paths = Files.walk(from)) {
            for (final Path path : paths.toList()) {
                final Path target = to.resolve(from.relativize(path).toString());
                if (Files.isDirectory(path)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(path, target);
                }
            }
        }
    }

    private static long maxOrderId(final Iterable<long[]> answers) {
        long max = 0;
        for (final long[] answer : answers) {
            max = Math.max(max, answer[2]);
        }
        return max;
    }

    /**
     * The existing DB-vs-API check, after leadership moved: every member reports the database caught up with its
     * engine, only the leader's writer writes, the database holds every order and trade as the API shows them, and
     * each event once.
     */
    private void assertTheDatabaseMatchesTheApiAndOnlyTheLeaderWritesIt() throws Exception {
        final int leader = leader();
        for (int id = 0; id < MEMBERS; id++) {
            DatabaseVersusApi.awaitCaughtUp(api(nodes[id]), Duration.ofSeconds(60));
            assertEquals(id == leader ? 1 : 0, api(nodes[id]).metric("orders_persistence_writing"),
                    "member " + id + " writes the database, leader " + leader);
            // the database never went away here: a member that counted an outage collided with the leader's writes
            assertEquals(0, api(nodes[id]).metric("orders_persistence_outages_total"), "member " + id);
        }
        final DatabaseVersusApi.Summary compared = DatabaseVersusApi.assertSame(api(nodes[leader]), DB);
        assertTrue(compared.orders() > 100, compared.toString());
        final long mark = DB.number("SELECT last_sequence FROM high_water_mark");
        assertEquals(mark, DB.number("SELECT count(*) FROM order_events"), "one row per event");
        assertEquals(mark, DB.number("SELECT count(DISTINCT sequence) FROM order_events"), "no event twice");
    }

    /** Every member holds each acknowledged order in the same state, once their logs are applied alike. */
    private void assertSameOrders(final Map<String, Long> acknowledged) {
        final long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        String difference = null;
        while (System.nanoTime() < deadline) {
            difference = null;
            for (final long orderId : acknowledged.values()) {
                final String expected = api(nodes[0]).get("/api/v1/orders/" + orderId).body();
                for (int id = 1; id < MEMBERS && difference == null; id++) {
                    final String actual = api(nodes[id]).get("/api/v1/orders/" + orderId).body();
                    if (!expected.equals(actual)) {
                        difference = "order " + orderId + ": member 0 " + expected + ", member " + id + " " + actual;
                    }
                }
                if (difference != null) {
                    break;
                }
            }
            if (difference == null) {
                return;
            }
            sleep(200);
        }
        fail(difference);
    }

    /** @param status the status to wait for, or null for any */
    private static JsonNode awaitOrder(final ApiClient api, final long orderId, final String status) {
        final long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        ApiClient.Answer last = null;
        while (System.nanoTime() < deadline) {
            last = api.get("/api/v1/orders/" + orderId);
            if (last.status() == 200 && (status == null || status.equals(last.json().get("status").asText()))) {
                return last.json();
            }
            sleep(50);
        }
        throw new AssertionError("order " + orderId + " not as expected: " + (last == null ? "-" : last.body()));
    }

    private static void sleep(final long millis) {
        try {
            Thread.sleep(millis);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
