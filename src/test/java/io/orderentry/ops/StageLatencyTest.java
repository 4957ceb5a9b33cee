package io.orderentry.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.orderentry.ops.StageLatency.Stage;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The order path's per-stage histograms: which bucket a time lands in, and what /metrics shows of them. */
class StageLatencyTest {

    private static final Pattern BUCKET =
            Pattern.compile("orders_stage_latency_seconds_bucket\\{stage=\"(\\w+)\",le=\"([^\"]+)\"} (\\d+)");

    private final StageLatency latency = new StageLatency();

    @Test
    void shouldCountATimeInTheFirstBucketWhoseUpperBoundItDoesNotExceed() {
        latency.record(Stage.JOURNAL, 10_000);      // exactly 10 µs: the first bucket
        latency.record(Stage.JOURNAL, 10_001);      // just above: the 15 µs bucket
        latency.record(Stage.JOURNAL, 2_500_000);   // 2.5 ms: the 3 ms bucket
        final Map<String, Long> buckets = buckets("journal");
        assertEquals(1, buckets.get("1.0E-5"));
        assertEquals(2, buckets.get("1.5E-5"));
        assertEquals(2, buckets.get("0.002"));
        assertEquals(3, buckets.get("0.003"));
        assertEquals(3, buckets.get("+Inf"));
    }

    @Test
    void shouldCountATimeAboveEveryBoundOnlyInTheInfiniteBucket() {
        latency.record(Stage.OUTPUT, 5_000_000_000L);
        final Map<String, Long> buckets = buckets("output");
        assertEquals(0, buckets.get("1.0"));
        assertEquals(1, buckets.get("+Inf"));
        assertTrue(latency.render().contains("orders_stage_latency_seconds_sum{stage=\"output\"} 5.0\n"));
    }

    @Test
    void shouldCountANegativeTimeFromClockReadingsOutOfOrderAsZeroRatherThanLoseIt() {
        latency.record(Stage.RING, -7);
        assertEquals(1, buckets("ring").get("1.0E-5"));
        assertTrue(latency.render().contains("orders_stage_latency_seconds_sum{stage=\"ring\"} 0.0\n"));
    }

    @Test
    void shouldRecordACommandsThreeEngineHandOversFromItsClockReadings() {
        latency.recordCommand(1_000, 21_000, 1_021_000, 1_121_000);
        assertEquals(0, buckets("ring").get("1.5E-5"));
        assertEquals(1, buckets("ring").get("2.0E-5"), "edge to journal: 20 µs");
        assertEquals(1, buckets("journal").get("0.001"), "journal to matcher: 1 ms");
        assertEquals(0, buckets("output").get("7.0E-5"));
        assertEquals(1, buckets("output").get("1.0E-4"), "matcher to reply: 100 µs");
        assertEquals(0, latency.count(Stage.EVENT_LOOP));
    }

    @Test
    void shouldRecordNothingForACommandWithoutEveryClockReading() {
        latency.recordCommand(0, 2, 3, 4);
        latency.recordCommand(1, 0, 3, 4);
        latency.recordCommand(1, 2, 0, 4);
        for (final Stage stage : Stage.values()) {
            assertEquals(0, latency.count(stage), stage.label());
        }
    }

    @Test
    void shouldRenderEveryStageAsACumulativePrometheusHistogramWithCountAndSum() {
        latency.record(Stage.EVENT_LOOP, 40_000);
        latency.record(Stage.EVENT_LOOP, 60_000);
        final String text = latency.render();
        assertTrue(text.startsWith("# HELP orders_stage_latency_seconds "));
        assertTrue(text.contains("# TYPE orders_stage_latency_seconds histogram\n"));
        for (final Stage stage : Stage.values()) {
            final Map<String, Long> buckets = buckets(stage.label());
            assertEquals(StageLatency.BOUNDS_NANOS.length + 1, buckets.size(), stage.label());
            long previous = 0;
            for (final long count : buckets.values()) {
                assertTrue(count >= previous, "cumulative counts never fall: " + buckets);
                previous = count;
            }
            assertTrue(text.contains("orders_stage_latency_seconds_count{stage=\"" + stage.label() + "\"} "
                    + latency.count(stage) + "\n"));
        }
        assertEquals(1, buckets("event_loop").get("5.0E-5"));
        assertEquals(2, buckets("event_loop").get("7.0E-5"));
        assertTrue(text.contains("orders_stage_latency_seconds_sum{stage=\"event_loop\"} 1.0E-4\n"));
    }

    @Test
    void shouldCountEveryRecordingWhenSeveralEventLoopsRecordAtOnce() throws InterruptedException {
        final Thread[] threads = new Thread[4];
        for (int t = 0; t < threads.length; t++) {
            threads[t] = new Thread(() -> {
                for (int i = 0; i < 50_000; i++) {
                    latency.record(Stage.EVENT_LOOP, i);
                }
            });
            threads[t].start();
        }
        for (final Thread thread : threads) {
            thread.join();
        }
        assertEquals(200_000, latency.count(Stage.EVENT_LOOP));
    }

    /** @return the stage's cumulative bucket counts by their {@code le} label, in the order rendered */
    private Map<String, Long> buckets(final String stage) {
        final Map<String, Long> buckets = new LinkedHashMap<>();
        final Matcher m = BUCKET.matcher(latency.render());
        while (m.find()) {
            if (m.group(1).equals(stage)) {
                buckets.put(m.group(2), Long.parseLong(m.group(3)));
            }
        }
        return buckets;
    }
}
