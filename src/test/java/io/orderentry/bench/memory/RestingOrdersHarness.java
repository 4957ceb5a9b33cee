package io.orderentry.bench.memory;

import io.orderentry.app.Config;
import io.orderentry.app.ConfigLoader;
import io.orderentry.app.OrderEntryService;
import io.orderentry.auth.KeysCommand;
import io.orderentry.auth.KeysFile;
import io.orderentry.auth.Permission;
import io.orderentry.engine.OrderType;
import io.orderentry.engine.Side;
import io.orderentry.engine.TimeInForce;
import io.orderentry.journal.JournalConfig;
import io.orderentry.journal.JournalReader;
import io.orderentry.journal.JournalSync;
import io.orderentry.journal.JournalWriter;
import io.orderentry.pipeline.CommandType;
import io.orderentry.pipeline.OrderCommand;
import io.orderentry.testing.FreePort;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Does the whole service (engine books and the query view) hold N resting orders in the heap it is
 * given? Writes a journal of N non-crossing GTC orders, starts the real service on it (recovery replays
 * them all), collects garbage and reports the heap in use. Run with the heap under test:
 * <pre>java -Xmx1g -cp ... io.orderentry.bench.memory.RestingOrdersHarness [N] [snapshots]</pre>
 * With {@code snapshots} the snapshot writer runs (as it does by default) and the heap is measured after it has
 * caught up and written a snapshot, so it includes its copy of the state; without, snapshots are disabled and the
 * figure is the live state alone. Authentication is on, as the service ships: the snapshot is asked for with an admin
 * key made for the run.
 */
public final class RestingOrdersHarness {

    private RestingOrdersHarness() {
    }

    public static void main(final String[] args) throws Exception {
        final int count = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        final boolean snapshots = args.length > 1 && args[1].equals("snapshots");
        final Path dir = Files.createTempDirectory("resting-orders");
        final Path journal = dir.resolve("journal");
        writeJournal(journal, count);
        final int port = FreePort.pick();
        final Path keys = dir.resolve("keys");
        final String admin = KeysCommand.create(new KeysFile(keys), "memory-bench", Permission.ADMIN);
        final Map<String, String> env = Map.of("ORDERS_HTTP_HOST", "127.0.0.1",
                "ORDERS_HTTP_PORT", Integer.toString(port), "ORDERS_JOURNAL_DIR", journal.toString(),
                "ORDERS_AUDIT_DIR", dir.resolve("audit").toString(), "ORDERS_DB_URL", "",
                "ORDERS_HTTP_INSTANCES", "1", "ORDERS_SNAPSHOT_ENABLED", Boolean.toString(snapshots),
                "ORDERS_AUTH", "keys", "ORDERS_AUTH_KEYS_FILE", keys.toString());
        final Config config = ConfigLoader.load(env);
        final OrderEntryService service = new OrderEntryService(config);
        final long started = System.nanoTime();
        service.start();
        final long startMillis = (System.nanoTime() - started) / 1_000_000;
        if (snapshots) {
            final long asked = System.nanoTime();
            final var answer = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                    java.net.URI.create("http://127.0.0.1:" + port + "/admin/snapshot"))
                    .header("Authorization", "Bearer " + admin)
                    .POST(java.net.http.HttpRequest.BodyPublishers.noBody()).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            System.out.printf("SNAPSHOT after %,d ms: %d %s%n", (System.nanoTime() - asked) / 1_000_000,
                    answer.statusCode(), answer.body());
        }
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(200);
        }
        final long used = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        final long max = Runtime.getRuntime().maxMemory();
        System.out.printf("RESTING %,d orders%s: recovered and ready in %,d ms; heap in use after GC %,d MiB of %,d MiB"
                + " (%,d bytes per resting order)%n", count, snapshots ? " (with the snapshot writer's copy)" : "",
                startMillis, used >> 20, max >> 20, used / count);
        service.stop();
    }

    /** Buys below 45,000 and sells above 55,000 on 5,000 prices per side, 1,000 accounts: nothing crosses. */
    private static void writeJournal(final Path journal, final int count) throws Exception {
        final JournalConfig config = new JournalConfig(journal, JournalSync.NONE, JournalConfig.DEFAULT_SEGMENT_SIZE,
                JournalConfig.DEFAULT_WRITE_BUFFER);
        try (JournalWriter writer = JournalWriter.open(config, new String[] {"BTCUSD", "ETHUSD"},
                JournalReader.recover(journal, Map.of("BTCUSD", 0, "ETHUSD", 1), command -> { }))) {
            final OrderCommand command = new OrderCommand();
            final long now = System.currentTimeMillis() * 1000;
            for (int i = 0; i < count; i++) {
                command.reset();
                command.type = CommandType.PLACE;
                command.sequence = i + 1;
                command.timestampMicros = now + i;
                command.accountId = "acct-" + (i % 1000);
                command.clientOrderId = "m-" + i;
                command.symbol = i % 2;
                final boolean buy = (i / 2) % 2 == 0;
                command.side = buy ? Side.BUY : Side.SELL;
                command.orderType = OrderType.LIMIT;
                command.timeInForce = TimeInForce.GTC;
                command.price = buy ? 4_500_000 - (i % 5000) * 100L : 5_500_000 + (i % 5000) * 100L;
                command.quantity = 1 + i % 100;
                if (!writer.append(command)) {
                    throw new IllegalStateException("journal write failed", writer.failure());
                }
            }
            writer.flush();
        }
    }
}
