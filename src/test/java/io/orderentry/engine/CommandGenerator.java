package io.orderentry.engine;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Random;

/**
 * A seeded stream of valid commands that keeps the books busy near a mid price per instrument (fixed, or
 * drifting slowly so that orders left from an older mid end up beyond a price band and MARKET sweeps run into it):
 * <ul>
 *   <li>about 41% GTC limits around the touch (some crossing, some postOnly), 2% LIMIT orders far from the mid
 *       (outside a 5% band, or just inside it; mostly IOC), 10% IOC/MARKET/FOK;</li>
 *   <li>34% cancels of recent, old, final and never-assigned ids;</li>
 *   <li>8% amends: reduce in place, increase, reprice passive or crossing (postOnly orders repriced to cross),
 *       to a quantity at or below what may be filled, to prices beyond the band, of final and unknown ids;</li>
 *   <li>0.05% cancel-alls, of one instrument or all, with either cause, sometimes of an account with no order;</li>
 *   <li>5% exact or altered (quantity or self-trade prevention) retries of a recent order, so DUPLICATE and
 *       DUPLICATE_MISMATCH both occur.</li>
 * </ul>
 * Several accounts trade both sides of two instruments, and half the orders carry a self-trade prevention mode
 * other than NONE, so self-trades are really prevented (or, with NONE, really happen). Half the orders carry a
 * clientOrderId drawn from a small per-account pool. The generator models the engine's dedup window to know which
 * id each order gets, so that amends can aim at orders of a known side, price, quantity and postOnly flag.
 */
final class CommandGenerator {

    /** Stream connections with cancel on disconnect per account that orders come through (1 to this). */
    private static final int SESSIONS = 3;

    private static final long MID = 1_000;
    private static final int ACCOUNTS = 6;
    private static final int DRIFT_INTERVAL = 500;
    private static final long MIN_MID = 880;
    private static final long MAX_MID = 1_120;

    private final Random random;
    private final int symbolCount;
    private final int dedupWindow;
    private final boolean driftingMid;
    private final long[] mid;
    private final List<Command> recentPlaces = new ArrayList<>();
    /** The place command of every order id assigned so far: id n at index n - 1. */
    private final List<Command> orders = new ArrayList<>();
    /** A model of the engine's dedup window: account and clientOrderId of the most recent orders that had one. */
    private final LinkedHashMap<String, Boolean> window = new LinkedHashMap<>();
    private long generated;
    /** Whether bands change now and then ({@link #withBandChanges}). */
    private boolean bandChanges;
    private static final int[] BAND_CHOICES = {0, 300, 500, 1_000};
    /** The instrument only {@link #thinBookScenario} trades, or -1 ({@link #withThinInstrument}). */
    private int thinSymbol = -1;
    /** Commands of a scenario still to issue, in order; their order ids were predicted when they were queued. */
    private final ArrayDeque<Command> scripted = new ArrayDeque<>();
    private static final int THIN_SCENARIO_PERCENT_OF_RARE = 80;
    /** The band the scenario sets when it plays under the older rule: 10%. */
    private static final int THIN_BAND = 1_000;

    /**
     * @return this generator, also issuing a band change now and then (about one command in 5,000), a quarter of
     *         them under {@link MarketBandRule#FAR_EDGE_ONLY}, the rule older journals replay under
     */
    CommandGenerator withBandChanges() {
        bandChanges = true;
        return this;
    }

    /**
     * @return this generator, keeping its last instrument for {@link #thinBookScenario}: a book with no standing
     *         liquidity, where one order's trade moves the reference far and leaves orders beyond a band's near edge
     */
    CommandGenerator withThinInstrument() {
        if (symbolCount < 2) {
            throw new IllegalArgumentException("a thin instrument needs another one for the rest");
        }
        thinSymbol = symbolCount - 1;
        return this;
    }

    /** The assets funding draws from, or null ({@link #withFunding}). */
    private RiskRules risk;
    private final List<Command> recentFundings = new ArrayList<>();
    private long fundings;
    /** Percent of commands that are fundings, with {@link #withFunding}. */
    private static final int FUNDING_PERCENT = 4;

