package io.orderentry.http.stream;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class StreamMetricsTest {

    @Test
    void backlogBytesOfAllConnectionsTogetherStayWithinTheCapAndComeBackWhenDequeued() {
        final StreamMetrics metrics = new StreamMetrics();
        assertTrue(metrics.tryQueue(40_000, 65_536), "first connection's backlog fits");
        assertFalse(metrics.tryQueue(30_000, 65_536), "a second one that would pass the total is refused");
        assertTrue(metrics.tryQueue(25_536, 65_536), "up to the cap exactly");
        assertFalse(metrics.tryQueue(1, 65_536), "not a byte more");
        metrics.dequeued(40_000);
        assertTrue(metrics.tryQueue(30_000, 65_536), "bytes sent or dropped make room again");
    }
}
