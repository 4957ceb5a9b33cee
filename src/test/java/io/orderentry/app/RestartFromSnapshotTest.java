package io.orderentry.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.orderentry.journal.JournalConfig;
import io.orderentry.journal.JournalReader;
import io.orderentry.journal.JournalSync;
import io.orderentry.journal.JournalWriter;
import io.orderentry.snapshot.SnapshotStore;
import io.orderentry.testing.RandomCommands;
import io.orderentry.testing.ApiClient;
import io.orderentry.testing.RunningService;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A restart from a snapshot and the journal after it gives the service it stopped as: every order, book, trade and
 * idempotency key, and the ids it hands out next; a damaged or missing snapshot falls back to an older one or to
 * the whole journal with the same result.
 */
class RestartFromSnapshotTest {

    /** Each placed order's request body, by order id. */
    private static final Map<Long, String> BODIES = new HashMap<>();

    @TempDir
    Path dir;

    private static Map<String, String> settings(final String onShutdown) {
        final Map<String, String> env = new HashMap<>();
        env.put("ORDERS_SNAPSHOT_EVERY_COMMANDS", "0");
        env.put("ORDERS_SNAPSHOT_INTERVAL_SECONDS", "0");
        env.put("ORDERS_SNAPSHOT_ON_SHUTDOWN", onShutdown);
        env.put("ORDERS_SNAPSHOT_KEEP", "3");
        return env;
    }

    @Test
    void restartFromSnapshotPlusJournalTailAnswersLikeTheServiceThatStopped() throws IOException {
        final List<Long> orderIds = new ArrayList<>();
        final Map<String, String> before;
        final long snapshotSequence;
        final long journaled;
        final Random random = new Random(5);
        try (RunningService service = RunningService.start(dir, settings("false"))) {
            final ApiClient api = service.client();
            placeRandom(api, random, 150, orderIds, "a");
            final ApiClient.Answer first = api.post("/admin/snapshot", "");
            assertEquals(200, first.status(), first.body());
            placeRandom(api, random, 150, orderIds, "b");
            final ApiClient.Answer second = api.post("/admin/snapshot", "");
            assertEquals(200, second.status(), second.body());
            snapshotSequence = second.json().get("journalSequence").asLong();
            assertTrue(snapshotSequence > first.json().get("journalSequence").asLong(), second.body());
            placeRandom(api, random, 120, orderIds, "c");   // the tail after the newest snapshot
            before = observe(api, orderIds);
            journaled = metric(api, "orders_journal_last_sequence");
        }
        assertEquals(2, new SnapshotStore(dir.resolve("snapshots"), 3).list().size());

        try (RunningService service = RunningService.start(dir, settings("false"))) {
            final ApiClient api = service.client();
            assertEquals(snapshotSequence, metric(api, "orders_recovery_snapshot_sequence"), "the newest was loaded");
            assertEquals(journaled - snapshotSequence, metric(api, "orders_recovery_replayed_records"),
                    "only the records after it were replayed");
            assertEquals(before, observe(api, orderIds), "state after loading the newest snapshot and the tail");
            final ApiClient.Answer retry = api.post("/api/v1/orders", BODIES.get(orderIds.get(3)));
            assertEquals(200, retry.status(), retry.body());
            assertEquals(orderIds.get(3).longValue(), retry.json().get("orderId").asLong(),
                    "a retry of an order placed before the snapshot is answered with that order: " + retry.body());
            final ApiClient.Answer next = api.post("/api/v1/orders",
                    ApiClient.limit("acct-9", null, "BTCUSD", "BUY", "1.00", "1", null));
            assertEquals(orderIds.get(orderIds.size() - 1) + 1, next.json().get("orderId").asLong(),
                    "ids continue without a gap or a reuse");
        }
    }

    @Test
    void damagedNewestSnapshotFallsBackToTheOlderOneAndNoneAtAllToTheWholeJournal() throws IOException {
        final List<Long> orderIds = new ArrayList<>();
        final Map<String, String> before;
        final Random random = new Random(8);
        try (RunningService service = RunningService.start(dir, settings("true"))) {
            final ApiClient api = service.client();
            placeRandom(api, random, 120, orderIds, "a");
            assertEquals(200, api.post("/admin/snapshot", "").status());
            placeRandom(api, random, 120, orderIds, "b");
            before = observe(api, orderIds);
        }
        final SnapshotStore store = new SnapshotStore(dir.resolve("snapshots"), 3);
        final List<Path> files = store.list();
        assertEquals(2, files.size(), "one on request, one at the graceful stop: " + files);
        final byte[] newest = Files.readAllBytes(files.get(0));
        newest[newest.length / 2] ^= 1;
        Files.write(files.get(0), newest);
        try (RunningService service = RunningService.start(dir, settings("false"))) {
            assertEquals(SnapshotStore.sequenceOf(files.get(1)),
                    metric(service.client(), "orders_recovery_snapshot_sequence"), "the older one was loaded");
            assertEquals(before, observe(service.client(), orderIds), "from the older snapshot and a longer tail");
        }
        for (final Path file : store.list()) {
            Files.delete(file);
        }
        try (RunningService service = RunningService.start(dir, settings("false"))) {
            assertEquals(0, metric(service.client(), "orders_recovery_snapshot_sequence"));
            assertEquals(before, observe(service.client(), orderIds), "from the whole journal");
        }
    }

