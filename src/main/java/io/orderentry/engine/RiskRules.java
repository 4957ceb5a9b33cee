package io.orderentry.engine;

import java.util.Arrays;

/**
 * What the engine needs to hold and settle balances ({@code ORDERS_RISK=balances}): the assets, and per instrument
 * its base and quote asset, how many units of each asset a lot and a price unit x lot are worth, and its fee rates.
 * Amounts are whole units of an asset at its scale (a {@code USD} of scale 2 counts cents), so with the asset scales
 * chosen as the service chooses them (fine enough for every lot and every price unit x lot) a quantity and a notional
 * are exact integer products and only a fee is ever rounded: down, to the asset's unit.
 *
 * <p>Immutable; its arrays are copies.
 */
public final class RiskRules {

    /** Fee rates are counted in millionths: 1000 is 0.1%. */
    public static final int FEE_RATE_DENOMINATOR = 1_000_000;
    /** The highest fee rate, 10%. */
    public static final int MAX_FEE_RATE = 100_000;
    /**
     * The most of one asset there may be across all accounts, in units: funding beyond it is refused, so that no
     * balance and no sum of balances can overflow a {@code long}.
     */
    public static final long MAX_SUPPLY = Long.MAX_VALUE / 4;

    private final String[] assets;
    private final int[] scales;
    private final int[] baseAsset;
    private final int[] quoteAsset;
    private final long[] baseUnitsPerLot;
    private final long[] quoteUnitsPerPriceLot;
    private final int[] makerFeeRate;
    private final int[] takerFeeRate;
    private final String feeAccount;

    /**
     * @param assets                the asset names; an asset's index is its position
     * @param scales                per asset, its decimals: a unit is 10^-scale (the engine counts units; the scale
     *                              says what they are worth, for whoever shows them)
     * @param baseAsset             per instrument, the index of the asset its quantity is counted in
     * @param quoteAsset            per instrument, the index of the asset its price is counted in
     * @param baseUnitsPerLot       per instrument, units of the base asset one lot is worth
     * @param quoteUnitsPerPriceLot per instrument, units of the quote asset one price unit x one lot is worth
     * @param makerFeeRate          per instrument, in millionths of what the maker receives
     * @param takerFeeRate          per instrument, in millionths of what the taker receives
     * @param feeAccount            the account fees are paid to
     * @throws IllegalArgumentException when the arrays do not agree in length, an index is out of range, an instrument
     *                                  trades an asset against itself, a unit count is not positive or a fee rate is
     *                                  outside [0, {@link #MAX_FEE_RATE}]
     */
    public RiskRules(final String[] assets, final int[] scales, final int[] baseAsset, final int[] quoteAsset,
                     final long[] baseUnitsPerLot, final long[] quoteUnitsPerPriceLot, final int[] makerFeeRate,
                     final int[] takerFeeRate, final String feeAccount) {
        final int symbols = baseAsset.length;
        if (assets.length == 0 || scales.length != assets.length || quoteAsset.length != symbols || baseUnitsPerLot.length != symbols
                || quoteUnitsPerPriceLot.length != symbols || makerFeeRate.length != symbols
                || takerFeeRate.length != symbols || feeAccount == null || feeAccount.isEmpty()) {
            throw new IllegalArgumentException("risk rules need assets, one entry per instrument in every array and a "
                    + "fee account");
        }
        for (int s = 0; s < symbols; s++) {
            if (baseAsset[s] < 0 || baseAsset[s] >= assets.length || quoteAsset[s] < 0
                    || quoteAsset[s] >= assets.length || baseAsset[s] == quoteAsset[s]) {
                throw new IllegalArgumentException("instrument " + s + ": base and quote must be two of the "
                        + assets.length + " assets");
            }
            if (baseUnitsPerLot[s] <= 0 || quoteUnitsPerPriceLot[s] <= 0) {
                throw new IllegalArgumentException("instrument " + s + ": units per lot and per price unit x lot must "
                        + "be > 0");
            }
            if (makerFeeRate[s] < 0 || makerFeeRate[s] > MAX_FEE_RATE || takerFeeRate[s] < 0
                    || takerFeeRate[s] > MAX_FEE_RATE) {
                throw new IllegalArgumentException("instrument " + s + ": fee rates must be in [0, " + MAX_FEE_RATE
                        + "] millionths");
            }
        }
        this.assets = assets.clone();
        this.scales = scales.clone();
        this.baseAsset = baseAsset.clone();
        this.quoteAsset = quoteAsset.clone();
        this.baseUnitsPerLot = baseUnitsPerLot.clone();
        this.quoteUnitsPerPriceLot = quoteUnitsPerPriceLot.clone();
        this.makerFeeRate = makerFeeRate.clone();
        this.takerFeeRate = takerFeeRate.clone();
        this.feeAccount = feeAccount;
    }

