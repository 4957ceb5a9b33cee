package io.orderentry.ops;

import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
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

    @Test
    void aScrapeWithinTheCacheAgeServesTheLastRenderingAndWithoutAnAgeRendersAnew() {
        final MetricsText metrics = new MetricsText();
        final AtomicLong placed = new AtomicLong(1);
        metrics.counter("orders_commands_total", "commands", "result=\"PLACED\"", placed::get);
        final io.vertx.core.buffer.Buffer first = metrics.scrape(60_000);
        placed.incrementAndGet();
        assertSame(first, metrics.scrape(60_000), "within the age, nothing is rendered");
        final io.vertx.core.buffer.Buffer fresh = metrics.scrape(0);
        assertNotSame(first, fresh);
        assertTrue(fresh.toString().contains("orders_commands_total{result=\"PLACED\"} 2.0"), fresh.toString());
        metrics.close();
    }
}
