package io.orderentry.http;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class MetricsTextTest {

    @Test
    void lambdaBackedMetricsKeepReportingAfterGarbageCollection() throws Exception {
        final MetricsText metrics = new MetricsText();
        final AtomicLong placed = new AtomicLong(41);
        metrics.counter("orders_commands_total", "commands", "result=\"PLACED\"", placed::get);
        metrics.gauge("orders_input_ring_remaining", "free slots", () -> 1024);
        placed.incrementAndGet();
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(20);
        }
        final String text = metrics.render();
        assertTrue(text.contains("orders_commands_total{result=\"PLACED\"} 42.0"), text);
        assertTrue(text.contains("orders_input_ring_remaining 1024.0"), text);
        assertTrue(text.contains("jvm_memory_used_bytes"), "JVM metrics are bound");
        metrics.close();
    }
}
