package io.orderentry.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.orderentry.engine.EngineLimits;
import io.orderentry.testing.ApiClient;
import io.orderentry.testing.RunningService;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JournalManifestTest {

    private static final EngineLimits LIMITS = new EngineLimits(1_000, 100, 50, 1_000);
    private static final Instrument BTC = instrument(0, "BTCUSD", "0.01", "0.0001");
    private static final Instrument ETH = instrument(1, "ETHUSD", "0.01", "0.001");

    @TempDir
    Path dir;

    @Test
    void newJournalRecordsItsConfigurationAndTheSameConfigurationMatchesLater() throws IOException {
        assertEquals(JournalManifest.Outcome.CREATED, JournalManifest.check(dir, List.of(BTC, ETH), LIMITS));
        segment();
        assertEquals(JournalManifest.Outcome.MATCHED, JournalManifest.check(dir, List.of(BTC, ETH), LIMITS));
        assertEquals(JournalManifest.Outcome.MATCHED, JournalManifest.check(dir,
                List.of(instrument(0, "BTCUSD", "0.010", "0.00010"), ETH), LIMITS), "0.010 is the same tick as 0.01");
    }

    @Test
    void changedTickSizeIsRefusedNamingTheSettingTheJournalsValueAndTheNewOne() throws IOException {
        JournalManifest.check(dir, List.of(BTC, ETH), LIMITS);
        segment();
        final ConfigException refused = assertThrows(ConfigException.class, () -> JournalManifest.check(dir,
                List.of(instrument(0, "BTCUSD", "0.1", "0.0001"), ETH), LIMITS));
        assertTrue(refused.getMessage().contains("ORDERS_INSTRUMENTS: BTCUSD tick size was 0.01 when the journal was"
                + " written, is 0.1 now"), refused.getMessage());
    }

    @Test
    void changedLotSizeAndEngineLimitsAreRefusedEachNamed() throws IOException {
        JournalManifest.check(dir, List.of(BTC, ETH), LIMITS);
        segment();
        final ConfigException refused = assertThrows(ConfigException.class, () -> JournalManifest.check(dir,
                List.of(BTC, instrument(1, "ETHUSD", "0.01", "0.01")), new EngineLimits(999, 100, 50, 2_000)));
        assertTrue(refused.getMessage().contains("ETHUSD lot size was 0.001 when the journal was written, is 0.01 now"),
                refused.getMessage());
        assertTrue(refused.getMessage().contains("ORDERS_ENGINE_MAX_RESTING_ORDERS was 1000 when the journal was"
                + " written, is 999 now"), refused.getMessage());
        assertTrue(refused.getMessage().contains("ORDERS_ENGINE_DEDUP_WINDOW was 1000 when the journal was written,"
                + " is 2000 now"), refused.getMessage());
    }

    @Test
    void removedInstrumentIsRefusedAndAnAddedOneIsRecorded() throws IOException {
        JournalManifest.check(dir, List.of(BTC), LIMITS);
        segment();
        final Instrument sol = instrument(1, "SOLUSD", "0.001", "0.01");
        assertEquals(JournalManifest.Outcome.EXTENDED, JournalManifest.check(dir, List.of(BTC, sol), LIMITS));
        assertEquals(JournalManifest.Outcome.MATCHED, JournalManifest.check(dir, List.of(BTC, sol), LIMITS));
        final ConfigException refused = assertThrows(ConfigException.class,
                () -> JournalManifest.check(dir, List.of(instrument(0, "SOLUSD", "0.001", "0.01")), LIMITS));
        assertTrue(refused.getMessage().contains("BTCUSD is no longer configured"), refused.getMessage());
        assertEquals(JournalManifest.Outcome.MATCHED, JournalManifest.check(dir, List.of(BTC, sol), LIMITS),
                "a refused start changes nothing");
    }

    @Test
    void journalWrittenBeforeManifestsGetsOneAndIsCheckedFromThenOn() throws IOException {
        segment();
        assertEquals(JournalManifest.Outcome.RECORDED_FOR_EXISTING_JOURNAL,
                JournalManifest.check(dir, List.of(BTC), LIMITS));
        assertThrows(ConfigException.class,
                () -> JournalManifest.check(dir, List.of(instrument(0, "BTCUSD", "0.5", "0.0001")), LIMITS));
    }

    @Test
    void unreadableManifestRefusesToStartRatherThanGuess() throws IOException {
        JournalManifest.check(dir, List.of(BTC), LIMITS);
        segment();
        Files.writeString(dir.resolve(JournalManifest.FILE_NAME), "format=7\n");
        final ConfigException refused = assertThrows(ConfigException.class,
                () -> JournalManifest.check(dir, List.of(BTC), LIMITS));
        assertTrue(refused.getMessage().contains("format 7"), refused.getMessage());
    }

    @Test
    void serviceRestartedWithAnotherTickSizeRefusesToStartAndTheOldOneStillReplaysTheOrder() {
        final String orderId;
        try (RunningService service = RunningService.start(dir, Map.of())) {
            final ApiClient.Answer placed = service.client().post("/api/v1/orders", "{\"accountId\":\"acc-1\","
                    + "\"symbol\":\"BTCUSD\",\"side\":\"BUY\",\"type\":\"LIMIT\",\"price\":\"50000.00\",\"quantity\":\"0.5\"}");
            assertEquals(201, placed.status(), placed.body());
            orderId = placed.json().get("orderId").asText();
        }
        final ConfigException refused = assertThrows(ConfigException.class,
                () -> RunningService.start(dir, Map.of("ORDERS_INSTRUMENTS", "BTCUSD:0.1:0.0001,ETHUSD:0.01:0.001"))
                        .close());
        assertTrue(refused.getMessage().contains("BTCUSD tick size was 0.01 when the journal was written, is 0.1 now"),
                refused.getMessage());
        try (RunningService service = RunningService.start(dir, Map.of())) {
            final ApiClient.Answer order = service.client().get("/api/v1/orders/" + orderId);
            assertEquals("50000.00", order.json().get("price").asText(), "the price reads back as it was placed");
        }
    }

    private void segment() throws IOException {
        Files.createDirectories(dir);
        Files.write(dir.resolve("00000000000000000001.journal"), new byte[0]);
    }

    private static Instrument instrument(final int index, final String symbol, final String tick, final String lot) {
        return new Instrument(index, symbol, new BigDecimal(tick), new BigDecimal(lot), 1_000_000_000L, 1_000_000L);
    }
}
