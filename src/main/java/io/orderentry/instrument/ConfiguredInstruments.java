package io.orderentry.instrument;

import io.orderentry.config.ConfigException;
import io.orderentry.config.ConfigReader;
import io.orderentry.config.SettingNames;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads the instruments from the settings: {@code instruments} ({@code SYMBOL:TICK:LOT[:MAX_QUANTITY[:MAX_PRICE]]},
 * comma separated, decimals as text) with the price units of {@code price.units}. The list is the instruments'
 * settings; a journal may still record other price units, which {@code app.ConfigLoader} applies from its manifest.
 *
 * <p>Stateless; used once, on the starting thread.
 */
public final class ConfiguredInstruments {

    private static final String KEY = "instruments";
    private static final String UNITS_KEY = "price.units";

    private ConfiguredInstruments() {
    }

    /** @return the configured instruments in index order, each with its configured price unit */
    public static List<Instrument> from(final ConfigReader settings) {
        return priceUnits(settings, instruments(settings));
    }

    /** Parses {@code SYMBOL:TICK:LOT[:MAX_QUANTITY[:MAX_PRICE]]}, comma separated, decimals as text. */
    private static List<Instrument> instruments(final ConfigReader settings) {
        final List<Instrument> instruments = new ArrayList<>();
        final Set<String> seen = new HashSet<>();
        for (final String spec : settings.string(KEY).split(",")) {
            final String[] parts = spec.trim().split(":");
            if (parts.length < 3 || parts.length > 5) {
                throw new ConfigException(SettingNames.envName(KEY) + ": '" + spec.trim()
                        + "' must be SYMBOL:TICK:LOT[:MAX_QUANTITY[:MAX_PRICE]], e.g. BTCUSD:0.01:0.0001");
            }
            try {
                final BigDecimal tick = new BigDecimal(parts[1]);
                final BigDecimal lot = new BigDecimal(parts[2]);
                final long maxQuantity = parts.length > 3 ? units(new BigDecimal(parts[3]), lot) : 1_000_000_000L;
                final long maxPrice = parts.length > 4 ? units(new BigDecimal(parts[4]), tick) : 1_000_000_000L;
                if (!seen.add(parts[0])) {
                    throw new ConfigException(SettingNames.envName(KEY) + ": symbol " + parts[0] + " is listed twice");
                }
                instruments.add(new Instrument(instruments.size(), parts[0], tick, lot, maxPrice, maxQuantity));
            } catch (final NumberFormatException | ArithmeticException e) {
                throw new ConfigException(SettingNames.envName(KEY) + ": '" + spec.trim() + "' has a bad number: "
                        + e.getMessage());
            } catch (final IllegalArgumentException e) {
                throw new ConfigException(SettingNames.envName(KEY) + ": " + e.getMessage());
            }
        }
        return instruments;
    }

    /** Applies {@code ORDERS_PRICE_UNITS} ({@code SYMBOL:UNIT}, comma separated; empty: each unit is the tick). */
    private static List<Instrument> priceUnits(final ConfigReader settings, final List<Instrument> instruments) {
        final String text = settings.string(UNITS_KEY);
        if (text.isBlank()) {
            return instruments;
        }
        final String variable = SettingNames.envName(UNITS_KEY);
        final Map<String, BigDecimal> units = new HashMap<>();
        for (final String spec : text.split(",")) {
            final String[] parts = spec.trim().split(":");
            if (parts.length != 2) {
                throw new ConfigException(variable + ": '" + spec.trim() + "' must be SYMBOL:UNIT, e.g. BTCUSD:0.001");
            }
            try {
                final BigDecimal unit = new BigDecimal(parts[1]);
                if (unit.signum() <= 0) {
                    throw new ConfigException(variable + ": " + parts[0] + "'s unit must be > 0");
                }
                units.put(parts[0], unit);
            } catch (final NumberFormatException e) {
                throw new ConfigException(variable + ": '" + spec.trim() + "' has a bad number: " + e.getMessage());
            }
        }
        final List<Instrument> resolved = new ArrayList<>();
        for (final Instrument instrument : instruments) {
            final BigDecimal unit = units.remove(instrument.symbol());
            if (unit == null) {
                resolved.add(instrument);
            } else if (instrument.tickSize().remainder(unit).signum() != 0) {
                throw new ConfigException(variable + ": " + instrument.symbol() + "'s tick size "
                        + instrument.tickSize().toPlainString() + " is not a whole multiple of its price unit "
                        + unit.toPlainString());
            } else {
                resolved.add(instrument.withPriceUnit(unit));
            }
        }
        if (!units.isEmpty()) {
            throw new ConfigException(variable + ": " + units.keySet() + " not in " + SettingNames.envName(KEY));
        }
        return resolved;
    }

    private static long units(final BigDecimal amount, final BigDecimal unit) {
        return amount.divide(unit).setScale(0, RoundingMode.UNNECESSARY).longValueExact();
    }
}