    /**
     * @return this generator, also funding the accounts by the rules' assets: first a deposit of every asset to every
     *         account, then about 4% of the commands: deposits (mostly modest, so that INSUFFICIENT_BALANCE occurs),
     *         withdrawals (some beyond what is available), exact and altered retries of a recent funding, now and then
     *         a deposit of the whole maximum supply, which is refused, and a change of an instrument's fee rates
     */
    CommandGenerator withFunding(final RiskRules rules) {
        this.risk = rules;
        for (int account = 0; account < ACCOUNTS; account++) {
            for (int asset = 0; asset < rules.assetCount(); asset++) {
                scripted.add(funding("acct-" + account, asset, 20 * depositSize(asset)));
            }
        }
        return this;
    }

    /** A deposit is up to this much of an asset: enough for a few orders of the generator's sizes. */
    private long depositSize(final int asset) {
        for (int symbol = 0; symbol < symbolCount; symbol++) {
            if (risk.quoteAsset(symbol) == asset) {
                return MID * 25 * risk.quoteUnitsPerPriceLot(symbol);
            }
        }
        for (int symbol = 0; symbol < symbolCount; symbol++) {
            if (risk.baseAsset(symbol) == asset) {
                return 25 * risk.baseUnitsPerLot(symbol);
            }
        }
        return 1_000;
    }

    private Command funding(final String account, final int asset, final long amount) {
        final Command command = Command.fund(account, asset, amount, "f-" + ++fundings);
        recentFundings.add(command);
        if (recentFundings.size() > 50) {
            recentFundings.remove(0);
        }
        return command;
    }

    private Command nextFunding() {
        final int roll = random.nextInt(100);
        final int asset = random.nextInt(risk.assetCount());
        final String account = "acct-" + random.nextInt(ACCOUNTS + 1);
        if (roll < 10 && !recentFundings.isEmpty()) {
            final Command original = recentFundings.get(random.nextInt(recentFundings.size()));
            return random.nextBoolean() ? original
                    : Command.fund(original.accountId(), (original.symbol() + 1) % risk.assetCount(),
                            original.quantity(), original.clientOrderId());
        }
        if (roll < 12) {
            return funding(account, asset, RiskRules.MAX_SUPPLY);
        }
        if (roll < 14) {
            // a restart with other fee rates journals them
            final int[] rates = {0, 500, 1_000, 2_500, RiskRules.MAX_FEE_RATE};
            return Command.setFees(random.nextInt(symbolCount), rates[random.nextInt(rates.length)],
                    rates[random.nextInt(rates.length)]);
        }
        if (roll < 35) {
            return funding(account, asset, -(1 + (long) (random.nextDouble() * 3 * depositSize(asset))));
        }
        return funding(account, asset, 1 + (long) (random.nextDouble() * 2 * depositSize(asset)));
    }

    CommandGenerator(final long seed, final int symbolCount) {
        this(seed, symbolCount, EngineConfig.DEFAULTS.dedupWindow());
    }

    /** @param dedupWindow the engine's dedup window, so that the predicted order ids are exact; a fixed mid */
    CommandGenerator(final long seed, final int symbolCount, final int dedupWindow) {
        this(seed, symbolCount, dedupWindow, false);
    }

    /**
     * @param dedupWindow the engine's dedup window, so that the predicted order ids are exact
     * @param driftingMid whether each instrument's mid moves (by up to 20 ticks every 500 commands, between 880 and
     *                    1120): orders left behind end up beyond a price band and MARKET orders run into it. Costly
     *                    under a tight price-level limit (stale levels keep new prices out), so off by default.
     */
    CommandGenerator(final long seed, final int symbolCount, final int dedupWindow, final boolean driftingMid) {
        this.random = new Random(seed);
        this.symbolCount = symbolCount;
        this.dedupWindow = dedupWindow;
        this.driftingMid = driftingMid;
        this.mid = new long[symbolCount];
        java.util.Arrays.fill(mid, MID);
    }

