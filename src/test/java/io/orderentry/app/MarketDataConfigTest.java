package io.orderentry.app;

import io.orderentry.config.ConfigException;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.orderentry.marketdata.MarketDataConfig;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MarketDataConfigTest {

    @Test
    void defaultsBoundTheStreamAndKeepAThousandTrades() {
        final MarketDataConfig config = ConfigLoader.load(Map.of()).marketData();
        assertEquals(1000, config.tradesHistory());
        assertEquals(100, config.snapshotMillis());
        assertEquals(10_000, config.maxConnections());
        assertEquals(20, config.maxSubscriptions());
        assertEquals(1000, config.maxQueuedMessages());
        assertEquals(262_144, config.writeQueueBytes());
        assertEquals(2000, config.heartbeatMillis());
        assertEquals(10_000, config.slowClientMillis());
    }

    @Test
    void environmentOverridesTheStreamSettings() {
        final MarketDataConfig config = ConfigLoader.load(Map.of("ORDERS_WS_MAX_SUBSCRIPTIONS", "3",
                "ORDERS_WS_MAX_QUEUED_MESSAGES", "10", "ORDERS_WS_HEARTBEAT_MILLIS", "500",
                "ORDERS_MARKETDATA_TRADES_HISTORY", "50")).marketData();
        assertEquals(3, config.maxSubscriptions());
        assertEquals(10, config.maxQueuedMessages());
        assertEquals(500, config.heartbeatMillis());
        assertEquals(50, config.tradesHistory());
    }

    @Test
    void badStreamSettingsAreRefusedWithTheVariableName() {
        assertMessage(Map.of("ORDERS_WS_HEARTBEAT_MILLIS", "6000"), "ORDERS_WS_HEARTBEAT_MILLIS must be between 100 and 5000");
        assertMessage(Map.of("ORDERS_WS_MAX_SUBSCRIPTIONS", "0"), "ORDERS_WS_MAX_SUBSCRIPTIONS must be between");
        assertMessage(Map.of("ORDERS_WS_MAX_QUEUED_MESSAGES", "20"),
                "ORDERS_WS_MAX_QUEUED_MESSAGES (20) must be more than ORDERS_WS_MAX_SUBSCRIPTIONS (20)");
        assertMessage(Map.of("ORDERS_MARKETDATA_SNAPSHOT_MILLIS", "soon"),
                "ORDERS_MARKETDATA_SNAPSHOT_MILLIS must be a whole number");
        assertMessage(Map.of("ORDERS_WS_WRITE_QUEUE_BYTES", "10"), "ORDERS_WS_WRITE_QUEUE_BYTES must be between");
    }

    private static void assertMessage(final Map<String, String> env, final String expected) {
        final ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.load(env));
        assertTrue(e.getMessage().contains(expected), () -> "'" + e.getMessage() + "' should contain '" + expected + "'");
    }
}
