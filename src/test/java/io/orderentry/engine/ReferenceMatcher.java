package io.orderentry.engine;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A deliberately naive engine with the same contract as the {@link Matcher}, written to be obviously
 * correct rather than fast: the resting orders of each book side in one list in arrival order (so the
 * list order is the time priority), every question answered by a linear scan, the dedup window an
 * insertion-ordered map that drops its eldest entry, band arithmetic in {@link BigInteger}.
 *
 * <p>Written from the engine contract of issue 15 (amend, cancel-all, self-trade prevention, price
 * bands), independently of the {@link Matcher}'s code, so that the differential test compares two
 * independent readings of the same contract.
 */
final class ReferenceMatcher implements OrderEngine {

    private static final BigInteger TEN_THOUSAND = BigInteger.valueOf(10_000);

    private static final class Resting {
        long orderId;
        String accountId;
        int symbol;
        Side side;
        boolean postOnly;
        SelfTradePrevention stp;
        long price;
        long quantity;
        long filled;
        long session;
    }

    private record Pair(String accountId, String clientOrderId) {
    }

    private record Remembered(long orderId, int symbol, Side side, OrderType type, TimeInForce timeInForce,
                              boolean postOnly, SelfTradePrevention stp, long price, long quantity) {
    }

    /** The order that is matching: an arriving order, or an amended one handled like an arriving GTC LIMIT. */
    private static final class Taker {
        long orderId;
        String accountId;
        int symbol;
        Side side;
        OrderType type;
        SelfTradePrevention stp;
        long price;
        long quantity;
        long filled;
        /** Set when self-trade prevention stopped it. */
        boolean stoppedBySelfTrade;
        /** Set when a MARKET BUY's available quote paid for no more. */
        boolean stoppedByFunds;
    }

    private final int symbolCount;
    private final EngineConfig limits;
    private final int[] bands;
    /** Per instrument: how its band bounds MARKET orders. */
    private final MarketBandRule[] rules;
    private final EventSink sink;
    private final List<List<Resting>> sides = new ArrayList<>();
    private final long[] lastTradePrice;
    private final LinkedHashMap<Pair, Remembered> window = new LinkedHashMap<>();
    private long lastOrderId;
    private long lastTradeId;
    private long lastSequence;
    /** The balances, or null without risk rules. */
    private final ReferenceBalances balances;

    /** No price band on any instrument. */
    ReferenceMatcher(final int symbolCount, final EngineConfig limits, final EventSink sink) {
        this(symbolCount, limits, new int[symbolCount], sink);
    }

    /** @param priceBandBasisPoints per instrument, the band in basis points (1000 = 10%); 0 = no band */
    ReferenceMatcher(final int symbolCount, final EngineConfig limits, final int[] priceBandBasisPoints,
                     final EventSink sink) {
        this(symbolCount, limits, priceBandBasisPoints, null, sink);
    }

    /** @param risk the balances' rules, null for none */
    ReferenceMatcher(final int symbolCount, final EngineConfig limits, final int[] priceBandBasisPoints,
                     final RiskRules risk, final EventSink sink) {
        this.balances = risk == null ? null : new ReferenceBalances(risk, sink, () -> ++lastSequence,
                () -> lastSequence);
        if (priceBandBasisPoints.length != symbolCount) {
            throw new IllegalArgumentException("one band per instrument");
        }
        for (final int band : priceBandBasisPoints) {
            if (band < 0) {
                throw new IllegalArgumentException("negative band");
            }
        }
        this.symbolCount = symbolCount;
        this.limits = limits;
        this.bands = priceBandBasisPoints.clone();
        this.rules = new MarketBandRule[symbolCount];
        Arrays.fill(rules, MarketBandRule.CURRENT);
        this.sink = sink;
        this.lastTradePrice = new long[symbolCount];
        for (int i = 0; i < symbolCount * 2; i++) {
            sides.add(new ArrayList<>());
        }
    }

