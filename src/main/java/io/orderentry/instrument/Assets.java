package io.orderentry.instrument;

import io.orderentry.config.ConfigException;
import io.orderentry.config.ConfigReader;
import io.orderentry.config.SettingNames;
import io.orderentry.engine.RiskRules;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The assets the instruments trade and, with {@code ORDERS_RISK=balances}, what the engine holds and settles balances
 * by ({@link RiskRules}): each instrument's base and quote asset, each asset's scale, the fee rates and the fee account.
 *
 * <h2>Scales, and why amounts are exact</h2>
 * An amount of an asset is a whole number of its units, {@code 10^-scale}. An asset's scale is, unless configured
 * ({@code ORDERS_ASSETS}, {@code ASSET:SCALE}), the finest any instrument needs: the decimals of a lot where it is the
 * base, of a price unit x a lot where it is the quote ({@code BTCUSD} with tick 0.01 and lot 0.0001: BTC 4, USD 6). A
 * configured scale may be finer, never coarser (refused at start). So a quantity and a notional (price x quantity) are
 * always whole units, held and settled without rounding; only a fee is rounded: down to the unit of the asset it is
 * taken from. The scales, the base and quote of each instrument, the assets' order and the fee account are recorded in
 * the journal's manifest and may not change under it (a changed scale would change what every amount means).
 *
 * <h2>Fees</h2>
 * {@code ORDERS_FEES}, {@code SYMBOL:MAKER:TAKER} as rates ({@code 0.001} is 0.1%, at most 0.1, in millionths), default
 * 0: charged on what each side receives. They decide how trades settle, so, like price bands, the engine's rates are
 * part of its state, and a start whose configured rates differ journals the change as a command.
 *
 * <p>Immutable.
 *
 * @param balances    true with {@code ORDERS_RISK=balances}
 * @param names       the assets in index order
 * @param scales      per asset, its scale
 * @param base        per instrument, its base asset's index
 * @param quote       per instrument, its quote asset's index
 * @param makerFees   per instrument, the configured maker fee in millionths
 * @param takerFees   per instrument, the configured taker fee in millionths
 * @param feeAccount  the account fees are paid to
 * @param rules       with balances, the engine's rules, with fee rates 0 (the rates it starts from; the configured
 *                    ones are journaled); null without
 */
