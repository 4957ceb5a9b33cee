package io.orderentry.http;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * HTTP request rate, latency and status codes, per method, route template and status. Timers are
 * created once per combination and cached; recording is a map lookup and an atomic add. Called on the
 * event loops.
 */
public final class HttpMetrics {

    private final MeterRegistry registry;
    private final Map<String, Timer> timers = new ConcurrentHashMap<>();

    public HttpMetrics(final MeterRegistry registry) {
        this.registry = registry;
    }

    /** Records one answered request. */
    public void record(final String method, final String route, final int status, final long nanos) {
        final String key = method + ' ' + route + ' ' + status;
        Timer timer = timers.get(key);
        if (timer == null) {
            timer = timers.computeIfAbsent(key, k -> Timer.builder("http_server_requests")
                    .description("HTTP requests by method, route template and status")
                    .tags("method", method, "route", route, "status", Integer.toString(status))
                    .publishPercentileHistogram()
                    .register(registry));
        }
        timer.record(nanos, TimeUnit.NANOSECONDS);
    }
}
