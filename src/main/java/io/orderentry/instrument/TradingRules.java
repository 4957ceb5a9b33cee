package io.orderentry.instrument;

import io.orderentry.engine.SelfTradePrevention;
import java.math.BigDecimal;
import java.util.Arrays;

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