public record Assets(boolean balances, List<String> names, int[] scales, int[] base, int[] quote, int[] makerFees,
                     int[] takerFees, String feeAccount, RiskRules rules) {

    private static final int MAX_SCALE = 18;
    private static final String RISK = "risk";
    private static final String ASSETS = "assets";
    private static final String INSTRUMENT_ASSETS = "instrument.assets";
    private static final String FEES = "fees";
    private static final String FEE_ACCOUNT = "fee.account";

    /** Reads {@code risk}, {@code assets}, {@code instrument.assets}, {@code fees} and {@code fee.account}. */
    public static Assets from(final ConfigReader settings, final List<Instrument> instruments) {
        final String risk = settings.lowerCase(RISK);
        if (!risk.equals("none") && !risk.equals("balances")) {
            throw new ConfigException(SettingNames.envName(RISK) + " must be none or balances, was '" + risk + "'");
        }
        final boolean balances = risk.equals("balances");
        final int symbols = instruments.size();
        final Map<String, String[]> pairs = pairs(settings.string(INSTRUMENT_ASSETS), instruments, balances);
        final List<String> names = new ArrayList<>();
        final int[] base = new int[symbols];
        final int[] quote = new int[symbols];
        final Map<String, Integer> needed = new LinkedHashMap<>();
        for (final Instrument instrument : instruments) {
            final String[] pair = pairs.get(instrument.symbol());
            if (pair == null) {
                base[instrument.index()] = -1;   // without balances an instrument need not name its assets
                quote[instrument.index()] = -1;
                continue;
            }
            base[instrument.index()] = index(names, pair[0]);
            quote[instrument.index()] = index(names, pair[1]);
            needed.merge(pair[0], decimals(instrument.lotSize()), Math::max);
            needed.merge(pair[1], decimals(instrument.priceUnit().multiply(instrument.lotSize())), Math::max);
        }
        final int[] scales = new int[names.size()];
        final Map<String, Integer> configured = scales(settings.string(ASSETS), names);
        for (int a = 0; a < names.size(); a++) {
            final String name = names.get(a);
            final int need = needed.get(name);
            final Integer chosen = configured.get(name);
            if (chosen != null && chosen < need) {
                throw new ConfigException(SettingNames.envName(ASSETS) + ": " + name + " scale " + chosen + " is coarser"
                        + " than its instruments need (" + need + ": a lot, or a price unit x a lot, must be a whole"
                        + " number of units)");
            }
            scales[a] = chosen == null ? need : chosen;
            if (scales[a] > MAX_SCALE) {
                throw new ConfigException(SettingNames.envName(ASSETS) + ": " + name + " would need scale " + scales[a]
                        + ", more than " + MAX_SCALE);
            }
        }
        final int[] makers = new int[symbols];
        final int[] takers = new int[symbols];
        fees(settings.string(FEES), instruments, makers, takers);
        final String feeAccount = settings.string(FEE_ACCOUNT);
        if (!feeAccount.matches("[A-Za-z0-9_-]{1,64}")) {
            throw new ConfigException(SettingNames.envName(FEE_ACCOUNT) + " must be 1-64 of [A-Za-z0-9_-], was '"
                    + feeAccount + "'");
        }
        RiskRules rules = null;
        if (balances) {
            final long[] basePerLot = new long[symbols];
            final long[] quotePerPriceLot = new long[symbols];
            for (final Instrument instrument : instruments) {
                final int s = instrument.index();
                basePerLot[s] = instrument.lotSize().movePointRight(scales[base[s]]).longValueExact();
                quotePerPriceLot[s] = instrument.priceUnit().multiply(instrument.lotSize())
                        .movePointRight(scales[quote[s]]).longValueExact();
            }
            rules = new RiskRules(names.toArray(String[]::new), scales, base, quote, basePerLot, quotePerPriceLot,
                    new int[symbols], new int[symbols], feeAccount);
        }
        return new Assets(balances, List.copyOf(names), scales, base, quote, makers, takers, feeAccount, rules);
    }

    /** @return the engine's rules with balances, or null with {@code ORDERS_RISK=none} */
    public RiskRules engineRules() {
        return balances ? rules : null;
    }

    /** @return the asset's index, or -1 for an asset no instrument trades */
    public int indexOf(final String asset) {
        return names.indexOf(asset);
    }

    /** @return the instrument's base asset, or null for one that names none (possible only without balances) */
    public String baseAsset(final int symbol) {
        return base[symbol] < 0 ? null : names.get(base[symbol]);
    }

    /** @return the instrument's quote asset, or null for one that names none (possible only without balances) */
    public String quoteAsset(final int symbol) {
        return quote[symbol] < 0 ? null : names.get(quote[symbol]);
    }

    public int scale(final int asset) {
        return scales[asset];
    }

    /** @return an amount of units of the asset as a decimal at its scale */
    public BigDecimal amount(final int asset, final long units) {
        return BigDecimal.valueOf(units, scales[asset]);
    }

    /** @return a fee rate in millionths as the API shows it: {@code "0.001"} */
    public static String rate(final int millionths) {
        return BigDecimal.valueOf(millionths, 6).stripTrailingZeros().toPlainString();
    }

    private static int index(final List<String> names, final String name) {
        int i = names.indexOf(name);
        if (i < 0) {
            names.add(name);
            i = names.size() - 1;
        }
        return i;
    }

    private static int decimals(final BigDecimal value) {
        return Math.max(0, value.stripTrailingZeros().scale());
    }

    /**
     * {@code SYMBOL:BASE:QUOTE}; an instrument not listed of 6 letters splits 3 + 3 ({@code BTCUSD}: BTC, USD); another
     * is refused with balances and has no assets (no entry) without.
     */
    private static Map<String, String[]> pairs(final String text, final List<Instrument> instruments,
                                               final boolean balances) {
        final String variable = SettingNames.envName(INSTRUMENT_ASSETS);
        final Map<String, String[]> pairs = new HashMap<>();
        if (!text.isBlank()) {
            for (final String spec : text.split(",")) {
                final String[] parts = spec.trim().split(":");
                if (parts.length != 3 || !parts[1].matches("[A-Z0-9]{1,12}") || !parts[2].matches("[A-Z0-9]{1,12}")
                        || parts[1].equals(parts[2])) {
                    throw new ConfigException(variable + ": '" + spec.trim() + "' must be SYMBOL:BASE:QUOTE with two"
                            + " different assets of 1-12 of [A-Z0-9], e.g. BTCUSDT:BTC:USDT");
                }
                if (instruments.stream().noneMatch(i -> i.symbol().equals(parts[0]))) {
                    throw new ConfigException(variable + ": " + parts[0] + " is not in "
                            + SettingNames.envName("instruments"));
                }
                if (pairs.put(parts[0], new String[] {parts[1], parts[2]}) != null) {
                    throw new ConfigException(variable + ": " + parts[0] + " is listed twice");
                }
            }
        }
        for (final Instrument instrument : instruments) {
            final String symbol = instrument.symbol();
            if (!pairs.containsKey(symbol)) {
                if (symbol.length() != 6 && !balances) {
                    continue;
                }
                if (symbol.length() != 6) {
                    throw new ConfigException(variable + ": " + symbol + " does not split into two 3-letter assets;"
                            + " name its base and quote asset (SYMBOL:BASE:QUOTE)");
                }
                pairs.put(symbol, new String[] {symbol.substring(0, 3), symbol.substring(3)});
            }
        }
        return pairs;
    }

    private static Map<String, Integer> scales(final String text, final List<String> names) {
        final String variable = SettingNames.envName(ASSETS);
        final Map<String, Integer> scales = new HashMap<>();
        if (text.isBlank()) {
            return scales;
        }
        for (final String spec : text.split(",")) {
            final String[] parts = spec.trim().split(":");
            try {
                if (parts.length != 2) {
                    throw new NumberFormatException("not ASSET:SCALE");
                }
                final int scale = Integer.parseInt(parts[1].trim());
                if (scale < 0 || scale > MAX_SCALE) {
                    throw new NumberFormatException("a scale is 0 to " + MAX_SCALE);
                }
                if (!names.contains(parts[0])) {
                    throw new ConfigException(variable + ": no instrument trades " + parts[0]);
                }
                scales.put(parts[0], scale);
            } catch (final NumberFormatException e) {
                throw new ConfigException(variable + ": '" + spec.trim() + "' must be ASSET:SCALE, e.g. USD:6 ("
                        + e.getMessage() + ")");
            }
        }
        return scales;
    }

    private static void fees(final String text, final List<Instrument> instruments, final int[] makers,
                             final int[] takers) {
        final String variable = SettingNames.envName(FEES);
        if (text.isBlank()) {
            return;
        }
        for (final String spec : text.split(",")) {
            final String[] parts = spec.trim().split(":");
            final Instrument instrument = parts.length == 3 ? instruments.stream()
                    .filter(i -> i.symbol().equals(parts[0])).findFirst().orElse(null) : null;
            if (instrument == null) {
                throw new ConfigException(variable + ": '" + spec.trim() + "' must be SYMBOL:MAKER:TAKER with a"
                        + " configured symbol, e.g. BTCUSD:0.001:0.002");
            }
            makers[instrument.index()] = millionths(variable, parts[1]);
            takers[instrument.index()] = millionths(variable, parts[2]);
        }
    }

    private static int millionths(final String variable, final String rate) {
        try {
            final BigDecimal value = new BigDecimal(rate.trim());
            final BigDecimal scaled = value.movePointRight(6);
            if (value.signum() < 0 || scaled.stripTrailingZeros().scale() > 0
                    || scaled.compareTo(BigDecimal.valueOf(RiskRules.MAX_FEE_RATE)) > 0) {
                throw new NumberFormatException("out of range");
            }
            return scaled.intValueExact();
        } catch (final NumberFormatException | ArithmeticException e) {
            throw new ConfigException(variable + ": fee rate '" + rate + "' must be from 0 to 0.1 with at most six"
                    + " decimals");
        }
    }

    @Override
    public boolean equals(final Object o) {
        return o instanceof Assets a && a.balances == balances && a.names.equals(names)
                && Arrays.equals(a.scales, scales) && Arrays.equals(a.base, base) && Arrays.equals(a.quote, quote)
                && Arrays.equals(a.makerFees, makerFees) && Arrays.equals(a.takerFees, takerFees)
                && a.feeAccount.equals(feeAccount);
    }

    @Override
    public int hashCode() {
        return names.hashCode() * 31 + Arrays.hashCode(scales);
    }

    @Override
    public String toString() {
        return "Assets[balances=" + balances + ", names=" + names + ", scales=" + Arrays.toString(scales) + "]";
    }
}