    @Override
    public void place(final long ts, final String accountId, final String clientOrderId, final int symbol,
                      final Side side, final OrderType type, final TimeInForce tif, final boolean postOnly,
                      final SelfTradePrevention stp, final long price, final long quantity, final long session) {
        final boolean valid = accountId != null && side != null && type != null && tif != null && stp != null
                && symbol >= 0 && symbol < symbolCount && quantity > 0
                && (type == OrderType.LIMIT ? price > 0 : price == 0 && tif == TimeInForce.IOC)
                && (!postOnly || type == OrderType.LIMIT && tif == TimeInForce.GTC);
        if (!valid) {
            throw new IllegalArgumentException("invalid order");
        }
        final Pair pair = new Pair(accountId, clientOrderId);
        final Remembered original = clientOrderId == null ? null : window.get(pair);
        if (original != null) {
            final boolean same = original.equals(new Remembered(original.orderId(), symbol, side, type, tif, postOnly,
                    stp, price, quantity));
            sink.commandCompleted(same ? CommandResult.DUPLICATE : CommandResult.DUPLICATE_MISMATCH, original.orderId());
            return;
        }
        final long orderId = ++lastOrderId;
        if (clientOrderId != null) {
            window.put(pair, new Remembered(orderId, symbol, side, type, tif, postOnly, stp, price, quantity));
            if (window.size() > limits.dedupWindow()) {
                window.remove(window.keySet().iterator().next());
            }
        }
        sink.orderAccepted(++lastSequence, ts, orderId, accountId, clientOrderId, symbol, side, type, tif, postOnly,
                price, quantity);

        // The band's reference is taken on arrival, before anything below changes the book or the last trade.
        final BigInteger reference = doubledReference(symbol);
        RejectReason reject = RejectReason.NONE;
        long available = 0;
        if (type == OrderType.LIMIT && outsideBand(symbol, reference, price)) {
            reject = RejectReason.PRICE_OUTSIDE_BAND;
        } else {
            available = availableTo(symbol, side, accountId, stp, type, price);
            if (postOnly && crossesAnything(symbol, side, price)) {
                reject = RejectReason.POST_ONLY_WOULD_CROSS;
            } else if (tif == TimeInForce.GTC && available < quantity) {
                if (openOrders(accountId) >= limits.maxOpenOrdersPerAccount()) {
                    reject = RejectReason.TOO_MANY_OPEN_ORDERS;
                } else if (!hasPrice(symbol, side, price, null)
                        && distinctPrices(symbol, side, null) >= limits.maxPriceLevelsPerSide()) {
                    reject = RejectReason.TOO_MANY_PRICE_LEVELS;
                } else if (restingOrderCount() >= limits.maxRestingOrders()) {
                    reject = RejectReason.BOOK_CAPACITY_REACHED;
                }
            }
        }
        final boolean holds = balances != null && ReferenceBalances.holds(type, side);
        if (reject == RejectReason.NONE && holds && !balances.covers(accountId, balances.heldAsset(symbol, side),
                balances.required(symbol, side, price, quantity))) {
            reject = RejectReason.INSUFFICIENT_BALANCE;
        }
        long filled = 0;
        long remaining = 0;
        OrderStatus status;
        if (reject != RejectReason.NONE) {
            status = OrderStatus.REJECTED;
        } else if (tif == TimeInForce.FOK && available < quantity) {
            status = OrderStatus.EXPIRED;
        } else {
            if (holds) {
                balances.hold(ts, accountId, orderId, balances.heldAsset(symbol, side),
                        balances.required(symbol, side, price, quantity));
            }
            final Taker taker = new Taker();
            taker.orderId = orderId;
            taker.accountId = accountId;
            taker.symbol = symbol;
            taker.side = side;
            taker.type = type;
            taker.stp = stp;
            taker.price = price;
            taker.quantity = quantity;
            match(ts, taker, reference);
            filled = taker.filled;
            final boolean rests = filled < quantity && !taker.stoppedBySelfTrade && tif == TimeInForce.GTC;
            if (holds && !rests) {
                balances.release(ts, accountId, orderId, symbol, side, price, quantity - filled);
            }
            if (filled == quantity) {
                status = OrderStatus.FILLED;
            } else if (taker.stoppedBySelfTrade) {
                status = OrderStatus.EXPIRED;
                reject = RejectReason.SELF_TRADE_PREVENTED;
            } else if (tif == TimeInForce.GTC) {
                final Resting order = new Resting();
                order.orderId = orderId;
                order.accountId = accountId;
                order.symbol = symbol;
                order.side = side;
                order.postOnly = postOnly;
                order.stp = stp;
                order.price = price;
                order.quantity = quantity;
                order.filled = filled;
                order.session = session;
                side(symbol, side).add(order);
                remaining = quantity - filled;
                status = filled == 0 ? OrderStatus.NEW : OrderStatus.PARTIALLY_FILLED;
            } else {
                status = OrderStatus.EXPIRED;
                if (taker.stoppedByFunds) {
                    reject = RejectReason.INSUFFICIENT_BALANCE;
                } else if (type == OrderType.MARKET && !side(symbol, side.opposite()).isEmpty()) {
                    // liquidity was left that the band kept it from
                    reject = RejectReason.PRICE_OUTSIDE_BAND;
                }
            }
        }
        sink.orderUpdated(++lastSequence, ts, orderId, accountId, symbol, side, price, quantity, filled, remaining,
                status, reject);
        sink.commandCompleted(CommandResult.PLACED, orderId);
    }

