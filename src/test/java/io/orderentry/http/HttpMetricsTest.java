package io.orderentry.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class HttpMetricsTest {

    @Test
    void madeUpMethodsShareOneOtherTimerSoClientsCannotGrowTheScrape() {
        final SimpleMeterRegistry registry = new SimpleMeterRegistry();
        final HttpMetrics metrics = new HttpMetrics(registry);
        for (int i = 0; i < 1_000; i++) {
            metrics.record("Q" + i, "unmatched", 405, 1_000);
        }
        metrics.record("GET", "/api/v1/orders/:orderId", 200, 1_000);
        metrics.record("DELETE", "/api/v1/orders/:orderId", 200, 1_000);
        final Set<String> methods = registry.find("http_server_requests").timers().stream()
                .map(t -> t.getId().getTag("method")).collect(Collectors.toSet());
        assertEquals(Set.of("OTHER", "GET", "DELETE"), methods);
        final Timer other = registry.find("http_server_requests").tag("method", "OTHER").timer();
        assertEquals(1_000, other.count(), "every made-up method is still counted");
    }
}
