package io.orderentry.http;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * HTTP request rate, latency and status codes, per method, route template and status. Timers are
 * created once per combination and cached by method, then route, then status: recording allocates nothing
 * (two map lookups on the strings' cached hashes and an array read) before the timer's own atomic adds. Called
 * on the event loops.
 *
 * <p>The tags are bounded whatever clients send: a method outside the standard ones is recorded as {@code OTHER}
 * (HTTP allows any token as a method, and each new tag value would be a new timer kept for the life of the process
 * and in every scrape), a request no route matched as route {@code unmatched}, and the status is the service's own.
 */
public final class HttpMetrics {

    private final MeterRegistry registry;
    private static final int STATUSES = 600;

    private final Map<String, Map<String, AtomicReferenceArray<Timer>>> timers = new ConcurrentHashMap<>();

    public HttpMetrics(final MeterRegistry registry) {
        this.registry = registry;
    }

    /** The methods recorded under their own name; any other is {@code OTHER}. */
    private static final java.util.Set<String> METHODS = java.util.Set.of("GET", "HEAD", "POST", "PUT", "DELETE",
            "PATCH", "OPTIONS", "TRACE", "CONNECT");

    /** Records one answered request. */
    public void record(final String requestMethod, final String route, final int status, final long nanos) {
        final String method = METHODS.contains(requestMethod) ? requestMethod : "OTHER";
        Map<String, AtomicReferenceArray<Timer>> byRoute = timers.get(method);
        if (byRoute == null) {
            byRoute = timers.computeIfAbsent(method, m -> new ConcurrentHashMap<>());
        }
        AtomicReferenceArray<Timer> byStatus = byRoute.get(route);
        if (byStatus == null) {
            byStatus = byRoute.computeIfAbsent(route, r -> new AtomicReferenceArray<>(STATUSES));
        }
        final int slot = status >= 0 && status < STATUSES ? status : 0;
        Timer timer = byStatus.get(slot);
        if (timer == null) {
            // Micrometer returns the one registered timer for the same name and tags, so a race between two event
            // loops here only stores the same instance twice.
            timer = Timer.builder("http_server_requests")
                    .description("HTTP requests by method, route template and status")
                    .tags("method", method, "route", route, "status", Integer.toString(status))
                    .publishPercentileHistogram()
                    .register(registry);
            byStatus.set(slot, timer);
        }
        timer.record(nanos, TimeUnit.NANOSECONDS);
    }
}