    @Override
    public void cancel(final long ts, final long orderId) {
        final Resting order = resting(orderId);
        if (order != null) {
            side(order.symbol, order.side).remove(order);
            sink.orderUpdated(++lastSequence, ts, orderId, order.accountId, order.symbol, order.side, order.price,
                    order.quantity, order.filled, 0, OrderStatus.CANCELED, RejectReason.NONE);
            releaseCanceled(ts, order);
            sink.commandCompleted(CommandResult.CANCELED, orderId);
            return;
        }
        sink.commandCompleted(notResting(orderId), orderId);
    }

    @Override
    public void amend(final long ts, final long orderId, final long newPrice, final long newQuantity) {
        if (newPrice < 0 || newQuantity < 0 || newPrice == 0 && newQuantity == 0) {
            throw new IllegalArgumentException("invalid amend");
        }
        final Resting order = resting(orderId);
        if (order == null) {
            sink.commandCompleted(notResting(orderId), orderId);
            return;
        }
        final long price = newPrice == 0 ? order.price : newPrice;
        final long quantity = newQuantity == 0 ? order.quantity : newQuantity;
        if (quantity <= order.filled) {
            sink.commandCompleted(CommandResult.QUANTITY_NOT_ABOVE_FILLED, orderId);
            return;
        }
        final boolean newPriceAsked = price != order.price;
        // the reference is taken with the order still where it is
        if (newPriceAsked && outsideBand(order.symbol, doubledReference(order.symbol), price)) {
            sink.commandCompleted(CommandResult.PRICE_OUTSIDE_BAND, orderId);
            return;
        }
        if (newPriceAsked
                && distinctPrices(order.symbol, order.side, order) >= limits.maxPriceLevelsPerSide()
                && !hasPrice(order.symbol, order.side, price, order)
                && availableTo(order.symbol, order.side, order.accountId, order.stp, OrderType.LIMIT, price)
                        < quantity - order.filled) {
            sink.commandCompleted(CommandResult.TOO_MANY_PRICE_LEVELS, orderId);
            return;
        }
        final long previousPrice = order.price;
        final long previousQuantity = order.quantity;
        final java.math.BigInteger holdChange = balances == null ? java.math.BigInteger.ZERO
                : balances.required(order.symbol, order.side, price, quantity - order.filled)
                        .subtract(balances.required(order.symbol, order.side, previousPrice,
                                previousQuantity - order.filled));
        if (holdChange.signum() > 0 && !balances.covers(order.accountId, balances.heldAsset(order.symbol, order.side),
                holdChange)) {
            sink.commandCompleted(CommandResult.INSUFFICIENT_BALANCE, orderId);
            return;
        }
        final boolean keptPriority = !newPriceAsked && quantity <= order.quantity;
        if (keptPriority) {
            order.quantity = quantity;
            sink.orderAmended(++lastSequence, ts, orderId, order.accountId, order.symbol, order.side, price, quantity,
                    order.filled, previousPrice, previousQuantity, true);
            if (balances != null) {
                balances.hold(ts, order.accountId, orderId, balances.heldAsset(order.symbol, order.side), holdChange);
            }
            sink.orderUpdated(++lastSequence, ts, orderId, order.accountId, order.symbol, order.side, price, quantity,
                    order.filled, quantity - order.filled,
                    order.filled == 0 ? OrderStatus.NEW : OrderStatus.PARTIALLY_FILLED, RejectReason.NONE);
            sink.commandCompleted(CommandResult.AMENDED, orderId);
            return;
        }
        side(order.symbol, order.side).remove(order);
        sink.orderAmended(++lastSequence, ts, orderId, order.accountId, order.symbol, order.side, price, quantity,
                order.filled, previousPrice, previousQuantity, false);
        if (balances != null) {
            balances.hold(ts, order.accountId, orderId, balances.heldAsset(order.symbol, order.side), holdChange);
        }
        order.price = price;
        order.quantity = quantity;
        long remaining = 0;
        OrderStatus status;
        RejectReason reason = RejectReason.NONE;
        if (order.postOnly && crossesAnything(order.symbol, order.side, price)) {
            status = OrderStatus.REJECTED;
            reason = RejectReason.POST_ONLY_WOULD_CROSS;
            releaseCanceled(ts, order);
        } else {
            final Taker taker = new Taker();
            taker.orderId = orderId;
            taker.accountId = order.accountId;
            taker.symbol = order.symbol;
            taker.side = order.side;
            taker.type = OrderType.LIMIT;
            taker.stp = order.stp;
            taker.price = price;
            taker.quantity = quantity;
            taker.filled = order.filled;
            match(ts, taker, null);
            order.filled = taker.filled;
            if (order.filled == quantity) {
                status = OrderStatus.FILLED;
            } else if (taker.stoppedBySelfTrade) {
                status = OrderStatus.EXPIRED;
                reason = RejectReason.SELF_TRADE_PREVENTED;
                releaseCanceled(ts, order);
            } else {
                side(order.symbol, order.side).add(order);
                remaining = quantity - order.filled;
                status = order.filled == 0 ? OrderStatus.NEW : OrderStatus.PARTIALLY_FILLED;
            }
        }
        sink.orderUpdated(++lastSequence, ts, orderId, order.accountId, order.symbol, order.side, price, quantity,
                order.filled, remaining, status, reason);
        sink.commandCompleted(CommandResult.AMENDED, orderId);
    }

