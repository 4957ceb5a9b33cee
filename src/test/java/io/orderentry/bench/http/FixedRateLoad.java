package io.orderentry.bench.http;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.VertxOptions;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * Places orders at a fixed rate and measures each answer from the moment the request was <em>due</em>,
 * not from when it was sent, so a stalled server is charged for every request it delayed
 * (coordinated omission corrected; wrk cannot do this).
 *
 * <pre>
 * java -cp ... io.orderentry.bench.http.FixedRateLoad URL RATE_PER_SECOND SECONDS [CONNECTIONS] [WARMUP_SECONDS]
 * </pre>
 * The first WARMUP_SECONDS (default 10) run at the same rate but are not recorded: they open the connections
 * and let both JITs settle, which otherwise shows up as seconds of "latency" charged to every request due
 * behind them. Prints one line: rate, answers by class, p50/p99/p99.9/max in microseconds, and this harness's
 * own CPU over the recorded window.
 *
 * <p>Light on purpose, since it shares the machine with what it measures: one event loop does everything. A
 * periodic timer on that loop (every {@value #TICK_MICROS} µs) sends at once every request due before the next
 * tick; there is no pacing thread, no spinning and no cross-thread hand-off per request. A request sent before
 * it is due is timed from when it was sent, one sent after (the loop was late, or every connection was busy)
 * from when it was due.
 */
public final class FixedRateLoad {

    private static final long TICK_MICROS = 1_000;

    private FixedRateLoad() {
    }

    public static void main(final String[] args) throws Exception {
        final URI url = URI.create(args[0]);
        final int rate = Integer.parseInt(args[1]);
        final int seconds = Integer.parseInt(args[2]);
        final int connections = args.length > 3 ? Integer.parseInt(args[3]) : 64;
        final long warmup = (long) rate * (args.length > 4 ? Integer.parseInt(args[4]) : 10);
        final long total = warmup + (long) rate * seconds;
        final Histogram latency = new Histogram(TimeUnit.SECONDS.toNanos(60), 3);
        final long[] counts = new long[3];   // 2xx, other, completed: touched only on the event loop
        final CountDownLatch done = new CountDownLatch(1);
        final long[] cpuAtWarmupEnd = {-1};

        final Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1).setWorkerPoolSize(1)
                .setInternalBlockingPoolSize(1));
        final HttpClient client = vertx.createHttpClient(new HttpClientOptions().setDefaultHost(url.getHost())
                .setDefaultPort(url.getPort()).setKeepAlive(true).setTcpNoDelay(true),
                new PoolOptions().setHttp1MaxSize(connections));
        final Random random = new Random(42);
        final String run = Long.toString(System.currentTimeMillis(), 36);
        final double intervalNanos = 1e9 / rate;
        final long tickNanos = TimeUnit.MICROSECONDS.toNanos(TICK_MICROS);
        final RequestOptions post = new RequestOptions().setMethod(HttpMethod.POST).setURI("/api/v1/orders")
                .putHeader("Content-Type", "application/json");
        final long[] next = {0};
        final long[] start = {0};

        vertx.runOnContext(begin -> {
            start[0] = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(10);
            vertx.setPeriodic(TICK_MICROS / 1000, timer -> {
                final long now = System.nanoTime();
                final long horizon = now + tickNanos;
                while (next[0] < total) {
                    final long n = next[0];
                    final long due = start[0] + (long) (n * intervalNanos);
                    if (due >= horizon) {
                        break;
                    }
                    next[0]++;
                    if (n == warmup) {
                        cpuAtWarmupEnd[0] = processCpuNanos();
                    }
                    final long sent = System.nanoTime();
                    final long from = Math.min(sent, due);
                    final Buffer body = Buffer.buffer(order(random, run, n));
                    client.request(post).compose(request -> request.send(body)).onComplete(answer -> {
                        final long elapsed = System.nanoTime() - from;
                        if (n >= warmup) {
                            latency.recordValue(Math.min(Math.max(elapsed, 0), latency.getHighestTrackableValue()));
                        }
                        counts[answer.succeeded() && answer.result().statusCode() / 100 == 2 ? 0 : 1]++;
                        if (++counts[2] == total) {
                            done.countDown();
                        }
                    });
                }
                if (next[0] >= total) {
                    vertx.cancelTimer(timer);
                }
            });
        });
        final boolean finished = done.await(total / rate + 120L, TimeUnit.SECONDS);
        final long cpuNanos = processCpuNanos() - cpuAtWarmupEnd[0];
        final long recorded = total - warmup;
        vertx.runOnContext(v -> System.out.printf("RATE %d/s for %d s after warm-up (%d connections): %d 2xx, %d other"
                        + " (warm-up included)%s; latency us p50 %d p99 %d p99.9 %d max %d; harness CPU %.1f us/request"
                        + " (%.1f%% of one core)%n",
                rate, seconds, connections, counts[0], counts[1], finished ? "" : " (did not finish)",
                latency.getValueAtPercentile(50) / 1000, latency.getValueAtPercentile(99) / 1000,
                latency.getValueAtPercentile(99.9) / 1000, latency.getMaxValue() / 1000,
                cpuNanos / 1000.0 / recorded, cpuNanos / 1e7 / seconds));
        Thread.sleep(200);
        client.close();
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    /** @return the CPU time of this whole process (every thread, JIT and GC included) */
    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    /** A varied LIMIT order around a mid price; about one in ten is MARKET. */
    private static String order(final Random random, final String run, final long n) {
        final boolean buy = random.nextBoolean();
        final String side = buy ? "BUY" : "SELL";
        final String account = "lat-" + random.nextInt(50);
        final String quantity = "0.0" + (1 + random.nextInt(9));
        if (random.nextInt(10) == 0) {
            return "{\"accountId\":\"" + account + "\",\"symbol\":\"BTCUSD\",\"side\":\"" + side
                    + "\",\"type\":\"MARKET\",\"quantity\":\"" + quantity + "\"}";
        }
        final int offset = random.nextInt(16) - 3;
        final String price = (buy ? 50_000 - offset : 50_000 + offset) + ".00";
        return "{\"accountId\":\"" + account + "\",\"clientOrderId\":\"" + run + "-" + n
                + "\",\"symbol\":\"BTCUSD\",\"side\":\"" + side + "\",\"type\":\"LIMIT\",\"price\":\"" + price
                + "\",\"quantity\":\"" + quantity + "\"}";
    }
}
