package io.orderentry.bench.http;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import java.net.URI;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
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
 * behind them. Prints one line: rate, answers by class, p50/p99/p99.9/max in microseconds.
 */
public final class FixedRateLoad {

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
        final AtomicLong ok = new AtomicLong();
        final AtomicLong failed = new AtomicLong();
        final CountDownLatch done = new CountDownLatch(1);
        final AtomicLong completed = new AtomicLong();

        final Vertx vertx = Vertx.vertx();
        final HttpClient client = vertx.createHttpClient(new HttpClientOptions().setDefaultHost(url.getHost())
                .setDefaultPort(url.getPort()).setKeepAlive(true).setTcpNoDelay(true),
                new PoolOptions().setHttp1MaxSize(connections));
        final Random random = new Random(42);
        final String run = Long.toString(System.currentTimeMillis(), 36);
        final long intervalNanos = TimeUnit.SECONDS.toNanos(1) / rate;
        final long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(100);

        final Thread pacer = new Thread(() -> {
            for (long i = 0; i < total; i++) {
                final long due = start + i * intervalNanos;
                long now;
                while ((now = System.nanoTime()) < due) {
                    if (due - now > 50_000) {
                        java.util.concurrent.locks.LockSupport.parkNanos(due - now - 20_000);
                    }
                }
                final long n = i;
                final Buffer body = Buffer.buffer(order(random, run, i));
                vertx.runOnContext(v -> client.request(new RequestOptions().setMethod(HttpMethod.POST)
                                .setURI("/api/v1/orders").putHeader("Content-Type", "application/json"))
                        .compose(request -> request.send(body))
                        .onComplete(answer -> {
                            final long elapsed = System.nanoTime() - due;
                            if (n >= warmup) {
                                synchronized (latency) {
                                    latency.recordValue(Math.min(elapsed, latency.getHighestTrackableValue()));
                                }
                            }
                            if (answer.succeeded() && answer.result().statusCode() / 100 == 2) {
                                ok.incrementAndGet();
                            } else {
                                failed.incrementAndGet();
                            }
                            if (completed.incrementAndGet() == total) {
                                done.countDown();
                            }
                        }));
            }
        }, "pacer");
        pacer.start();
        final boolean finished = done.await(total / rate + 120L, TimeUnit.SECONDS);
        System.out.printf("RATE %d/s for %d s after warm-up (%d connections): %d 2xx, %d other (warm-up included)%s; latency us p50 %d p99 %d p99.9 %d max %d%n",
                rate, seconds, connections, ok.get(), failed.get(), finished ? "" : " (did not finish)",
                latency.getValueAtPercentile(50) / 1000, latency.getValueAtPercentile(99) / 1000,
                latency.getValueAtPercentile(99.9) / 1000, latency.getMaxValue() / 1000);
        client.close();
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
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