    @Override
    public void setPriceBand(final long ts, final int symbol, final int basisPoints, final MarketBandRule rule) {
        if (symbol < 0 || symbol >= symbolCount || basisPoints < 0 || basisPoints >= 10_000 || rule == null) {
            throw new IllegalArgumentException("invalid price band");
        }
        bands[symbol] = basisPoints;
        rules[symbol] = rule;
        sink.commandCompleted(CommandResult.PRICE_BAND_SET, 0);
    }

    @Override
    public void cancelAll(final long ts, final String accountId, final int symbol, final RejectReason cause) {
        if (accountId == null || symbol < -1 || symbol >= symbolCount
                || cause != RejectReason.CANCEL_ALL && cause != RejectReason.CANCEL_ALL_AFTER) {
            throw new IllegalArgumentException("invalid cancel-all");
        }
        final List<Resting> victims = new ArrayList<>();
        for (final Resting o : allResting()) {
            if (o.accountId.equals(accountId) && (symbol == -1 || o.symbol == symbol)) {
                victims.add(o);
            }
        }
        victims.sort(Comparator.comparingLong(o -> o.orderId));
        for (final Resting o : victims) {
            side(o.symbol, o.side).remove(o);
            sink.orderUpdated(++lastSequence, ts, o.orderId, o.accountId, o.symbol, o.side, o.price, o.quantity,
                    o.filled, 0, OrderStatus.CANCELED, cause);
            releaseCanceled(ts, o);
        }
        sink.commandCompleted(CommandResult.CANCELED_ALL, 0);
    }

    @Override
    public void cancelOnDisconnect(final long ts, final String accountId, final long session) {
        if (accountId == null || session == 0) {
            throw new IllegalArgumentException("invalid cancel on disconnect");
        }
        final List<Resting> victims = new ArrayList<>();
        for (final Resting o : allResting()) {
            if (o.accountId.equals(accountId) && o.session == session) {
                victims.add(o);
            }
        }
        victims.sort(Comparator.comparingLong(o -> o.orderId));
        for (final Resting o : victims) {
            side(o.symbol, o.side).remove(o);
            sink.orderUpdated(++lastSequence, ts, o.orderId, o.accountId, o.symbol, o.side, o.price, o.quantity,
                    o.filled, 0, OrderStatus.CANCELED, RejectReason.CANCEL_ON_DISCONNECT);
            releaseCanceled(ts, o);
        }
        sink.commandCompleted(CommandResult.CANCELED_ALL, 0);
    }