    public int assetCount() {
        return assets.length;
    }

    public String asset(final int index) {
        return assets[index];
    }

    /** @return the asset's decimals: one unit is 10^-scale */
    public int scale(final int asset) {
        return scales[asset];
    }

    public int symbolCount() {
        return baseAsset.length;
    }

    public int baseAsset(final int symbol) {
        return baseAsset[symbol];
    }

    public int quoteAsset(final int symbol) {
        return quoteAsset[symbol];
    }

    public long baseUnitsPerLot(final int symbol) {
        return baseUnitsPerLot[symbol];
    }

    public long quoteUnitsPerPriceLot(final int symbol) {
        return quoteUnitsPerPriceLot[symbol];
    }

    public int makerFeeRate(final int symbol) {
        return makerFeeRate[symbol];
    }

    public int takerFeeRate(final int symbol) {
        return takerFeeRate[symbol];
    }

    public String feeAccount() {
        return feeAccount;
    }

    /**
     * @return what the amounts of an engine under these rules mean, as journal manifest entries: the fee account, each
     *         asset's index and scale, and per instrument its base and quote with the units of each a lot and a price
     *         unit x lot are worth (fee rates are not here: they are journaled as commands)
     */
    public java.util.Map<String, String> manifestEntries(final java.util.List<String> symbols) {
        final java.util.Map<String, String> entries = new java.util.LinkedHashMap<>();
        entries.put("risk", "balances");
        entries.put("risk.fee.account", feeAccount);
        for (int a = 0; a < assets.length; a++) {
            entries.put("risk.asset." + assets[a], "index " + a + ", scale " + scales[a]);
        }
        for (int s = 0; s < baseAsset.length; s++) {
            entries.put("risk.instrument." + symbols.get(s), assets[baseAsset[s]] + " x " + baseUnitsPerLot[s]
                    + " units a lot / " + assets[quoteAsset[s]] + " x " + quoteUnitsPerPriceLot[s]
                    + " units a price unit x lot");
        }
        return entries;
    }

    /** @return these rules with other fee rates for one instrument (a journaled change of configuration) */
    public RiskRules withFees(final int symbol, final int maker, final int taker) {
        final int[] makers = makerFeeRate.clone();
        final int[] takers = takerFeeRate.clone();
        makers[symbol] = maker;
        takers[symbol] = taker;
        return new RiskRules(assets, scales, baseAsset, quoteAsset, baseUnitsPerLot, quoteUnitsPerPriceLot, makers, takers,
                feeAccount);
    }

    /**
     * @return {@code a x b}, or {@link Long#MAX_VALUE} when it does not fit in a long (more than any balance can be);
     *         both non-negative
     */
    static long saturatedProduct(final long a, final long b) {
        final long high = Math.multiplyHigh(a, b);
        final long low = a * b;
        return high != 0 || low < 0 ? Long.MAX_VALUE : low;
    }

    /** Below this an amount times any rate fits in a long: the fee takes one multiplication and one division. */
    private static final long FAST_FEE_AMOUNT = Long.MAX_VALUE / MAX_FEE_RATE;

    /** @return {@code floor(amount x rate / 1,000,000)} for a non-negative amount, without overflow */
    static long fee(final long amount, final int rate) {
        if (rate == 0) {
            return 0;
        }
        if (amount <= FAST_FEE_AMOUNT) {
            return amount * rate / FEE_RATE_DENOMINATOR;
        }
        return amount / FEE_RATE_DENOMINATOR * rate + amount % FEE_RATE_DENOMINATOR * rate / FEE_RATE_DENOMINATOR;
    }

    @Override
    public boolean equals(final Object o) {
        return o instanceof RiskRules r && Arrays.equals(assets, r.assets) && Arrays.equals(scales, r.scales)
                && Arrays.equals(baseAsset, r.baseAsset)
                && Arrays.equals(quoteAsset, r.quoteAsset) && Arrays.equals(baseUnitsPerLot, r.baseUnitsPerLot)
                && Arrays.equals(quoteUnitsPerPriceLot, r.quoteUnitsPerPriceLot)
                && Arrays.equals(makerFeeRate, r.makerFeeRate) && Arrays.equals(takerFeeRate, r.takerFeeRate)
                && feeAccount.equals(r.feeAccount);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(assets) * 31 + Arrays.hashCode(baseAsset);
    }
}
