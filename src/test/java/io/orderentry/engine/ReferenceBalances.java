package io.orderentry.engine;

import java.math.BigInteger;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The {@link ReferenceMatcher}'s balances: the rules of {@link Funds} written the plain way, in {@link BigInteger}
 * (so that nothing can overflow or saturate) over maps, for the differential test to compare the matcher's balance
 * events with. Knows nothing of the matcher's tables.
 */
final class ReferenceBalances {

    private static final BigInteger MILLION = BigInteger.valueOf(RiskRules.FEE_RATE_DENOMINATOR);

    private record Funding(String accountId, int asset, long amount, long available, long held, long sequence) {
    }

    private RiskRules rules;
    private final EventSink sink;
    private final LongSupplier nextSequence;
    private final LongSupplier currentSequence;
    /** Per account, per asset: {available, held}. */
    private final Map<String, BigInteger[][]> accounts = new LinkedHashMap<>();
    private final BigInteger[] supply;
    private final Map<String, Funding> fundings = new HashMap<>();

    ReferenceBalances(final RiskRules rules, final EventSink sink, final LongSupplier nextSequence,
                      final LongSupplier currentSequence) {
        this.rules = rules;
        this.sink = sink;
        this.nextSequence = nextSequence;
        this.currentSequence = currentSequence;
        this.supply = new BigInteger[rules.assetCount()];
        java.util.Arrays.fill(supply, BigInteger.ZERO);
    }

    /** @return true for the orders that hold when placed: every LIMIT, and a MARKET SELL */
    static boolean holds(final OrderType type, final Side side) {
        return type == OrderType.LIMIT || side == Side.SELL;
    }

    int heldAsset(final int symbol, final Side side) {
        return side == Side.BUY ? rules.quoteAsset(symbol) : rules.baseAsset(symbol);
    }

    BigInteger required(final int symbol, final Side side, final long price, final long quantity) {
        return side == Side.BUY
                ? BigInteger.valueOf(price).multiply(BigInteger.valueOf(quantity))
                        .multiply(BigInteger.valueOf(rules.quoteUnitsPerPriceLot(symbol)))
                : BigInteger.valueOf(quantity).multiply(BigInteger.valueOf(rules.baseUnitsPerLot(symbol)));
    }

    boolean covers(final String accountId, final int asset, final BigInteger amount) {
        final BigInteger[][] balances = accounts.get(accountId);
        return balances != null && balances[asset][0].compareTo(amount) >= 0;
    }

    /** Holds a positive amount, releases a negative one. */
    void hold(final long ts, final String accountId, final long orderId, final int asset, final BigInteger amount) {
        if (amount.signum() != 0) {
            change(ts, accountId, asset, amount.negate(), amount, BigInteger.ZERO,
                    amount.signum() > 0 ? BalanceCause.HOLD : BalanceCause.RELEASE, orderId, 0, null);
        }
    }

    void release(final long ts, final String accountId, final long orderId, final int symbol, final Side side,
                 final long price, final long remaining) {
        if (remaining > 0) {
            hold(ts, accountId, orderId, heldAsset(symbol, side), required(symbol, side, price, remaining).negate());
        }
    }

    long affordable(final String accountId, final int symbol, final long price) {
        final BigInteger[][] balances = accounts.get(accountId);
        if (balances == null) {
            return 0;
        }
        return balances[rules.quoteAsset(symbol)][0]
                .divide(BigInteger.valueOf(price).multiply(BigInteger.valueOf(rules.quoteUnitsPerPriceLot(symbol))))
                .longValueExact();
    }

