package io.orderentry.http.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.orderentry.marketdata.Ticker;
import io.orderentry.testing.RunningService;
import io.orderentry.testing.StreamClient;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A round that a connection cannot take (here: an update that skips sequences, which only a bug in the hand-over
 * could produce) closes that connection with 1011 and stops nothing else: the other connections keep their
 * stream, and the consumer is not left waiting for the loops.
 */
class StreamFanOutFailureTest {

    @TempDir
    Path dir;

    @Test
    void connectionThatCannotTakeARoundIsClosedWith1011AndTheOthersKeepStreaming() {
        final Vertx vertx = Vertx.vertx();
        try (RunningService service = RunningService.start(dir, Map.of("ORDERS_HTTP_INSTANCES", "1"));
             StreamClient broken = StreamClient.connect(vertx, service.port());
             StreamClient healthy = StreamClient.connect(vertx, service.port())) {
            broken.subscribe("ticker", "ETHUSD");
            final long sequence = broken.awaitType("snapshot").get("sequence").asLong();
            healthy.subscribe("book", "BTCUSD");
            healthy.awaitType("snapshot");

            final StreamFanOut fanOut = service.service().streamFanOut();
            final Ticker skipping = new Ticker(1, sequence + 5, 0, 0, 0, 0, null, 0);
            fanOut.deliver(List.of(skipping), System.nanoTime());
            fanOut.awaitDelivered(TimeUnit.SECONDS.toNanos(10));

            assertEquals(StreamSession.SERVER_ERROR, broken.awaitClosed());
            service.client().post("/api/v1/orders", "{\"accountId\":\"acc-1\",\"symbol\":\"BTCUSD\",\"side\":\"BUY\","
                    + "\"type\":\"LIMIT\",\"price\":\"50000.00\",\"quantity\":\"0.5\"}");
            healthy.await(m -> "update".equals(m.path("type").asText()) && "book".equals(m.path("channel").asText()));
            assertFalse(healthy.isClosed());
            assertEquals(List.of(), healthy.gaps());
            assertEquals(List.of(), healthy.checksumMismatches());
        } finally {
            vertx.close();
        }
    }
}