    @Override
    public long lastOrderId() {
        return lastOrderId;
    }

    @Override
    public long lastTradeId() {
        return lastTradeId;
    }

    @Override
    public long lastEventSequence() {
        return lastSequence;
    }

    @Override
    public int restingOrderCount() {
        return allResting().size();
    }

    @Override
    public void forEachLevel(final int symbol, final Side side, final LevelVisitor visitor) {
        for (final Level level : levels(symbol, side)) {
            visitor.level(level.price(), level.totalQuantity(), level.orderCount());
        }
    }

    @Override
    public void checkInvariants() {
        BookInvariants.check(this, symbolCount, limits);
        if (balances != null) {
            final List<java.util.Map.Entry<String, long[]>> resting = new ArrayList<>();
            for (final Resting o : allResting()) {
                resting.add(java.util.Map.entry(o.accountId,
                        new long[] {o.symbol, o.side.ordinal(), o.price, o.quantity - o.filled}));
            }
            balances.check(resting);
        }
    }

    /** Levels built from scratch: group the resting orders by price, best price first. */
    @Override
    public List<Level> levels(final int symbol, final Side side) {
        final Comparator<Long> bestFirst = side == Side.BUY ? Comparator.reverseOrder() : Comparator.naturalOrder();
        final Map<Long, Level> byPrice = new TreeMap<>(bestFirst);
        for (final Resting o : side(symbol, side)) {
            byPrice.merge(o.price, new Level(o.price, o.quantity - o.filled, 1),
                    (a, b) -> new Level(a.price(), a.totalQuantity() + b.totalQuantity(), a.orderCount() + 1));
        }
        return new ArrayList<>(byPrice.values());
    }

    /**
     * Trades the taker against the makers it reaches, best price first, oldest first, applying self-trade
     * prevention before each maker of its own account.
     *
     * @param reference the doubled band reference taken on the command's arrival (only MARKET orders use it;
     *                  null when the taker is a LIMIT order)
     */
    private void match(final long ts, final Taker taker, final BigInteger reference) {
        Resting maker;
        while (taker.filled < taker.quantity && (maker = nextMaker(taker, reference)) != null) {
            if (taker.stp != SelfTradePrevention.NONE && maker.accountId.equals(taker.accountId)) {
                if (taker.stp == SelfTradePrevention.EXPIRE_MAKER || taker.stp == SelfTradePrevention.EXPIRE_BOTH) {
                    side(maker.symbol, maker.side).remove(maker);
                    sink.orderUpdated(++lastSequence, ts, maker.orderId, maker.accountId, maker.symbol, maker.side,
                            maker.price, maker.quantity, maker.filled, 0, OrderStatus.CANCELED,
                            RejectReason.SELF_TRADE_PREVENTED);
                    releaseCanceled(ts, maker);
                }
                if (taker.stp == SelfTradePrevention.EXPIRE_TAKER || taker.stp == SelfTradePrevention.EXPIRE_BOTH) {
                    taker.stoppedBySelfTrade = true;
                    return;
                }
                continue;
            }
            long traded = Math.min(taker.quantity - taker.filled, maker.quantity - maker.filled);
            if (balances != null && taker.side == Side.BUY && taker.type == OrderType.MARKET) {
                traded = Math.min(traded, balances.affordable(taker.accountId, taker.symbol, maker.price));
                if (traded == 0) {
                    taker.stoppedByFunds = true;
                    return;
                }
            }
            taker.filled += traded;
            maker.filled += traded;
            lastTradePrice[taker.symbol] = maker.price;
            final boolean done = maker.filled == maker.quantity;
            sink.trade(++lastSequence, ts, ++lastTradeId, taker.symbol, maker.price, traded, taker.side, taker.orderId,
                    taker.accountId, taker.filled, maker.orderId, maker.accountId, maker.filled,
                    done ? OrderStatus.FILLED : OrderStatus.PARTIALLY_FILLED);
            if (balances != null) {
                balances.settle(ts, lastTradeId, taker.symbol, maker.price, traded, taker.side, taker.accountId,
                        taker.orderId, taker.type == OrderType.MARKET ? 0 : taker.price, maker.accountId,
                        maker.orderId);
            }
            if (done) {
                side(maker.symbol, maker.side).remove(maker);
            }
        }
    }