    /** One trade: the taker's paid and received assets, the maker's, then the fees. */
    void settle(final long ts, final long tradeId, final int symbol, final long price, final long quantity,
                final Side takerSide, final String taker, final long takerOrderId, final long takerLimit,
                final String maker, final long makerOrderId) {
        final BigInteger notional = required(symbol, Side.BUY, price, quantity);
        final BigInteger base = required(symbol, Side.SELL, price, quantity);
        final int baseAsset = rules.baseAsset(symbol);
        final int quoteAsset = rules.quoteAsset(symbol);
        final boolean takerBuys = takerSide == Side.BUY;
        final BigInteger takerGets = takerBuys ? base : notional;
        final BigInteger makerGets = takerBuys ? notional : base;
        final BigInteger takerFee = takerGets.multiply(BigInteger.valueOf(rules.takerFeeRate(symbol))).divide(MILLION);
        final BigInteger makerFee = makerGets.multiply(BigInteger.valueOf(rules.makerFeeRate(symbol))).divide(MILLION);
        final int takerPays = takerBuys ? quoteAsset : baseAsset;
        final int takerReceives = takerBuys ? baseAsset : quoteAsset;
        // the taker pays
        if (takerBuys && takerLimit == 0) {
            change(ts, taker, takerPays, notional.negate(), BigInteger.ZERO, BigInteger.ZERO, BalanceCause.TRADE,
                    takerOrderId, tradeId, null);
        } else if (takerBuys) {
            final BigInteger held = required(symbol, Side.BUY, takerLimit, quantity);
            change(ts, taker, takerPays, held.subtract(notional), held.negate(), BigInteger.ZERO, BalanceCause.TRADE,
                    takerOrderId, tradeId, null);
        } else {
            change(ts, taker, takerPays, BigInteger.ZERO, base.negate(), BigInteger.ZERO, BalanceCause.TRADE,
                    takerOrderId, tradeId, null);
        }
        change(ts, taker, takerReceives, takerGets.subtract(takerFee), BigInteger.ZERO, takerFee, BalanceCause.TRADE,
                takerOrderId, tradeId, null);
        // the maker pays from what it held at its own price, which is the trade's
        change(ts, maker, takerReceives, BigInteger.ZERO, (takerBuys ? base : notional).negate(), BigInteger.ZERO,
                BalanceCause.TRADE, makerOrderId, tradeId, null);
        change(ts, maker, takerPays, makerGets.subtract(makerFee), BigInteger.ZERO, makerFee, BalanceCause.TRADE,
                makerOrderId, tradeId, null);
        if (takerFee.signum() > 0) {
            change(ts, rules.feeAccount(), takerReceives, takerFee, BigInteger.ZERO, BigInteger.ZERO, BalanceCause.FEE,
                    takerOrderId, tradeId, null);
        }
        if (makerFee.signum() > 0) {
            change(ts, rules.feeAccount(), takerPays, makerFee, BigInteger.ZERO, BigInteger.ZERO, BalanceCause.FEE,
                    makerOrderId, tradeId, null);
        }
    }

    void fund(final long ts, final String accountId, final int asset, final long amount, final String reference) {
        final Funding known = fundings.get(reference);
        if (known != null) {
            final boolean same = known.accountId().equals(accountId) && known.asset() == asset
                    && known.amount() == amount;
            sink.fundingCompleted(same ? CommandResult.FUNDING_DUPLICATE : CommandResult.FUNDING_MISMATCH,
                    known.accountId(), known.asset(), known.available(), known.held(), known.sequence());
            return;
        }
        final BigInteger[][] balances = accounts.get(accountId);
        final BigInteger available = balances == null ? BigInteger.ZERO : balances[asset][0];
        final BigInteger held = balances == null ? BigInteger.ZERO : balances[asset][1];
        final BigInteger change = BigInteger.valueOf(amount);
        if (available.add(change).signum() < 0) {
            sink.fundingCompleted(CommandResult.INSUFFICIENT_BALANCE, accountId, asset, available.longValueExact(),
                    held.longValueExact(), 0);
            return;
        }
        if (supply[asset].add(change).compareTo(BigInteger.valueOf(RiskRules.MAX_SUPPLY)) > 0) {
            sink.fundingCompleted(CommandResult.BALANCE_LIMIT_EXCEEDED, accountId, asset, available.longValueExact(),
                    held.longValueExact(), 0);
            return;
        }
        supply[asset] = supply[asset].add(change);
        change(ts, accountId, asset, change, BigInteger.ZERO, BigInteger.ZERO,
                amount > 0 ? BalanceCause.DEPOSIT : BalanceCause.WITHDRAWAL, 0, 0, reference);
        final BigInteger[] after = accounts.get(accountId)[asset];
        final Funding done = new Funding(accountId, asset, amount, after[0].longValueExact(),
                after[1].longValueExact(), currentSequence.getAsLong());
        fundings.put(reference, done);
        sink.fundingCompleted(CommandResult.FUNDED, accountId, asset, done.available(), done.held(), done.sequence());
    }

