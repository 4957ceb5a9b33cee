package io.orderentry.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.orderentry.testing.PromQl;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The metric names the monitoring tests look for in {@code /metrics} are read out of PromQL by {@link PromQl}: a name
 * it missed would go unchecked, and a label, function or keyword it took for one would fail the check for nothing.
 */
class PromQlTest {

    private static List<String> names(final String expression) {
        return List.copyOf(PromQl.metricNames(expression));
    }

    @Test
    void shouldNameTheMetricsInsideFunctionsAndAggregationsButNotTheFunctionsOrGroupingLabels() {
        assertEquals(List.of("http_server_requests_seconds_bucket"), names("histogram_quantile(0.99, sum by (job,"
                + " instance, le) (rate(http_server_requests_seconds_bucket{route=~\"/api/v1/orders.*\","
                + " method=~\"POST|DELETE\"}[5m])))"));
        assertEquals(List.of("orders_cluster_in_term", "orders_cluster_members"),
                names("count by (job) (orders_cluster_in_term == 1) < max without (instance) (orders_cluster_members)"));
    }

    @Test
    void shouldNotTakeLabelValuesRangesNumbersKeywordsOrGrafanaVariablesForMetrics() {
        assertEquals(List.of("orders_disk_free_bytes", "orders_disk_size_bytes"),
                names("predict_linear(orders_disk_free_bytes{job=~\"$job\",dir=\"spool\"}[$__rate_interval], 4 * 3600)"
                        + " < 0 and orders_disk_free_bytes / orders_disk_size_bytes < 0.5e0 unless on (dir) vector(1)"));
        assertEquals(List.of("orders_cluster_log_bytes_behind"),
                names("orders_cluster_log_bytes_behind > 64 * 1024 * 1024 offset 5m"));
        assertEquals(List.of("a_total", "b"), names("rate(a_total{x=\"}{[(\"}[1m]) > bool 1e-3 or b"));
    }

    @Test
    void shouldCountEachMetricOnceInTheOrderItFirstAppears() {
        assertEquals(Set.of("orders_journal_fsync_seconds_total", "orders_journal_flushes_total"),
                PromQl.metricNames("rate(orders_journal_fsync_seconds_total[1m]) / rate(orders_journal_flushes_total[1m])"
                        + " / rate(orders_journal_flushes_total[1m])"));
    }

    @Test
    void shouldRefuseAnExpressionWhoseBracketsDoNotClose() {
        assertThrows(IllegalArgumentException.class, () -> PromQl.metricNames("rate(x{job=\"a\"[5m])"));
    }
}