    /** Returns what a resting order (just removed from the book) held for its remainder. */
    private void releaseCanceled(final long ts, final Resting order) {
        if (balances != null) {
            balances.release(ts, order.accountId, order.orderId, order.symbol, order.side, order.price,
                    order.quantity - order.filled);
        }
    }

    @Override
    public void fund(final long ts, final String accountId, final int asset, final long amount,
                     final String reference) {
        if (balances == null || amount == 0) {
            throw new IllegalArgumentException("invalid funding");
        }
        balances.fund(ts, accountId, asset, amount, reference);
    }

    @Override
    public void setFees(final long ts, final int symbol, final int makerFeeRate, final int takerFeeRate) {
        if (balances == null || symbol < 0 || symbol >= symbolCount) {
            throw new IllegalArgumentException("invalid fees");
        }
        balances.setFees(symbol, makerFeeRate, takerFeeRate);
        sink.commandCompleted(CommandResult.FEES_SET, 0);
    }

    @Override
    public long available(final String accountId, final int asset) {
        return balances == null ? 0 : balances.available(accountId, asset);
    }

    @Override
    public long held(final String accountId, final int asset) {
        return balances == null ? 0 : balances.held(accountId, asset);
    }

    @Override
    public long balanceSum(final int asset) {
        return balances == null ? 0 : balances.sum(asset);
    }

    @Override
    public long supply(final int asset) {
        return balances == null ? 0 : balances.supply(asset);
    }

    private List<Resting> side(final int symbol, final Side side) {
        return sides.get(symbol * 2 + side.ordinal());
    }

    private List<Resting> allResting() {
        final List<Resting> all = new ArrayList<>();
        sides.forEach(all::addAll);
        return all;
    }

    private Resting resting(final long orderId) {
        for (final Resting order : allResting()) {
            if (order.orderId == orderId) {
                return order;
            }
        }
        return null;
    }

    private CommandResult notResting(final long orderId) {
        final boolean known = orderId > 0 && orderId <= lastOrderId;
        return known ? CommandResult.ORDER_NOT_OPEN : CommandResult.ORDER_NOT_FOUND;
    }

    /**
     * @return twice the reference price of the band: twice the last trade price, else best bid plus best ask;
     *         null when there is none (never traded and a side empty)
     */
    private BigInteger doubledReference(final int symbol) {
        if (lastTradePrice[symbol] > 0) {
            return BigInteger.valueOf(lastTradePrice[symbol]).multiply(BigInteger.TWO);
        }
        final List<Level> bids = levels(symbol, Side.BUY);
        final List<Level> asks = levels(symbol, Side.SELL);
        if (bids.isEmpty() || asks.isEmpty()) {
            return null;
        }
        return BigInteger.valueOf(bids.get(0).price()).add(BigInteger.valueOf(asks.get(0).price()));
    }

    /** @return the band's half width on the doubled scale, floor(reference2 * band / 10000); null when no band */
    private BigInteger doubledHalfWidth(final int symbol, final BigInteger reference) {
        if (bands[symbol] == 0 || reference == null) {
            return null;
        }
        return reference.multiply(BigInteger.valueOf(bands[symbol])).divide(TEN_THOUSAND);
    }

    private boolean outsideBand(final int symbol, final BigInteger reference, final long price) {
        final BigInteger halfWidth = doubledHalfWidth(symbol, reference);
        if (halfWidth == null) {
            return false;
        }
        final BigInteger distance = BigInteger.valueOf(price).multiply(BigInteger.TWO).subtract(reference).abs();
        return distance.compareTo(halfWidth) > 0;
    }

    /** @return whether a MARKET order of this side may trade at this maker price under the band */
    private boolean marketMayTradeAt(final int symbol, final Side side, final BigInteger reference, final long price) {
        final BigInteger halfWidth = doubledHalfWidth(symbol, reference);
        if (halfWidth == null) {
            return true;
        }
        final BigInteger doubled = BigInteger.valueOf(price).multiply(BigInteger.TWO);
        return side == Side.BUY
                ? doubled.compareTo(reference.add(halfWidth)) <= 0
                : doubled.compareTo(reference.subtract(halfWidth)) >= 0;
    }

