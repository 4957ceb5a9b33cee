package io.orderentry.marketdata;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.orderentry.app.ConfigLoader;
import io.orderentry.config.ConfigException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each stream connection's kernel send buffer is bounded by default (ws.send.buffer.bytes), or left to the kernel. */
class MarketDataConfigSendBufferTest {

    @Test
    void streamConnectionsGetASixteenKibSendBufferByDefaultAndZeroLeavesItToTheKernel() {
        assertEquals(16_384, ConfigLoader.load(Map.of()).marketData().sendBufferBytes());
        assertEquals(0, ConfigLoader.load(Map.of("ORDERS_WS_SEND_BUFFER_BYTES", "0")).marketData().sendBufferBytes());
        assertEquals(1 << 20, ConfigLoader.load(Map.of("ORDERS_WS_SEND_BUFFER_BYTES", "1048576")).marketData()
                .sendBufferBytes());
    }

    @Test
    void aSendBufferBelowFourKibOtherThanZeroIsRefused() {
        final RuntimeException refused = assertThrows(RuntimeException.class,
                () -> ConfigLoader.load(Map.of("ORDERS_WS_SEND_BUFFER_BYTES", "1000")));
        assertTrue(refused instanceof ConfigException || refused instanceof IllegalArgumentException, refused.toString());
        assertTrue(refused.getMessage().contains("4096"), refused.getMessage());
    }
}
