package io.orderentry.bench.marketdata;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Closed-loop order entry over HTTP: {@code connections} requests in flight, each followed by the
 * next as soon as it is answered. Orders are random limits around 100.00 on both symbols, crossing
 * often enough to trade, a fifth of them IOC so the book stays bounded. Latency is send-to-last-byte
 * per request (closed loop: it understates queueing under overload, fine for comparing runs).
 *
 * <p>Threads: requests run on the load generator's own Vert.x event loop; {@link #run} blocks the caller.
 */
final class OrderLoad {

    private static final String[] SYMBOLS = {"BTCUSD", "ETHUSD"};

    private final Vertx vertx;
    private final HttpClientAgent client;
    private final RequestOptions request;
    private final int connections;
    private final SplittableRandom random = new SplittableRandom(7);
    private final Recorder latencies = new Recorder(3);
    private final AtomicLong answered = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private volatile boolean running;

    OrderLoad(final Vertx vertx, final String host, final int port, final int connections) {
        this.vertx = vertx;
        this.connections = connections;
        this.client = vertx.createHttpClient(new HttpClientOptions().setTcpNoDelay(true).setKeepAlive(true),
                new PoolOptions().setHttp1MaxSize(connections));
        this.request = new RequestOptions().setMethod(HttpMethod.POST).setHost(host).setPort(port)
                .setURI("/api/v1/orders").putHeader("Content-Type", "application/json");
    }

    /** One run's figures. */
    record Result(double requestsPerSecond, Histogram latencyMicros, long answered, long failed) {
    }

    /** Places orders for {@code seconds} and reports what the service sustained. */
    Result run(final double seconds) throws InterruptedException {
        latencies.reset();
        answered.set(0);
        failed.set(0);
        running = true;
        final CountDownLatch stopped = new CountDownLatch(connections);
        final long start = System.nanoTime();
        vertx.runOnContext(ignored -> {
            for (int i = 0; i < connections; i++) {
                next(stopped);
            }
        });
        TimeUnit.NANOSECONDS.sleep((long) (seconds * 1e9));
        running = false;
        final long elapsed = System.nanoTime() - start;
        if (!stopped.await(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("requests still in flight 60 s after the run");
        }
        return new Result(answered.get() / (elapsed / 1e9), latencies.getIntervalHistogram(), answered.get(),
                failed.get());
    }

    void close() {
        client.close().toCompletionStage().toCompletableFuture().join();
    }

    private void next(final CountDownLatch stopped) {
        if (!running) {
            stopped.countDown();
            return;
        }
        final Buffer body = Buffer.buffer(order());
        final long sent = System.nanoTime();
        client.request(request)
                .compose(req -> req.send(body))
                .compose(response -> response.body().map(ignored -> response.statusCode()))
                .onComplete(outcome -> {
                    latencies.recordValue(Math.max(1, (System.nanoTime() - sent) / 1_000));
                    if (outcome.succeeded() && outcome.result() == 201) {
                        answered.incrementAndGet();
                    } else {
                        failed.incrementAndGet();
                    }
                    next(stopped);
                });
    }

    private String order() {
        final String symbol = SYMBOLS[random.nextInt(SYMBOLS.length)];
        final boolean buy = random.nextBoolean();
        final int ticks = buy ? 9_900 + random.nextInt(120) : 9_980 + random.nextInt(120);
        final String price = ticks / 100 + "." + (ticks % 100 < 10 ? "0" : "") + ticks % 100;
        final String quantity = "0." + (1 + random.nextInt(99));
        return "{\"accountId\":\"bench-" + random.nextInt(200) + "\",\"symbol\":\"" + symbol + "\",\"side\":\""
                + (buy ? "BUY" : "SELL") + "\",\"type\":\"LIMIT\",\"price\":\"" + price + "\",\"quantity\":\""
                + quantity + "\"" + (random.nextInt(5) == 0 ? ",\"timeInForce\":\"IOC\"" : "") + "}";
    }
}