    /** @return whether an incoming order with this side, type and price may trade with the resting one */
    private boolean reaches(final Resting maker, final Side side, final OrderType type, final long price,
                            final BigInteger reference) {
        if (type == OrderType.MARKET) {
            return marketMayTradeAt(maker.symbol, side, reference, maker.price);
        }
        return side == Side.BUY ? maker.price <= price : maker.price >= price;
    }

    /** @return whether a LIMIT order at this price would cross any resting order, whoever's */
    private boolean crossesAnything(final int symbol, final Side side, final long price) {
        for (final Resting o : side(symbol, side.opposite())) {
            if (reaches(o, side, OrderType.LIMIT, price, null)) {
                return true;
            }
        }
        return false;
    }

    /**
     * What an incoming LIMIT order could fill on arrival. With self-trade prevention the makers it reaches are
     * walked in priority order: one of its own account is skipped for EXPIRE_MAKER and ends the walk for
     * EXPIRE_TAKER and EXPIRE_BOTH. MARKET orders never ask (they are IOC).
     */
    private long availableTo(final int symbol, final Side side, final String accountId, final SelfTradePrevention stp,
                             final OrderType type, final long price) {
        if (type == OrderType.MARKET) {
            return 0;
        }
        final List<Resting> reachable = new ArrayList<>();
        for (final Resting o : side(symbol, side.opposite())) {
            if (reaches(o, side, type, price, null)) {
                reachable.add(o);
            }
        }
        // a stable sort keeps arrival order among equal prices
        reachable.sort(side == Side.BUY ? Comparator.comparingLong(o -> o.price)
                : Comparator.comparingLong((Resting o) -> o.price).reversed());
        long sum = 0;
        for (final Resting o : reachable) {
            if (stp != SelfTradePrevention.NONE && o.accountId.equals(accountId)) {
                if (stp == SelfTradePrevention.EXPIRE_MAKER) {
                    continue;
                }
                break;
            }
            sum += o.quantity - o.filled;
        }
        return sum;
    }

    /**
     * The maker the taker trades with next, or null when it may trade with none. Under {@link MarketBandRule#BOTH_EDGES}
     * a MARKET taker takes the best maker whatever its price, and only if that price is inside the band: a maker
     * beyond either edge ends it, as its trade would print outside the band.
     */
    private Resting nextMaker(final Taker taker, final BigInteger reference) {
        if (taker.type == OrderType.MARKET && rules[taker.symbol] == MarketBandRule.BOTH_EDGES) {
            final Resting best = bestMaker(taker.symbol, taker.side, OrderType.MARKET, 0, null);
            return best == null || outsideBand(taker.symbol, reference, best.price) ? null : best;
        }
        return bestMaker(taker.symbol, taker.side, taker.type, taker.price, reference);
    }

    /** The reachable resting order with the best price; among equal prices the earliest (list order). */
    private Resting bestMaker(final int symbol, final Side side, final OrderType type, final long price,
                              final BigInteger reference) {
        Resting best = null;
        for (final Resting o : side(symbol, side.opposite())) {
            if (reaches(o, side, type, price, reference)
                    && (best == null || (side == Side.BUY ? o.price < best.price : o.price > best.price))) {
                best = o;
            }
        }
        return best;
    }

    private int openOrders(final String accountId) {
        int count = 0;
        for (final Resting o : allResting()) {
            if (o.accountId.equals(accountId)) {
                count++;
            }
        }
        return count;
    }

    /** @param without an order to leave out (the one being amended), or null */
    private int distinctPrices(final int symbol, final Side side, final Resting without) {
        final Set<Long> prices = new HashSet<>();
        for (final Resting o : side(symbol, side)) {
            if (o != without) {
                prices.add(o.price);
            }
        }
        return prices.size();
    }

    /** @param without an order to leave out (the one being amended), or null */
    private boolean hasPrice(final int symbol, final Side side, final long price, final Resting without) {
        for (final Resting o : side(symbol, side)) {
            if (o != without && o.price == price) {
                return true;
            }
        }
        return false;
    }
}
