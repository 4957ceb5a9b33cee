package io.orderentry.bench.marketdata;

import io.orderentry.testing.ApiClient;
import io.orderentry.testing.Metrics;
import io.orderentry.testing.RunningService;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * What the WebSocket fan-out costs order entry end to end: places orders over HTTP with 0 and then
 * N stream subscribers connected, alternating, in the same run, and prints req/s and latency
 * p50/p99 per run and the medians per mode.
 *
 * <pre>
 * mvn -q -B -o test-compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt -Dmdep.includeScope=test
 * java -cp target/test-classes:target/classes:$(cat target/cp.txt) io.orderentry.bench.marketdata.FanOutBenchmark \
 *     [--subscribers 100] [--runs 3] [--seconds 10] [--connections 32] [--sync none] [--port P]
 * </pre>
 * Without {@code --port} the service runs in this JVM (2 HTTP loops, journal in a temp directory,
 * persistence off); with it, the service already listening on 127.0.0.1:P is measured.
 */
public final class FanOutBenchmark {

    private record Run(int subscribers, OrderLoad.Result load, double messagesPerSecond, double megabytesPerSecond) {
    }

    private FanOutBenchmark() {
    }

    public static void main(final String[] args) throws Exception {
        final Map<String, String> options = options(args);
        final int subscribers = Integer.parseInt(options.getOrDefault("subscribers", "100"));
        final int runs = Integer.parseInt(options.getOrDefault("runs", "3"));
        final double seconds = Double.parseDouble(options.getOrDefault("seconds", "10"));
        final int connections = Integer.parseInt(options.getOrDefault("connections", "32"));
        RunningService service = null;
        int port;
        if (options.containsKey("port")) {
            port = Integer.parseInt(options.get("port"));
        } else {
            final Path dir = Files.createTempDirectory("fanout-bench");
            service = RunningService.start(dir, Map.of("ORDERS_JOURNAL_SYNC", options.getOrDefault("sync", "none"),
                    "ORDERS_INPUT_RING_SIZE", "65536", "ORDERS_OUTPUT_RING_SIZE", "262144"));
            port = service.port();
        }
        final Vertx loadVertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1));
        final Vertx subscriberVertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1));
        try {
            final OrderLoad load = new OrderLoad(loadVertx, "127.0.0.1", port, connections);
            final Subscribers streams = new Subscribers(subscriberVertx, "127.0.0.1", port);
            System.out.printf(Locale.ROOT, "warm-up: %.0f s without and %.0f s with %d subscribers, %d connections,"
                    + " load average %.2f on %d cores%n", seconds, seconds, subscribers, connections,
                    ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(),
                    Runtime.getRuntime().availableProcessors());
            load.run(seconds);
            streams.connect(subscribers);
            load.run(seconds);
            streams.disconnect();
            final List<Run> results = new ArrayList<>();
            for (int i = 0; i < runs; i++) {
                for (final int count : new int[] {0, subscribers}) {
                    if (count > 0) {
                        streams.connect(count);
                    }
                    final long messages = streams.messages();
                    final long bytes = streams.bytes();
                    final OrderLoad.Result result = load.run(seconds);
                    final Run run = new Run(count, result, (streams.messages() - messages) / seconds,
                            (streams.bytes() - bytes) / seconds / 1e6);
                    results.add(run);
                    print("run " + (i + 1), run);
                    if (count > 0) {
                        streams.disconnect();
                    }
                }
            }
            System.out.printf(Locale.ROOT, "medians (load average now %.2f):%n",
                    ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
            for (final int count : new int[] {0, subscribers}) {
                final List<Run> mode = results.stream().filter(r -> r.subscribers() == count).toList();
                System.out.printf(Locale.ROOT, "  %3d subscribers: %8.0f req/s  p50 %6.2f ms  p99 %6.2f ms  %9.0f msg/s to subscribers%n",
                        count, median(mode, r -> r.load().requestsPerSecond()),
                        median(mode, r -> r.load().latencyMicros().getValueAtPercentile(50) / 1000.0),
                        median(mode, r -> r.load().latencyMicros().getValueAtPercentile(99) / 1000.0),
                        median(mode, Run::messagesPerSecond));
            }
            final ApiClient api = new ApiClient(port);
            System.out.printf(Locale.ROOT, "stream: %.0f conflations, %.0f slow disconnects, %.0f loop overruns%n",
                    Metrics.value(api, "orders_ws_conflations_total"), Metrics.value(api, "orders_ws_slow_disconnects_total"),
                    Metrics.value(api, "orders_ws_loop_overruns_total"));
            load.close();
        } finally {
            subscriberVertx.close().toCompletionStage().toCompletableFuture().join();
            loadVertx.close().toCompletionStage().toCompletableFuture().join();
            if (service != null) {
                service.close();
            }
        }
    }

    private static void print(final String label, final Run run) {
        System.out.printf(Locale.ROOT,
                "%s, %3d subscribers: %8.0f req/s  p50 %6.2f ms  p99 %6.2f ms  p99.9 %6.2f ms  failed %d  %9.0f msg/s %6.1f MB/s to subscribers%n",
                label, run.subscribers(), run.load().requestsPerSecond(),
                run.load().latencyMicros().getValueAtPercentile(50) / 1000.0,
                run.load().latencyMicros().getValueAtPercentile(99) / 1000.0,
                run.load().latencyMicros().getValueAtPercentile(99.9) / 1000.0, run.load().failed(),
                run.messagesPerSecond(), run.megabytesPerSecond());
    }

    private static double median(final List<Run> runs, final ToDoubleFunction<Run> figure) {
        final List<Double> values = runs.stream().map(figure::applyAsDouble).sorted(Comparator.naturalOrder()).toList();
        final int n = values.size();
        return n % 2 == 1 ? values.get(n / 2) : (values.get(n / 2 - 1) + values.get(n / 2)) / 2;
    }

    private static Map<String, String> options(final String[] args) {
        final Map<String, String> options = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (!args[i].startsWith("--")) {
                throw new IllegalArgumentException("expected --name value pairs, got " + args[i]);
            }
            options.put(args[i].substring(2), args[i + 1]);
        }
        return options;
    }
}
