package io.orderentry.engine;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A deliberately naive engine with the same contract as the {@link Matcher}, written to be obviously
 * correct rather than fast: the resting orders of each book side in one list in arrival order, every
 * question answered by a linear scan, the dedup window an insertion-ordered map that drops its eldest
 * entry.
 */
final class ReferenceMatcher implements OrderEngine {

    private static final class Resting {
        long orderId;
        String accountId;
        int symbol;
        Side side;
        long price;
        long quantity;
        long filled;
    }

    private record Pair(String accountId, String clientOrderId) {
    }

    private record Remembered(long orderId, int symbol, Side side, OrderType type, TimeInForce timeInForce,
                              boolean postOnly, long price, long quantity) {
    }

    private final int symbolCount;
    private final EngineLimits limits;
    private final EventSink sink;
    private final List<List<Resting>> sides = new ArrayList<>();
    private final LinkedHashMap<Pair, Remembered> window = new LinkedHashMap<>();
    private long lastOrderId;
    private long lastTradeId;
    private long lastSequence;

    ReferenceMatcher(final int symbolCount, final EngineLimits limits, final EventSink sink) {
        this.symbolCount = symbolCount;
        this.limits = limits;
        this.sink = sink;
        for (int i = 0; i < symbolCount * 2; i++) {
            sides.add(new ArrayList<>());
        }
    }

    @Override
    public void place(final long ts, final String accountId, final String clientOrderId, final int symbol,
                      final Side side, final OrderType type, final TimeInForce tif, final boolean postOnly,
                      final long price, final long quantity) {
        final boolean valid = accountId != null && side != null && type != null && tif != null
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
                    price, quantity));
            sink.commandCompleted(same ? CommandResult.DUPLICATE : CommandResult.DUPLICATE_MISMATCH, original.orderId());
            return;
        }
        final long orderId = ++lastOrderId;
        if (clientOrderId != null) {
            window.put(pair, new Remembered(orderId, symbol, side, type, tif, postOnly, price, quantity));
            if (window.size() > limits.dedupWindow()) {
                window.remove(window.keySet().iterator().next());
            }
        }
        sink.orderAccepted(++lastSequence, ts, orderId, accountId, clientOrderId, symbol, side, type, tif, postOnly,
                price, quantity);

        final long available = available(symbol, side, type, price);
        RejectReason reject = RejectReason.NONE;
        if (postOnly && available > 0) {
            reject = RejectReason.POST_ONLY_WOULD_CROSS;
        } else if (tif == TimeInForce.GTC && available < quantity) {
            if (openOrders(accountId) >= limits.maxOpenOrdersPerAccount()) {
                reject = RejectReason.TOO_MANY_OPEN_ORDERS;
            } else if (!hasPrice(symbol, side, price) && distinctPrices(symbol, side) >= limits.maxPriceLevelsPerSide()) {
                reject = RejectReason.TOO_MANY_PRICE_LEVELS;
            } else if (restingOrderCount() >= limits.maxRestingOrders()) {
                reject = RejectReason.BOOK_CAPACITY_REACHED;
            }
        }
        long filled = 0;
        long remaining = 0;
        OrderStatus status;
        if (reject != RejectReason.NONE) {
            status = OrderStatus.REJECTED;
        } else if (tif == TimeInForce.FOK && available < quantity) {
            status = OrderStatus.EXPIRED;
        } else {
            Resting maker;
            while (filled < quantity && (maker = bestMaker(symbol, side, type, price)) != null) {
                final long traded = Math.min(quantity - filled, maker.quantity - maker.filled);
                filled += traded;
                maker.filled += traded;
                final boolean done = maker.filled == maker.quantity;
                sink.trade(++lastSequence, ts, ++lastTradeId, symbol, maker.price, traded, side, orderId, accountId,
                        filled, maker.orderId, maker.accountId, maker.filled,
                        done ? OrderStatus.FILLED : OrderStatus.PARTIALLY_FILLED);
                if (done) {
                    side(symbol, side.opposite()).remove(maker);
                }
            }
            if (filled == quantity) {
                status = OrderStatus.FILLED;
            } else if (tif == TimeInForce.GTC) {
                final Resting order = new Resting();
                order.orderId = orderId;
                order.accountId = accountId;
                order.symbol = symbol;
                order.side = side;
                order.price = price;
                order.quantity = quantity;
                order.filled = filled;
                side(symbol, side).add(order);
                remaining = quantity - filled;
                status = filled == 0 ? OrderStatus.NEW : OrderStatus.PARTIALLY_FILLED;
            } else {
                status = OrderStatus.EXPIRED;
            }
        }
        sink.orderUpdated(++lastSequence, ts, orderId, accountId, symbol, side, price, quantity, filled, remaining,
                status, reject);
        sink.commandCompleted(CommandResult.PLACED, orderId);
    }

    @Override
    public void cancel(final long ts, final long orderId) {
        for (final Resting order : allResting()) {
            if (order.orderId == orderId) {
                side(order.symbol, order.side).remove(order);
                sink.orderUpdated(++lastSequence, ts, orderId, order.accountId, order.symbol, order.side, order.price,
                        order.quantity, order.filled, 0, OrderStatus.CANCELED, RejectReason.NONE);
                sink.commandCompleted(CommandResult.CANCELED, orderId);
                return;
            }
        }
        final boolean known = orderId > 0 && orderId <= lastOrderId;
        sink.commandCompleted(known ? CommandResult.ORDER_NOT_OPEN : CommandResult.ORDER_NOT_FOUND, orderId);
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

    private List<Resting> side(final int symbol, final Side side) {
        return sides.get(symbol * 2 + side.ordinal());
    }

    private List<Resting> allResting() {
        final List<Resting> all = new ArrayList<>();
        sides.forEach(all::addAll);
        return all;
    }

    /** @return whether an incoming order with this side, type and price may trade with the resting one */
    private static boolean crosses(final Resting maker, final Side side, final OrderType type, final long price) {
        return type == OrderType.MARKET || (side == Side.BUY ? maker.price <= price : maker.price >= price);
    }

    private long available(final int symbol, final Side side, final OrderType type, final long price) {
        long sum = 0;
        for (final Resting o : side(symbol, side.opposite())) {
            if (crosses(o, side, type, price)) {
                sum += o.quantity - o.filled;
            }
        }
        return sum;
    }

    /** The crossing resting order with the best price; among equal prices the earliest (list order). */
    private Resting bestMaker(final int symbol, final Side side, final OrderType type, final long price) {
        Resting best = null;
        for (final Resting o : side(symbol, side.opposite())) {
            if (crosses(o, side, type, price)
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

    private int distinctPrices(final int symbol, final Side side) {
        final Set<Long> prices = new HashSet<>();
        for (final Resting o : side(symbol, side)) {
            prices.add(o.price);
        }
        return prices.size();
    }

    private boolean hasPrice(final int symbol, final Side side, final long price) {
        for (final Resting o : side(symbol, side)) {
            if (o.price == price) {
                return true;
            }
        }
        return false;
    }
}
