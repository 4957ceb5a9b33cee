package io.orderentry.bench.engine;

import io.orderentry.engine.EngineConfig;
import io.orderentry.engine.Matcher;
import io.orderentry.engine.OrderType;
import io.orderentry.engine.Side;
import io.orderentry.engine.TimeInForce;
import java.lang.management.ManagementFactory;
import java.lang.ref.Reference;
import java.util.Arrays;
import org.HdrHistogram.Histogram;

/**
 * Measures the matcher on one thread, in four parts, and prints the figures:
 * <ol>
 *   <li>maximum throughput: commands per second over whole cycles of the {@link BenchmarkCommands}
 *       stream, the median of several runs;</li>
 *   <li>bytes allocated per command in steady state, from the thread's allocation counter;</li>
 *   <li>latency when commands are issued at a fixed rate (default 1,000,000/s): each command's time
 *       is measured from its <em>intended</em> start, so that a stall also counts against the commands
 *       queued behind it (no coordinated omission); service time alone is printed beside it;</li>
 *   <li>heap used by a matcher holding 1,000,000 resting orders, after a full GC; run with
 *       {@code -Xmx1g} to show that it fits.</li>
 * </ol>
 * System properties: {@code bench.rate} (commands/s, default 1000000), {@code bench.seconds}
 * (length of the fixed-rate run, default 10), {@code bench.runs} (throughput runs, default 7).
 */
public final class MatcherLatencyHarness {

    private static final long RATE = Long.getLong("bench.rate", 1_000_000);
    private static final long SECONDS = Long.getLong("bench.seconds", 10);
    private static final int RUNS = Integer.getInteger("bench.runs", 7);
    private static final int RESTING = 1_000_000;

    private MatcherLatencyHarness() {
    }

    public static void main(final String[] args) {
        System.out.printf("java %s, %s, max heap %d MiB, %d cpus, load average %.2f%n",
                System.getProperty("java.version"), ManagementFactory.getRuntimeMXBean().getVmName(),
                Runtime.getRuntime().maxMemory() >> 20, Runtime.getRuntime().availableProcessors(),
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        streamFigures();
        heapFigures(true);
        heapFigures(false);
    }

    private static void streamFigures() {
        final BenchmarkCommands commands = BenchmarkCommands.generate(42, BenchmarkCommands.DEFAULT_LENGTH,
                BenchmarkCommands.DEFAULT_DEPTH);
        final ChecksumSink sink = new ChecksumSink();
        final Matcher matcher = new Matcher(1, EngineConfig.DEFAULTS, sink);
        final CommandPlayer player = new CommandPlayer(commands, matcher);
        final int cycle = commands.length();
        System.out.printf("stream: %,d commands per cycle (%,d orders), ~%d resting, EngineConfig.DEFAULTS%n",
                cycle, commands.places(), BenchmarkCommands.DEFAULT_DEPTH);

        long trades = 0;
        for (int warmUp = 0; warmUp < 3; warmUp++) {
            final long before = sink.trades;
            player.run(cycle);
            trades = sink.trades - before;
        }
        final long tradesBefore = sink.trades;
        final double[] rates = new double[RUNS];
        for (int run = 0; run < RUNS; run++) {
            final long start = System.nanoTime();
            player.run(cycle);
            rates[run] = cycle * 1e9 / (System.nanoTime() - start);
        }
        if (sink.trades - tradesBefore != trades * RUNS) {
            throw new IllegalStateException("cycles differ: the stream does not replay identically");
        }
        Arrays.sort(rates);
        System.out.printf("throughput: median %,.0f commands/s over %d runs (min %,.0f, max %,.0f), %,d trades/cycle%n",
                rates[RUNS / 2], RUNS, rates[0], rates[RUNS - 1], trades);

        final com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        final long allocatedBefore = threads.getCurrentThreadAllocatedBytes();
        player.run(cycle);
        final long allocated = threads.getCurrentThreadAllocatedBytes() - allocatedBefore;
        System.out.printf("allocation: %,d bytes over %,d commands = %.4f bytes/command%n", allocated, cycle,
                (double) allocated / cycle);

        fixedRate(player, RATE, RATE);
        final Histogram[] histograms = fixedRate(player, RATE, RATE * SECONDS);
        print("latency at " + RATE + "/s from intended start", histograms[0]);
        print("service time at " + RATE + "/s", histograms[1]);
        System.out.printf("checksum %d%n", sink.checksum);
    }

    /** @return response time from the intended start, and service time, in nanoseconds */
    private static Histogram[] fixedRate(final CommandPlayer player, final long rate, final long count) {
        final Histogram response = new Histogram(60_000_000_000L, 3);
        final Histogram service = new Histogram(60_000_000_000L, 3);
        final double interval = 1e9 / rate;
        final long start = System.nanoTime() + 1_000_000;
        for (long i = 0; i < count; i++) {
            final long intended = start + (long) (i * interval);
            long now = System.nanoTime();
            while (now < intended) {
                Thread.onSpinWait();
                now = System.nanoTime();
            }
            player.next();
            final long end = System.nanoTime();
            response.recordValue(end - intended);
            service.recordValue(end - now);
        }
        return new Histogram[] {response, service};
    }

    private static void print(final String title, final Histogram h) {
        System.out.printf("%s (ns): p50 %,d  p90 %,d  p99 %,d  p99.9 %,d  p99.99 %,d  max %,d  (%,d samples)%n", title,
                h.getValueAtPercentile(50), h.getValueAtPercentile(90), h.getValueAtPercentile(99),
                h.getValueAtPercentile(99.9), h.getValueAtPercentile(99.99), h.getMaxValue(), h.getTotalCount());
    }

    /**
     * Places {@link #RESTING} non-crossing GTC orders (10,000 price levels per side, 1,000 accounts)
     * into an empty matcher and reports the heap it retains after a full GC.
     *
     * @param withClientOrderIds whether each order carries a unique clientOrderId, which the dedup
     *                           window then keeps alive together with its entry
     */
    private static void heapFigures(final boolean withClientOrderIds) {
        final String[] accounts = new String[1_000];
        for (int a = 0; a < accounts.length; a++) {
            accounts[a] = "acct-" + a;
        }
        final long before = usedHeapAfterGc();
        final Matcher matcher = new Matcher(1, EngineConfig.DEFAULTS, new ChecksumSink());
        for (int i = 0; i < RESTING; i++) {
            final boolean buy = (i & 1) == 0;
            final long level = (i >> 1) % 10_000;
            matcher.place(i, accounts[i % accounts.length], withClientOrderIds ? "client-" + i : null, 0,
                    buy ? Side.BUY : Side.SELL, OrderType.LIMIT, TimeInForce.GTC, false,
                    buy ? 1_000_000 - 1 - level : 1_000_000 + 1 + level, 1 + i % 10);
        }
        final long after = usedHeapAfterGc();
        if (matcher.restingOrderCount() != RESTING) {
            throw new IllegalStateException("expected " + RESTING + " resting, got " + matcher.restingOrderCount());
        }
        System.out.printf("heap: %,d resting orders %s retain %,d MiB (%d bytes/order) of %,d MiB max heap%n",
                RESTING, withClientOrderIds ? "with unique clientOrderIds (dedup window full)" : "without clientOrderIds",
                (after - before) >> 20, (after - before) / RESTING, Runtime.getRuntime().maxMemory() >> 20);
        Reference.reachabilityFence(matcher);
    }

    private static long usedHeapAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