    @Test
    void newInstrumentAddedAtRestartKeepsTheSnapshotUsableAndStartsEmpty() throws IOException {
        final List<Long> orderIds = new ArrayList<>();
        final Map<String, String> before;
        try (RunningService service = RunningService.start(dir, settings("true"))) {
            placeRandom(service.client(), new Random(13), 80, orderIds, "a");
            before = observe(service.client(), orderIds);
        }
        final Map<String, String> extended = settings("false");
        extended.put("ORDERS_INSTRUMENTS", "BTCUSD:0.01:0.0001,ETHUSD:0.01:0.001,SOLUSD:0.001:0.01");
        try (RunningService service = RunningService.start(dir, extended)) {
            final ApiClient api = service.client();
            assertTrue(metric(api, "orders_recovery_snapshot_sequence") > 0, "the snapshot was loaded");
            assertEquals(0, metric(api, "orders_recovery_replayed_records"));
            assertEquals(before, observe(api, orderIds));
            assertEquals("[]", api.get("/api/v1/orderbook/SOLUSD").json().get("bids").toString());
            assertEquals(201, api.post("/api/v1/orders",
                    ApiClient.limit("acct-1", null, "SOLUSD", "BUY", "20.000", "1", null)).status());
        }
    }

    @Test
    void journalWhoseFirstSegmentsAreGoneWithNoUsableSnapshotRefusesToStartAndSaysWhy() throws IOException {
        final Path journal = dir.resolve("journal");
        try (JournalWriter writer = JournalWriter.open(new JournalConfig(journal, JournalSync.NONE, 8 * 1024, 4096),
                new String[] {"BTCUSD", "ETHUSD"}, JournalReader.recover(journal, Map.of("BTCUSD", 0, "ETHUSD", 1),
                        c -> { }))) {
            RandomCommands.journal(writer, new Random(5), 1, 500, 2);
        }
        try (var segments = Files.list(journal)) {
            Files.delete(segments.filter(p -> p.toString().endsWith(".journal")).sorted().findFirst().orElseThrow());
        }
        final IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> RunningService.start(dir, settings("false")));
        assertTrue(refused.getMessage().contains("removed by retention"), refused.getMessage());
    }

    @Test
    void snapshotOnRequestWithSnapshotsDisabledIsAClearConflict() {
        final Map<String, String> env = settings("true");
        env.put("ORDERS_SNAPSHOT_ENABLED", "false");
        try (RunningService service = RunningService.start(dir, env)) {
            final ApiClient.Answer answer = service.client().post("/admin/snapshot", "");
            assertEquals(409, answer.status(), answer.body());
            assertEquals("SNAPSHOT_UNAVAILABLE", answer.errorCode());
        }
    }

    private static long metric(final ApiClient api, final String name) {
        return (long) api.metric(name);
    }

    /** Places resting, crossing and IOC orders and cancels some, as several accounts with clientOrderIds. */
    private static void placeRandom(final ApiClient api, final Random random, final int count, final List<Long> ids,
                                    final String prefix) {
        for (int i = 0; i < count; i++) {
            if (!ids.isEmpty() && random.nextInt(5) == 0) {
                api.delete("/api/v1/orders/" + ids.get(random.nextInt(ids.size())));
                continue;
            }
            final String side = random.nextBoolean() ? "BUY" : "SELL";
            final String symbol = random.nextBoolean() ? "BTCUSD" : "ETHUSD";
            final int ticks = side.equals("BUY") ? 9_990 + random.nextInt(12) : 9_998 + random.nextInt(12);
            final String price = (ticks / 100) + "." + String.format("%02d", ticks % 100);
            final String tif = random.nextInt(6) == 0 ? "\"timeInForce\":\"IOC\"" : null;
            final String body = ApiClient.limit("acct-" + random.nextInt(4), prefix + "-" + ids.size(), symbol, side,
                    price, "0." + (1 + random.nextInt(9)), tif);
            final ApiClient.Answer answer = api.post("/api/v1/orders", body);
            assertTrue(answer.status() == 200 || answer.status() == 201, answer.body());
            ids.add(answer.json().get("orderId").asLong());
            BODIES.put(ids.get(ids.size() - 1), body);
        }
    }

    /** Everything a client can see that the journal determines, as text to compare. */
    private static Map<String, String> observe(final ApiClient api, final List<Long> ids) {
        final Map<String, String> seen = new HashMap<>();
        for (final long id : ids) {
            seen.put("order " + id, api.get("/api/v1/orders/" + id).body());
        }
        for (final String symbol : List.of("BTCUSD", "ETHUSD")) {
            final JsonNode book = api.get("/api/v1/orderbook/" + symbol + "?depth=100").json();
            assertNotNull(book.get("bids"));
            seen.put("bids " + symbol, book.get("bids").toString());
            seen.put("asks " + symbol, book.get("asks").toString());
            seen.put("checksum " + symbol, String.valueOf(book.get("checksum")));
            seen.put("trades " + symbol, api.get("/api/v1/trades/" + symbol + "?limit=100").json().toString());
        }
        for (int account = 0; account < 4; account++) {
            seen.put("open acct-" + account, api.get("/api/v1/orders?accountId=acct-" + account).body());
        }
        return seen;
    }
}
