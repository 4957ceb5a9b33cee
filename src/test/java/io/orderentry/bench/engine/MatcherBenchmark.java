package io.orderentry.bench.engine;

import io.orderentry.engine.EngineConfig;
import io.orderentry.engine.Matcher;
import io.orderentry.engine.RiskRules;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Single-threaded matcher throughput on a pre-generated stream (see {@link BenchmarkCommands}): ~50%
 * GTC limits near the touch, ~10% IOC or MARKET, ~40% cancels, ~1,000 resting orders, a clientOrderId
 * on every order and the production {@link EngineConfig#DEFAULTS} (dedup window of 1,000,000), with and without
 * balances. One
 * operation is one command. Run with {@code -prof gc} to see the bytes allocated per command.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Thread)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class MatcherBenchmark {

    @Param({"1000"})
    public int depth;

    /** The instrument's price band in basis points: 0 for none, 1000 for the service's default of 10%. */
    @Param({"0", "1000"})
    public int band;

    /**
     * {@code none}: no balances ({@code ORDERS_RISK=none}, the default); {@code balances}: every order held and every
     * trade settled with a maker and a taker fee, each of the 1,000 accounts funded once, far beyond what the stream
     * trades, before the measurement (so that no order is refused and the book cycles as without balances).
     */
    @Param({"none", "balances"})
    public String risk;

    /** BTC against USD, a lot worth 1 unit of BTC, a price unit x lot 1 unit of USD, 0.1% maker and 0.2% taker fees. */
    static final RiskRules RULES = new RiskRules(new String[] {"BTC", "USD"}, new int[] {4, 6}, new int[] {0},
            new int[] {1}, new long[] {1}, new long[] {1}, new int[] {1_000}, new int[] {2_000}, "fees");

    private ChecksumSink sink;
    private CommandPlayer player;

    /** Generates the stream and replays one whole cycle, so that pools and the dedup ring are full grown. */
    @Setup(Level.Trial)
    public void setUp() {
        final BenchmarkCommands commands = BenchmarkCommands.generate(42, BenchmarkCommands.DEFAULT_LENGTH, depth);
        sink = new ChecksumSink();
        final boolean balances = "balances".equals(risk);
        final Matcher matcher = new Matcher(1, EngineConfig.DEFAULTS, new int[] {band}, balances ? RULES : null, sink);
        if (balances) {
            for (int a = 0; a < BenchmarkCommands.ACCOUNTS; a++) {
                // 1,000 x 2^50 units stays below the supply limit of 2^61; an order of the stream holds at most 2 x 10^7
                matcher.fund(0, BenchmarkCommands.ACCOUNT_NAMES[a], 0, 1L << 50, "btc-" + a);
                matcher.fund(0, BenchmarkCommands.ACCOUNT_NAMES[a], 1, 1L << 50, "usd-" + a);
            }
            if (matcher.supply(1) != BenchmarkCommands.ACCOUNTS * (1L << 50)) {
                throw new IllegalStateException("funding refused: the benchmark would measure rejections");
            }
        }
        player = new CommandPlayer(commands, matcher);
        player.run(commands.length());
    }

    /** One command: place (GTC, IOC or MARKET) or cancel. */
    @Benchmark
    public long command() {
        player.next();
        return sink.checksum;
    }
}