    void setFees(final int symbol, final int maker, final int taker) {
        rules = rules.withFees(symbol, maker, taker);
    }

    long available(final String accountId, final int asset) {
        final BigInteger[][] balances = accounts.get(accountId);
        return balances == null ? 0 : balances[asset][0].longValueExact();
    }

    long held(final String accountId, final int asset) {
        final BigInteger[][] balances = accounts.get(accountId);
        return balances == null ? 0 : balances[asset][1].longValueExact();
    }

    long sum(final int asset) {
        BigInteger sum = BigInteger.ZERO;
        for (final BigInteger[][] balances : accounts.values()) {
            sum = sum.add(balances[asset][0]).add(balances[asset][1]);
        }
        return sum.longValueExact();
    }

    long supply(final int asset) {
        return supply[asset].longValueExact();
    }

    /**
     * @param resting per resting order {symbol, side ordinal, price, remaining} and its account
     * @throws AssertionError when a balance is negative, does not add up to the supply or is not what the orders hold
     */
    void check(final List<Map.Entry<String, long[]>> resting) {
        final Map<String, BigInteger[]> expected = new HashMap<>();
        for (final Map.Entry<String, long[]> order : resting) {
            final long[] o = order.getValue();
            final Side side = Side.values()[(int) o[1]];
            final BigInteger[] held = expected.computeIfAbsent(order.getKey(), a -> zeros());
            final int asset = heldAsset((int) o[0], side);
            held[asset] = held[asset].add(required((int) o[0], side, o[2], o[3]));
        }
        for (final Map.Entry<String, BigInteger[][]> account : accounts.entrySet()) {
            final BigInteger[] held = expected.getOrDefault(account.getKey(), zeros());
            for (int asset = 0; asset < rules.assetCount(); asset++) {
                final BigInteger[] balance = account.getValue()[asset];
                if (balance[0].signum() < 0 || !balance[1].equals(held[asset])) {
                    throw new AssertionError(account.getKey() + " asset " + asset + ": available " + balance[0]
                            + ", held " + balance[1] + ", its orders hold " + held[asset]);
                }
            }
        }
        for (int asset = 0; asset < rules.assetCount(); asset++) {
            if (sum(asset) != supply(asset)) {
                throw new AssertionError("asset " + asset + " adds up to " + sum(asset) + ", supply " + supply(asset));
            }
        }
    }

    private BigInteger[] zeros() {
        final BigInteger[] zeros = new BigInteger[rules.assetCount()];
        java.util.Arrays.fill(zeros, BigInteger.ZERO);
        return zeros;
    }

    private void change(final long ts, final String accountId, final int asset, final BigInteger availableChange,
                        final BigInteger heldChange, final BigInteger fee, final BalanceCause cause,
                        final long orderId, final long tradeId, final String reference) {
        final BigInteger[][] balances = accounts.computeIfAbsent(accountId, a -> {
            final BigInteger[][] fresh = new BigInteger[rules.assetCount()][];
            for (int i = 0; i < fresh.length; i++) {
                fresh[i] = new BigInteger[] {BigInteger.ZERO, BigInteger.ZERO};
            }
            return fresh;
        });
        balances[asset][0] = balances[asset][0].add(availableChange);
        balances[asset][1] = balances[asset][1].add(heldChange);
        sink.balanceChanged(nextSequence.getAsLong(), ts, accountId, asset, balances[asset][0].longValueExact(),
                balances[asset][1].longValueExact(), availableChange.longValueExact(), heldChange.longValueExact(),
                fee.longValueExact(), cause, orderId, tradeId, reference);
    }
}
