package io.orderentry.bench.persistence;

import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.dsl.Disruptor;
import com.lmax.disruptor.dsl.ProducerType;
import io.orderentry.engine.EngineConfig;
import io.orderentry.engine.Matcher;
import io.orderentry.instrument.Instrument;
import io.orderentry.persistence.DatabaseConfig;
import io.orderentry.persistence.PersistenceService;
import io.orderentry.persistence.WriteMethods;
import io.orderentry.pipeline.EngineEvent;
import io.orderentry.pipeline.MatcherMetrics;
import io.orderentry.pipeline.MatcherStage;
import io.orderentry.pipeline.OrderCommand;
import io.orderentry.pipeline.StageWaitStrategy;
import io.orderentry.testing.FaultyProxy;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Measures the real persistence consumer into PostgreSQL: the matcher publishes engine events into an
 * output ring, the {@code PersistenceStage} spools them, the writer thread batches them into the
 * database. Each run starts with a fresh database.
 *
 * <ul>
 *   <li>{@code sustained}: events/s from the first event until the database's high-water mark reaches
 *       the last one, the matcher producing as fast as it can;</li>
 *   <li>{@code catchup}: the database is cut off (a TCP proxy) while the events are produced, then
 *       restored; the time from restoring until the database holds the last event.</li>
 * </ul>
 *
 * Arguments ({@code key=value}): {@code mode=sustained|catchup}, {@code write=copy|insert},
 * {@code events=2000000}, {@code runs=3}, {@code batch=1000}, {@code writers=2},
 * {@code url=jdbc:postgresql://127.0.0.1:5432/} (a server where the user may create databases),
 * {@code user=postgres}, {@code password=}. Prints one line per run and the median.
 */
public final class PersistenceBench {

    private static final List<Instrument> INSTRUMENTS = List.of(
            new Instrument(0, "BTCUSD", new BigDecimal("0.01"), new BigDecimal("0.0001"), 1_000_000_000L, 1_000_000_000L),
            new Instrument(1, "ETHUSD", new BigDecimal("0.01"), new BigDecimal("0.001"), 1_000_000_000L, 1_000_000_000L));

    private final Map<String, String> args;

    private PersistenceBench(final Map<String, String> args) {
        this.args = args;
    }

    public static void main(final String[] argv) throws Exception {
        final Map<String, String> args = new LinkedHashMap<>(Map.of("mode", "sustained", "write", "copy",
                "events", "2000000", "runs", "3", "batch", "1000", "url", "jdbc:postgresql://127.0.0.1:5432/",
                "user", "postgres", "password", "", "writers", "2"));
        args.put("ddl", "");
        for (final String arg : argv) {
            final String[] kv = arg.split("=", 2);
            if (kv.length != 2 || !args.containsKey(kv[0])) {
                throw new IllegalArgumentException("unknown argument " + arg + "; known: " + args.keySet());
            }
            args.put(kv[0], kv[1]);
        }
        new PersistenceBench(args).run();
    }

    private void run() throws Exception {
        final int runs = Integer.parseInt(args.get("runs"));
        final List<Double> rates = new ArrayList<>();
        System.out.println("persistence bench " + args);
        for (int run = 1; run <= runs; run++) {
            final double rate = args.get("mode").equals("catchup") ? catchUp(run) : sustained(run);
            rates.add(rate);
        }
        final List<Double> sorted = rates.stream().sorted().toList();
        System.out.printf("median of %d runs: %,.0f events/s%n", runs, sorted.get(sorted.size() / 2));
    }

    private double sustained(final int run) throws Exception {
        final String database = freshDatabase(run);
        final Path spool = Files.createTempDirectory("bench-spool");
        final PersistenceService persistence = WriteMethods.open(config(url(database), spool), INSTRUMENTS,
                args.get("write"));
        final Pipeline pipeline = new Pipeline(persistence);
        persistence.start(0);
        applyDdl(database);
        final long cpuBefore = PostgresCpu.ticks();
        final long start = System.nanoTime();
        final long last = pipeline.produce(Long.parseLong(args.get("events")));
        final long produced = System.nanoTime();
        awaitPersisted(persistence, last, TimeUnit.MINUTES.toNanos(10));
        final long end = System.nanoTime();
        final double cpuMicros = PostgresCpu.micros(PostgresCpu.ticks() - cpuBefore);
        final long orders = pipeline.orders();
        pipeline.stop();
        persistence.stop();
        final double rate = last * 1e9 / (end - start);
        System.out.printf("run %d: %,d events (%,d batches) in %.2f s = %,.0f events/s into PostgreSQL "
                        + "(produced in %.2f s); mean batch write %.2f ms%n", run, last, persistence.metrics().batches(),
                (end - start) / 1e9, rate, (produced - start) / 1e9,
                persistence.metrics().writeNanos() / 1e6 / Math.max(1, persistence.metrics().batches()));
        System.out.printf("run %d: PostgreSQL CPU %.2f s: %.2f µs per event, %.2f µs per order placed (%,d orders, "
                + "%.2f events per order)%n", run, cpuMicros / 1e6, cpuMicros / last, cpuMicros / orders, orders,
                (double) last / orders);
        dropDatabase(database);
        return rate;
    }

    private double catchUp(final int run) throws Exception {
        final String database = freshDatabase(run);
        final Path spool = Files.createTempDirectory("bench-spool");
        final String host = hostOf(args.get("url"));
        final int port = portOf(args.get("url"));
        try (FaultyProxy proxy = new FaultyProxy(host, port)) {
            final PersistenceService persistence = WriteMethods.open(
                    config("jdbc:postgresql://127.0.0.1:" + proxy.port() + "/" + database, spool), INSTRUMENTS,
                    args.get("write"));
            final Pipeline pipeline = new Pipeline(persistence);
            persistence.start(0);
            proxy.cut();
            final long last = pipeline.produce(Long.parseLong(args.get("events")));
            while (persistence.engineSequence() < last || persistence.state().name().equals("UP")) {
                Thread.sleep(10);
            }
            final long restored = System.nanoTime();
            proxy.restore();
            awaitPersisted(persistence, last, TimeUnit.MINUTES.toNanos(10));
            final long end = System.nanoTime();
            pipeline.stop();
            persistence.stop();
            final double rate = last * 1e9 / (end - restored);
            System.out.printf("run %d: caught up %,d events in %.2f s after the database came back = %,.0f events/s "
                            + "(writer's own figure: %,d events in %.2f s)%n", run, last, (end - restored) / 1e9, rate,
                    persistence.metrics().lastCatchUpEvents(), persistence.metrics().lastCatchUpNanos() / 1e9);
            dropDatabase(database);
            return rate;
        }
    }

    /** Runs the statements of the file {@code ddl=} names, if any, once the writer has migrated the database. */
    private void applyDdl(final String database) throws Exception {
        if (args.get("ddl").isEmpty()) {
            return;
        }
        final String sql = Files.readString(Path.of(args.get("ddl")));
        Thread.sleep(500);
        try (Connection connection = DriverManager.getConnection(url(database), args.get("user"), args.get("password"));
             Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    private static void awaitPersisted(final PersistenceService persistence, final long last, final long timeoutNanos)
            throws InterruptedException {
        final long deadline = System.nanoTime() + timeoutNanos;
        while (persistence.persistedSequence() < last) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("not persisted in time: " + persistence.persistedSequence() + " of "
                        + last + ", state " + persistence.state() + " " + persistence.lastError());
            }
            Thread.sleep(1);
        }
    }

    private DatabaseConfig config(final String url, final Path spool) {
        return new DatabaseConfig(url, args.get("user"), args.get("password"), Integer.parseInt(args.get("batch")),
                100, spool, 64L << 20, 2, 200, Integer.parseInt(args.get("writers")));
    }

    private String freshDatabase(final int run) throws Exception {
        final String name = "oe_bench_" + ProcessHandle.current().pid() + "_" + run;
        try (Connection admin = DriverManager.getConnection(url("postgres"), args.get("user"), args.get("password"));
             Statement statement = admin.createStatement()) {
            statement.execute("DROP DATABASE IF EXISTS " + name);
            statement.execute("CREATE DATABASE " + name);
        }
        return name;
    }

    private void dropDatabase(final String name) throws Exception {
        try (Connection admin = DriverManager.getConnection(url("postgres"), args.get("user"), args.get("password"));
             Statement statement = admin.createStatement()) {
            statement.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
        }
    }

    private String url(final String database) {
        return args.get("url") + database;
    }

    private static String hostOf(final String url) {
        return url.replaceFirst("jdbc:postgresql://", "").replaceFirst("[:/].*", "");
    }

    private static int portOf(final String url) {
        final String rest = url.replaceFirst("jdbc:postgresql://[^:/]+", "");
        return rest.startsWith(":") ? Integer.parseInt(rest.substring(1).replaceFirst("/.*", "")) : 5432;
    }

    /** The matcher on this thread publishing into an output ring whose only consumer is the persistence stage. */
    private static final class Pipeline {

        private final Disruptor<EngineEvent> output;
        private final MatcherStage matcher;
        private final CommandGenerator commands = new CommandGenerator(42);
        private final OrderCommand command = new OrderCommand();

        Pipeline(final PersistenceService persistence) {
            // The service's own wait strategy: a busy-spinning stage would take one of the machine's two
            // cores from PostgreSQL and the writer for the whole measurement.
            output = new Disruptor<>(EngineEvent::new, 1 << 18, Thread::new, ProducerType.SINGLE,
                    new StageWaitStrategy());
            output.handleEventsWith(persistence.stage());
            final RingBuffer<EngineEvent> ring = output.start();
            matcher = new MatcherStage(sink -> new Matcher(INSTRUMENTS.size(), EngineConfig.DEFAULTS, sink), ring,
                    new MatcherMetrics());
        }

        /** @return the last event sequence produced, at least {@code events} */
        long produce(final long events) {
            while (matcher.matcher().lastEventSequence() < events) {
                commands.next(command, matcher.matcher().lastOrderId());
                matcher.replay(command);
            }
            return matcher.matcher().lastEventSequence();
        }

        /** @return how many orders the matcher has accepted (their ids are 1..n) */
        long orders() {
            return matcher.matcher().lastOrderId();
        }

        void stop() throws com.lmax.disruptor.TimeoutException {
            output.shutdown(10, TimeUnit.SECONDS);
        }
    }
}
