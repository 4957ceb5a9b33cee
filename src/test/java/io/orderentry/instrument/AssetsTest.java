package io.orderentry.instrument;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.orderentry.config.ConfigException;
import io.orderentry.config.ConfigReader;
import io.orderentry.engine.RiskRules;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** How the assets, their scales, the units per lot and the fees are read from the configuration (README). */
class AssetsTest {

    private static final List<Instrument> DEFAULTS = List.of(
            new Instrument(0, "BTCUSD", new BigDecimal("0.01"), new BigDecimal("0.0001"), 1_000_000_000, 1_000_000_000),
            new Instrument(1, "ETHUSD", new BigDecimal("0.01"), new BigDecimal("0.001"), 1_000_000_000, 1_000_000_000));

    private static Assets read(final List<Instrument> instruments, final Map<String, String> values) {
        final Properties properties = new Properties();
        properties.putAll(Map.of("risk", "balances", "assets", "", "instrument.assets", "", "fees", "",
                "fee.account", "fees"));
        properties.putAll(values);
        return Assets.from(new ConfigReader(properties), instruments);
    }

    @Test
    void eachAssetsScaleIsTheFinestItsInstrumentsNeedSoThatLotsAndNotionalsAreWholeUnits() {
        final Assets assets = read(DEFAULTS, Map.of());
        assertEquals(List.of("BTC", "USD", "ETH"), assets.names());
        assertEquals(List.of(4, 6, 3), List.of(assets.scale(0), assets.scale(1), assets.scale(2)));
        final RiskRules rules = assets.engineRules();
        // a BTC lot is 1 unit of 0.0001 BTC; a price unit (0.01) x a lot is 0.000001 USD, 1 unit; for ETH 0.00001, 10
        assertEquals(List.of(1L, 1L, 1L, 10L), List.of(rules.baseUnitsPerLot(0), rules.quoteUnitsPerPriceLot(0),
                rules.baseUnitsPerLot(1), rules.quoteUnitsPerPriceLot(1)));
        assertEquals(List.of(0, 0), List.of(rules.makerFeeRate(0), rules.takerFeeRate(0)), "the engine starts at 0");
    }

    @Test
    void aFinerConfiguredScaleMultipliesTheUnitsAndACoarserOneIsRefused() {
        final Assets finer = read(DEFAULTS, Map.of("assets", "USD:8,BTC:8"));
        assertEquals(List.of(10_000L, 100L, 1_000L), List.of(finer.engineRules().baseUnitsPerLot(0),
                finer.engineRules().quoteUnitsPerPriceLot(0), finer.engineRules().quoteUnitsPerPriceLot(1)));
        final ConfigException coarser = assertThrows(ConfigException.class,
                () -> read(DEFAULTS, Map.of("assets", "USD:2")));
        assertTrue(coarser.getMessage().contains("USD scale 2 is coarser than its instruments need (6"),
                coarser.getMessage());
        assertThrows(ConfigException.class, () -> read(DEFAULTS, Map.of("assets", "DOGE:2")));
    }

    @Test
    void feesAreRatesOfMillionthsUpToTenPercentAndTheEngineRulesStartWithout() {
        final Assets assets = read(DEFAULTS, Map.of("fees", "BTCUSD:0.001:0.0025"));
        assertEquals(List.of(1_000, 2_500, 0, 0), List.of(assets.makerFees()[0], assets.takerFees()[0],
                assets.makerFees()[1], assets.takerFees()[1]));
        for (final String bad : List.of("BTCUSD:0.2:0", "BTCUSD:-0.001:0", "BTCUSD:0.0000001:0", "XRPUSD:0:0",
                "BTCUSD:0.001")) {
            assertThrows(ConfigException.class, () -> read(DEFAULTS, Map.of("fees", bad)), bad);
        }
        assertEquals("0.0025", Assets.rate(2_500));
    }

    @Test
    void aSymbolThatDoesNotSplitNamesItsAssetsWithBalancesAndNeedNotWithout() {
        final List<Instrument> odd = List.of(new Instrument(0, "BTCUSDT", new BigDecimal("0.01"),
                new BigDecimal("0.0001"), 1_000_000, 1_000_000));
        assertThrows(ConfigException.class, () -> read(odd, Map.of()));
        final Assets named = read(odd, Map.of("instrument.assets", "BTCUSDT:BTC:USDT"));
        assertEquals(List.of("BTC", "USDT"), List.of(named.baseAsset(0), named.quoteAsset(0)));
        final Assets none = read(odd, Map.of("risk", "none"));
        assertNull(none.baseAsset(0));
        assertNull(none.engineRules(), "no rules without balances");
        assertThrows(ConfigException.class, () -> read(DEFAULTS, Map.of("risk", "maybe")));
    }
}
