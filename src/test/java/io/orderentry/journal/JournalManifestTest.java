package io.orderentry.journal;

import io.orderentry.config.ConfigException;
import io.orderentry.instrument.Instrument;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.orderentry.engine.EngineConfig;
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

    private static final EngineConfig LIMITS = new EngineConfig(1_000, 100, 50, 1_000);
    private static final Instrument BTC = instrument(0, "BTCUSD", "0.01", "0.0001");
    private static final Instrument ETH = instrument(1, "ETHUSD", "0.01", "0.001");

    @TempDir
    Path dir;

    @Test
    void newJournalRecordsItsConfigurationAndTheSameConfigurationMatchesLater() throws IOException {
        assertEquals(JournalManifest.Outcome.CREATED, JournalManifest.check(dir, List.of(BTC, ETH), LIMITS).outcome());
        segment();
        assertEquals(JournalManifest.Outcome.MATCHED, JournalManifest.check(dir, List.of(BTC, ETH), LIMITS).outcome());
        assertEquals(JournalManifest.Outcome.MATCHED, JournalManifest.check(dir,
                List.of(instrument(0, "BTCUSD", "0.010", "0.00010"), ETH), LIMITS).outcome(),
                "0.010 is the same tick as 0.01");
    }

    @Test
    void coarserTickOnTheJournalsPriceUnitIsAcceptedAndRecordedWithItsTime() throws IOException {
        JournalManifest.check(dir, List.of(BTC, ETH), LIMITS);
        segment();
        final Instrument coarser = instrument(0, "BTCUSD", "0.1", "0.0001").withPriceUnit(new BigDecimal("0.01"));
        final JournalManifest.Result result = JournalManifest.check(dir, List.of(coarser, ETH), LIMITS);
        assertEquals(JournalManifest.Outcome.EXTENDED, result.outcome());
        assertEquals(List.of("BTCUSD tick size 0.01 -> 0.1 (price unit 0.01 unchanged)"), result.tickChanges());
        final String manifest = Files.readString(dir.resolve(JournalManifest.FILE_NAME));
        assertTrue(manifest.contains("instrument.BTCUSD.priceUnit=0.01\n"), manifest);
        assertTrue(manifest.contains("instrument.BTCUSD.tickSize=0.1\n"), manifest);
        assertTrue(manifest.matches("(?s).*instrument\\.BTCUSD\\.tickSizeChanges=\\d{4}-\\d\\d-\\d\\dT[0-9:]+Z 0\\.01 -> 0\\.1\n.*"),
                manifest);
        assertEquals(JournalManifest.Outcome.MATCHED, JournalManifest.check(dir, List.of(coarser, ETH), LIMITS).outcome());
        final JournalManifest.Result back = JournalManifest.check(dir, List.of(BTC, ETH), LIMITS);
        assertEquals(List.of("BTCUSD tick size 0.1 -> 0.01 (price unit 0.01 unchanged)"), back.tickChanges(),
                "back to the unit itself");
        assertTrue(Files.readString(dir.resolve(JournalManifest.FILE_NAME)).contains("0.01 -> 0.1, "),
                "each change is kept");
    }

    @Test
    void tickNotAMultipleOfTheJournalsPriceUnitIsRefusedNamingTheTickAndTheUnit() throws IOException {
        JournalManifest.check(dir, List.of(BTC, ETH), LIMITS);
        segment();
        final ConfigException refused = assertThrows(ConfigException.class, () -> JournalManifest.check(dir,
                List.of(instrument(0, "BTCUSD", "0.001", "0.0001"), ETH), LIMITS));
        assertTrue(refused.getMessage().contains("ORDERS_INSTRUMENTS: BTCUSD tick size 0.001 is not a whole multiple of"
                + " the journal's price unit 0.01"), refused.getMessage());
    }

    @Test
    void changedPriceUnitIsRefusedEvenWhenTheTickFitsBoth() throws IOException {
        JournalManifest.check(dir, List.of(BTC, ETH), LIMITS);
        segment();
        final ConfigException refused = assertThrows(ConfigException.class, () -> JournalManifest.check(dir,
                List.of(BTC.withPriceUnit(new BigDecimal("0.001")), ETH), LIMITS));
        assertTrue(refused.getMessage().contains("BTCUSD price unit was 0.01 when the journal was written, is 0.001 now"),
                refused.getMessage());
    }

    @Test
    void formatOneManifestReadsItsTickAsThePriceUnit() throws IOException {
        segment();
        Files.writeString(dir.resolve(JournalManifest.FILE_NAME), "format=1\nengine.max.resting.orders=1000\n"
                + "engine.max.open.orders.per.account=100\nengine.max.price.levels.per.side=50\n"
                + "engine.dedup.window=1000\ninstrument.BTCUSD.tickSize=0.01\ninstrument.BTCUSD.lotSize=0.0001\n");
        assertEquals(List.of(instrument(0, "BTCUSD", "0.05", "0.0001").withPriceUnit(new BigDecimal("0.01"))),
                JournalManifest.withRecordedPriceUnits(dir, List.of(instrument(0, "BTCUSD", "0.05", "0.0001"))),
                "a new tick keeps the journal's unit");
        final JournalManifest.Result result = JournalManifest.check(dir,
                JournalManifest.withRecordedPriceUnits(dir, List.of(instrument(0, "BTCUSD", "0.05", "0.0001"))), LIMITS);
        assertEquals(List.of("BTCUSD tick size 0.01 -> 0.05 (price unit 0.01 unchanged)"), result.tickChanges());
        assertTrue(Files.readString(dir.resolve(JournalManifest.FILE_NAME)).startsWith("# The configuration")
                && Files.readString(dir.resolve(JournalManifest.FILE_NAME)).contains("format=2\n"));
    }

    @Test
    void changedLotSizeAndEngineLimitsAreRefusedEachNamed() throws IOException {
        JournalManifest.check(dir, List.of(BTC, ETH), LIMITS);
        segment();
        final ConfigException refused = assertThrows(ConfigException.class, () -> JournalManifest.check(dir,
                List.of(BTC, instrument(1, "ETHUSD", "0.01", "0.01")), new EngineConfig(999, 100, 50, 2_000)));
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
        assertEquals(JournalManifest.Outcome.EXTENDED, JournalManifest.check(dir, List.of(BTC, sol), LIMITS).outcome());
        assertEquals(JournalManifest.Outcome.MATCHED, JournalManifest.check(dir, List.of(BTC, sol), LIMITS).outcome());
        final ConfigException refused = assertThrows(ConfigException.class,
                () -> JournalManifest.check(dir, List.of(instrument(0, "SOLUSD", "0.001", "0.01")), LIMITS));
        assertTrue(refused.getMessage().contains("BTCUSD is no longer configured"), refused.getMessage());
        assertEquals(JournalManifest.Outcome.MATCHED, JournalManifest.check(dir, List.of(BTC, sol), LIMITS).outcome(),
                "a refused start changes nothing");
    }

    @Test
    void journalWrittenBeforeManifestsGetsOneAndIsCheckedFromThenOn() throws IOException {
        segment();
        assertEquals(JournalManifest.Outcome.RECORDED_FOR_EXISTING_JOURNAL,
                JournalManifest.check(dir, List.of(BTC), LIMITS).outcome());
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
    void serviceRestartedWithACoarserTickKeepsRestingPricesTradesThemAndTakesNewOrdersOnlyOnTheNewTick()
            throws IOException {
        final String orderId;
        try (RunningService service = RunningService.start(dir, Map.of())) {
            final ApiClient.Answer placed = service.client().post("/api/v1/orders", order("BUY", "50000.05"));
            assertEquals(201, placed.status(), placed.body());
            orderId = placed.json().get("orderId").asText();
        }
        final Map<String, String> coarser = Map.of("ORDERS_INSTRUMENTS", "BTCUSD:0.1:0.0001,ETHUSD:0.01:0.001");
        try (RunningService service = RunningService.start(dir, coarser)) {
            assertEquals("50000.05", service.client().get("/api/v1/orders/" + orderId).json().get("price").asText(),
                    "the resting price reads back as it was placed");
            final ApiClient.Answer symbols = service.client().get("/api/v1/symbols");
            assertEquals("0.1", symbols.json().get(0).get("tickSize").asText(), symbols.body());
            assertEquals(2, symbols.json().get(0).get("priceScale").asInt(), "prices still render in the unit 0.01");
            final ApiClient.Answer offTick = service.client().post("/api/v1/orders", order("BUY", "50000.05"));
            assertEquals(422, offTick.status(), offTick.body());
            assertEquals("PRICE_NOT_ON_TICK", offTick.json().get("error").get("code").asText(), offTick.body());
            final ApiClient.Answer taker = service.client().post("/api/v1/orders", order("SELL", "50000.0"));
            assertEquals(201, taker.status(), taker.body());
            assertEquals("FILLED", taker.json().get("status").asText(), taker.body());
            assertEquals("50000.05", taker.json().get("fills").get(0).get("price").asText(),
                    "the resting order trades at its own price, off the new tick");
        }
        final ConfigException refused = assertThrows(ConfigException.class, () -> RunningService.start(dir,
                Map.of("ORDERS_INSTRUMENTS", "BTCUSD:0.005:0.0001,ETHUSD:0.01:0.001")).close());
        assertTrue(refused.getMessage().contains("BTCUSD tick size 0.005 is not a whole multiple of the journal's price"
                + " unit 0.01"), refused.getMessage());
        try (RunningService service = RunningService.start(dir, Map.of())) {
            assertEquals("FILLED", service.client().get("/api/v1/orders/" + orderId).json().get("status").asText(),
                    "the trade under the coarser tick replays under the original one");
        }
        final String manifest = Files.readString(dir.resolve("journal").resolve(JournalManifest.FILE_NAME));
        assertTrue(manifest.contains("0.01 -> 0.1, ") && manifest.contains("0.1 -> 0.01"), manifest);
    }

    @Test
    void journalStartedWithAFinerPriceUnitCanLaterTakeAFinerTick() {
        final Map<String, String> unit = Map.of("ORDERS_PRICE_UNITS", "BTCUSD:0.001");
        try (RunningService service = RunningService.start(dir, unit)) {
            final ApiClient.Answer placed = service.client().post("/api/v1/orders", order("BUY", "50000.01"));
            assertEquals(201, placed.status(), placed.body());
            assertEquals("50000.010", placed.json().get("price").asText(), "prices render in the unit's decimals");
            assertEquals(422, service.client().post("/api/v1/orders", order("BUY", "50000.015")).status(),
                    "the tick is still 0.01");
        }
        try (RunningService service = RunningService.start(dir,
                Map.of("ORDERS_INSTRUMENTS", "BTCUSD:0.005:0.0001,ETHUSD:0.01:0.001"))) {
            final ApiClient.Answer placed = service.client().post("/api/v1/orders", order("BUY", "50000.015"));
            assertEquals(201, placed.status(), placed.body());
            assertEquals("50000.015", placed.json().get("price").asText());
        }
    }

    private static String order(final String side, final String price) {
        return "{\"accountId\":\"acc-1\",\"symbol\":\"BTCUSD\",\"side\":\"" + side + "\",\"type\":\"LIMIT\","
                + "\"price\":\"" + price + "\",\"quantity\":\"0.5\"}";
    }

    private void segment() throws IOException {
        Files.createDirectories(dir);
        Files.write(dir.resolve("00000000000000000001.journal"), new byte[0]);
    }

    private static Instrument instrument(final int index, final String symbol, final String tick, final String lot) {
        return new Instrument(index, symbol, new BigDecimal(tick), new BigDecimal(lot), 1_000_000_000L, 1_000_000L);
    }
}