    List<Command> generate(final int count) {
        final List<Command> commands = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            commands.add(next());
        }
        return commands;
    }

    Command next() {
        if (!scripted.isEmpty()) {
            return scripted.poll();
        }
        if (driftingMid && ++generated % DRIFT_INTERVAL == 0) {
            drift();
        }
        if (risk != null && random.nextInt(100) < FUNDING_PERCENT) {
            return nextFunding();
        }
        final int roll = random.nextInt(100);
        if (roll < 33) {
            return Command.cancelOf(cancelTarget());
        }
        if (roll < 41) {
            return amend();
        }
        if (roll < 42) {
            // rare: each one empties a good part of the book; rarer still, a band changes (as a restart with another
            // configuration journals it), among the bands a run is configured with
            final int rare = random.nextInt(100);
            if (rare < 5) {
                return cancelAll();
            }
            if (rare < 9) {
                // a stream connection with cancel on disconnect closed (one of the few each account places through)
                return Command.cancelOnDisconnect("acct-" + random.nextInt(ACCOUNTS), 1 + random.nextInt(SESSIONS));
            }
            if (rare < 7 && bandChanges) {
                final int symbol = random.nextInt(symbolCount);
                final MarketBandRule rule = random.nextInt(4) == 0 ? MarketBandRule.FAR_EDGE_ONLY : MarketBandRule.CURRENT;
                return Command.setPriceBand(symbol, BAND_CHOICES[random.nextInt(BAND_CHOICES.length)], rule);
            }
            if (rare < 7 + THIN_SCENARIO_PERCENT_OF_RARE && thinSymbol >= 0) {
                thinBookScenario();
                return scripted.poll();
            }
            return Command.cancelOf(cancelTarget());
        }
        if (roll < 47 && !recentPlaces.isEmpty()) {
            return placed(retry(recentPlaces.get(random.nextInt(recentPlaces.size()))));
        }
        final String account = "acct-" + random.nextInt(ACCOUNTS);
        final String clientOrderId = random.nextBoolean() ? "c-" + random.nextInt(20_000) : null;
        final int symbol = random.nextInt(thinSymbol >= 0 ? symbolCount - 1 : symbolCount);
        final Side side = random.nextBoolean() ? Side.BUY : Side.SELL;
        final int sign = side == Side.BUY ? -1 : 1;
        final SelfTradePrevention stp = selfTradePrevention();
        final long centre = mid[symbol];
        final Command command;
        if (roll < 88) {
            final long price = centre + sign * (random.nextInt(10) - 2);
            final boolean postOnly = random.nextInt(8) == 0;
            command = Command.place(account, clientOrderId, symbol, side, OrderType.LIMIT, TimeInForce.GTC, postOnly,
                    stp, price, 1 + random.nextInt(10));
        } else if (roll < 90) {
            // far from the mid, around a 5% band's edge: mostly passive, some aggressive; mostly IOC, so that on an
            // instrument without a band they do not fill the book with levels far away
            final int direction = random.nextInt(4) == 0 ? -sign : sign;
            final long price = centre + direction * (35 + random.nextInt(60));
            final int tifRoll = random.nextInt(8);
            final TimeInForce tif = tifRoll == 0 ? TimeInForce.GTC : tifRoll == 1 ? TimeInForce.FOK : TimeInForce.IOC;
            final boolean postOnly = tif == TimeInForce.GTC && random.nextInt(4) == 0;
            command = Command.place(account, clientOrderId, symbol, side, OrderType.LIMIT, tif, postOnly, stp, price,
                    1 + random.nextInt(10));
        } else if (roll < 94) {
            command = Command.place(account, clientOrderId, symbol, side, OrderType.LIMIT, TimeInForce.IOC, false,
                    stp, centre - sign * random.nextInt(6), 1 + random.nextInt(25));
        } else if (roll < 97) {
            final int quantity = random.nextInt(10) == 0 ? 1 + random.nextInt(200) : 1 + random.nextInt(25);
            command = Command.place(account, clientOrderId, symbol, side, OrderType.MARKET, TimeInForce.IOC, false,
                    stp, 0, quantity);
        } else {
            command = Command.place(account, clientOrderId, symbol, side, OrderType.LIMIT, TimeInForce.FOK, false,
                    stp, centre - sign * random.nextInt(6), 1 + random.nextInt(25));
        }
        // a quarter of the orders come through one of an account's stream connections with cancel on disconnect
        final Command through = random.nextInt(4) == 0 ? command.through(1 + random.nextInt(SESSIONS)) : command;
        remember(through);
        return placed(through);
    }

    /**
     * Queues the book of issue 31 on the thin instrument, around its mid {@code c}: an anchor resting at {@code c - j}
     * on one side, a sweeper from the other side at {@code c + k} (j and k up to 12%, so under a band of 3 to 10% it
     * is sometimes refused and sometimes rests beyond the near edge of the band around the anchor's trade) that trades
     * with it and rests its remainder; then what may meet that remainder: a MARKET order of the opposite side (from
     * the sweeper's own account half the time, with any self-trade prevention), then either a LIMIT order priced at
     * the mid or the amend to the mid of an order that rested beyond the sweeper; then, mostly, cancels of what is
     * left. With
     * band changes on, one scenario in three plays under {@link MarketBandRule#FAR_EDGE_ONLY} (a 10% band set under it
     * before, and under the current rule after).
     */
    private void thinBookScenario() {
        final int symbol = thinSymbol;
        final long c = mid[symbol];
        final Side sweeping = random.nextBoolean() ? Side.BUY : Side.SELL;
        final Side resting = sweeping.opposite();
        final int toward = sweeping == Side.BUY ? 1 : -1;
        final long j = random.nextInt(121);
        final long k = random.nextInt(121);
        final String sweeper = "acct-" + random.nextInt(ACCOUNTS);
        final String other = "acct-" + (sweeper.charAt(sweeper.length() - 1) - '0' + 1 + random.nextInt(ACCOUNTS - 1))
                % ACCOUNTS;
        final long anchorQuantity = 1 + random.nextInt(3);
        // now and then under the rule of the builds before issue 31, as a replay of their journal meets it
        final boolean olderRule = bandChanges && random.nextInt(3) == 0;
        if (olderRule) {
            scripted.add(Command.setPriceBand(symbol, THIN_BAND, MarketBandRule.FAR_EDGE_ONLY));
        }
        queue(Command.place(other, null, symbol, resting, OrderType.LIMIT, TimeInForce.GTC, false,
                SelfTradePrevention.NONE, c - toward * j, anchorQuantity));
        final long behind = queue(Command.place(other, null, symbol, resting, OrderType.LIMIT, TimeInForce.GTC, false,
                SelfTradePrevention.NONE, c + toward * (k + 1 + random.nextInt(20)), 1));
        final long sweep = queue(Command.place(sweeper, null, symbol, sweeping, OrderType.LIMIT, TimeInForce.GTC, false,
                selfTradePrevention(), c + toward * k, anchorQuantity + 2 + random.nextInt(5)));
        final String taker = random.nextBoolean() ? sweeper : other;
        queue(Command.place(taker, null, symbol, resting, OrderType.MARKET, TimeInForce.IOC, false,
                SelfTradePrevention.values()[random.nextInt(SelfTradePrevention.values().length)], 0,
                1 + random.nextInt(2)));
        if (random.nextBoolean()) {
            queue(Command.place(other, null, symbol, resting, OrderType.LIMIT,
                    random.nextBoolean() ? TimeInForce.IOC : TimeInForce.GTC, false, SelfTradePrevention.NONE, c, 1));
        } else {
            scripted.add(Command.amend(behind, c, 0));
        }
        if (random.nextInt(5) != 0) {
            scripted.add(Command.cancelOf(sweep));
            scripted.add(Command.cancelOf(behind));
        }
        if (olderRule) {
            scripted.add(Command.setPriceBand(symbol, THIN_BAND, MarketBandRule.CURRENT));
        }
    }

    /** Queues a place without clientOrderId (so it certainly gets a new id). @return that id */
    private long queue(final Command place) {
        scripted.add(placed(place));
        return orders.size();
    }

    /** Half NONE, the other half spread over the three modes. */
    private SelfTradePrevention selfTradePrevention() {
        final int roll = random.nextInt(6);
        return roll < 3 ? SelfTradePrevention.NONE : SelfTradePrevention.values()[roll - 2];
    }

    /** Every few hundred commands each instrument's mid moves by up to 20 ticks, within bounds. */
    private void drift() {
        for (int symbol = 0; symbol < symbolCount; symbol++) {
            mid[symbol] = Math.max(MIN_MID, Math.min(MAX_MID, mid[symbol] + 10L * (random.nextInt(5) - 2)));
        }
    }

    /** Mostly recent ids (likely still resting), some older or final ones, some never assigned. */
    private long cancelTarget() {
        final long last = orders.size();
        final int roll = random.nextInt(100);
        if (roll < 60 && last > 0) {
            return Math.max(1, last - random.nextInt(300));
        }
        if (roll < 85 && last > 0) {
            return Math.max(1, last - random.nextInt(5_000));
        }
        return roll < 95 ? last + 1_000 + random.nextInt(1_000) : -random.nextInt(2);
    }

    private Command amend() {
        final long last = orders.size();
        final int roll = random.nextInt(100);
        final long target;
        if (roll < 70 && last > 0) {
            target = Math.max(1, last - random.nextInt(40));
        } else if (roll < 88 && last > 0) {
            target = Math.max(1, last - random.nextInt(3_000));
        } else {
            target = roll < 96 ? last + 1_000 + random.nextInt(1_000) : -random.nextInt(2);
        }
        if (target <= 0 || target > last) {
            return Command.amend(target, random.nextBoolean() ? 0 : MID, 1 + random.nextInt(10));
        }
        final Command order = orders.get((int) target - 1);
        if (order.type() == OrderType.MARKET) {
            // certainly final: any valid amend
            return Command.amend(target, mid[order.symbol()], 0);
        }
        final long centre = mid[order.symbol()];
        final int sign = order.side() == Side.BUY ? -1 : 1;
        final long crossing = centre - sign * (2 + random.nextInt(8));
        final int kind = order.postOnly() && random.nextBoolean() ? 60 : random.nextInt(100);
        if (kind < 20) {
            // same price (kept or given), at most the original quantity: in place, unless it is at or below the fills
            final long price = random.nextBoolean() ? 0 : order.price();
            return Command.amend(target, price, 1 + random.nextInt((int) order.quantity()));
        }
        if (kind < 35) {
            return Command.amend(target, 0, order.quantity() + 1 + random.nextInt(5));
        }
        if (kind < 55) {
            final long passive = centre + sign * (random.nextInt(10) - 1);
            return Command.amend(target, passive, random.nextBoolean() ? 0 : 1 + random.nextInt(12));
        }
        if (kind < 70) {
            return Command.amend(target, crossing, random.nextBoolean() ? 0 : 1 + random.nextInt(25));
        }
        if (kind < 80) {
            final int direction = random.nextBoolean() ? 1 : -1;
            return Command.amend(target, centre + direction * (40 + random.nextInt(40)), 0);
        }
        if (kind < 90) {
            // small totals: at or below the fills of a partially filled order
            return Command.amend(target, 0, 1 + random.nextInt(2));
        }
        return Command.amend(target, centre + sign * (random.nextInt(12) - 3), 1 + random.nextInt(15));
    }

    /** One instrument or all; sometimes an account that never places (nothing to cancel); mostly CANCEL_ALL. */
    private Command cancelAll() {
        final String account = "acct-" + random.nextInt(ACCOUNTS + 1);
        final int symbol = random.nextBoolean() ? -1 : random.nextInt(symbolCount);
        final RejectReason cause = random.nextInt(3) == 0 ? RejectReason.CANCEL_ALL_AFTER : RejectReason.CANCEL_ALL;
        return Command.cancelAll(account, symbol, cause);
    }

    /** The same order again, or with its quantity or self-trade prevention changed; without clientOrderId it is new. */
    private Command retry(final Command original) {
        final int roll = random.nextInt(6);
        if (roll < 4) {
            return original;
        }
        if (roll == 4) {
            return original.withQuantity(original.quantity() + 1);
        }
        final SelfTradePrevention[] modes = SelfTradePrevention.values();
        return original.withSelfTradePrevention(modes[(original.selfTradePrevention().ordinal() + 1) % modes.length]);
    }

    /** Records the order id the engine will give this place, if it is not a duplicate. @return the command */
    private Command placed(final Command command) {
        if (command.clientOrderId() == null) {
            orders.add(command);
            return command;
        }
        final String pair = command.accountId() + '\u0000' + command.clientOrderId();
        if (!window.containsKey(pair)) {
            orders.add(command);
            window.put(pair, Boolean.TRUE);
            if (window.size() > dedupWindow) {
                window.remove(window.keySet().iterator().next());
            }
        }
        return command;
    }

    private void remember(final Command command) {
        if (recentPlaces.size() < 64) {
            recentPlaces.add(command);
        } else {
            recentPlaces.set(random.nextInt(64), command);
        }
    }
}
