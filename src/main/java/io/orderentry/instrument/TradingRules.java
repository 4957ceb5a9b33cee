package io.orderentry.instrument;

import io.orderentry.config.ConfigException;
import io.orderentry.config.ConfigReader;
import io.orderentry.config.SettingNames;
import io.orderentry.engine.SelfTradePrevention;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Locale;
import java.util.List;
import java.util.Set;

/**
 * The venue's order rules that are configuration rather than code: the self-trade prevention an order gets when it names
 * none, and each instrument's price band.
 *
 * <p>A band decides how orders replay, so it is not read from the configuration during replay: the engine's bands are
 * part of its state (snapshots) and change only by a journaled command, which the service publishes at start for each
 * instrument whose configured band differs from the engine's (README, "Price bands").
 *
 * @param selfTradePreventionDefault ORDERS_ENGINE_STP_DEFAULT
 * @param priceBandBasisPoints       per instrument index, its band in basis points (1000 = 10%), 0 for none
 */
public record TradingRules(SelfTradePrevention selfTradePreventionDefault, int[] priceBandBasisPoints) {

    /** Basis points in one percent. */
    private static final int PER_PERCENT = 100;

    public TradingRules {
        if (selfTradePreventionDefault == null || priceBandBasisPoints == null) {
            throw new IllegalArgumentException("selfTradePreventionDefault and priceBandBasisPoints are required");
        }
        priceBandBasisPoints = priceBandBasisPoints.clone();
    }

    /**
     * The default self-trade prevention ({@code engine.stp.default}) and the price bands: {@code price.band.percent}
     * for every instrument, then {@code price.bands} ({@code SYMBOL:PERCENT}, comma separated) for those that differ.
     *
     * @param instruments the configured instruments, whose symbols {@code price.bands} may name
     */
    public static TradingRules from(final ConfigReader settings, final List<Instrument> instruments) {
        final String stpText = settings.string("engine.stp.default");
        final SelfTradePrevention stp;
        try {
            stp = SelfTradePrevention.valueOf(stpText.toUpperCase(Locale.ROOT));
        } catch (final IllegalArgumentException e) {
            throw new ConfigException(SettingNames.envName("engine.stp.default") + " must be one of "
                    + Arrays.toString(SelfTradePrevention.values()) + ", was '" + stpText + "'");
        }
        final int[] bands = new int[instruments.size()];
        Arrays.fill(bands, bandBasisPoints("price.band.percent", settings.string("price.band.percent")));
        final String key = "price.bands";
        final String overrides = settings.string(key);
        if (!overrides.isEmpty()) {
            final Set<String> seen = new HashSet<>();
            for (final String spec : overrides.split(",")) {
                final String[] parts = spec.trim().split(":");
                if (parts.length != 2) {
                    throw new ConfigException(SettingNames.envName(key) + ": '" + spec.trim()
                            + "' must be SYMBOL:PERCENT, e.g. BTCUSD:5");
                }
                final Instrument instrument = instruments.stream().filter(i -> i.symbol().equals(parts[0]))
                        .findFirst().orElseThrow(() -> new ConfigException(SettingNames.envName(key) + ": " + parts[0]
                                + " is not in " + SettingNames.envName("instruments")));
                if (!seen.add(parts[0])) {
                    throw new ConfigException(SettingNames.envName(key) + ": " + parts[0] + " is listed twice");
                }
                bands[instrument.index()] = bandBasisPoints(key, parts[1]);
            }
        }
        return new TradingRules(stp, bands);
    }

    private static int bandBasisPoints(final String key, final String percent) {
        try {
            return basisPoints(new BigDecimal(percent.trim()));
        } catch (final NumberFormatException | ArithmeticException e) {
            throw new ConfigException(SettingNames.envName(key) + ": '" + percent + "' is not a percentage");
        } catch (final IllegalArgumentException e) {
            throw new ConfigException(SettingNames.envName(key) + ": " + e.getMessage());
        }
    }

    /** No bands and no self-trade prevention for {@code instruments} instruments: the behaviour before issue 15. */
    public static TradingRules none(final int instruments) {
        return new TradingRules(SelfTradePrevention.NONE, new int[instruments]);
    }

    /** @return the band of instrument {@code index} in basis points, 0 for none */
    public int priceBand(final int index) {
        return priceBandBasisPoints[index];
    }

    /** @return the bands by instrument index (a copy) */
    @Override
    public int[] priceBandBasisPoints() {
        return priceBandBasisPoints.clone();
    }

    /** @return a band as the API shows it: a percentage, {@code "10"}, {@code "2.5"}, {@code "0"} for none */
    public static String percent(final int basisPoints) {
        return BigDecimal.valueOf(basisPoints, 2).stripTrailingZeros().toPlainString();
    }

    /**
     * @return a percentage as basis points
     * @throws IllegalArgumentException unless it is from 0 to below 100 with at most two decimals
     */
    public static int basisPoints(final BigDecimal percent) {
        if (percent.signum() < 0 || percent.compareTo(BigDecimal.valueOf(100)) >= 0
                || percent.stripTrailingZeros().scale() > 2) {
            throw new IllegalArgumentException("a price band is a percentage from 0 to below 100 with at most two"
                    + " decimals, was " + percent.toPlainString());
        }
        return percent.multiply(BigDecimal.valueOf(PER_PERCENT)).intValueExact();
    }

    @Override
    public boolean equals(final Object other) {
        return other instanceof TradingRules rules && rules.selfTradePreventionDefault == selfTradePreventionDefault
                && Arrays.equals(rules.priceBandBasisPoints, priceBandBasisPoints);
    }

    @Override
    public int hashCode() {
        return selfTradePreventionDefault.hashCode() * 31 + Arrays.hashCode(priceBandBasisPoints);
    }

    @Override
    public String toString() {
        return "TradingRules[selfTradePreventionDefault=" + selfTradePreventionDefault + ", priceBandBasisPoints="
                + Arrays.toString(priceBandBasisPoints) + "]";
    }
}
