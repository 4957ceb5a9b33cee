package io.orderentry.engine;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@link Matcher}'s internal invariants, checked by walking its books: every level's total and
 * count equal the sum over its queue, queue links are consistent both ways, every resting order is
 * findable by id, and the per-account open-order counts equal what rests. With balances: no available or held balance
 * is negative, every account holds exactly what its resting orders need, and per asset the balances add up to the
 * supply (what funding put in): nothing created or lost.
 */
final class MatcherInvariants {

    private MatcherInvariants() {
    }

    static void check(final Matcher matcher, final int symbolCount) {
        final Map<String, Integer> perAccount = new HashMap<>();
        final List<Order> resting = new ArrayList<>();
        int orders = 0;
        for (int symbol = 0; symbol < symbolCount; symbol++) {
            for (final Side side : Side.values()) {
                orders += checkSide(matcher, matcher.book(symbol).side(side), perAccount, resting);
            }
        }
        if (matcher.funds != null) {
            checkBalances(matcher.funds, resting);
        }
        check(orders == matcher.restingOrderCount(), "walked " + orders + " orders, count " + matcher.restingOrderCount());
        check(perAccount.size() == matcher.accountsWithOpenOrders(),
                "accounts " + perAccount.size() + " vs " + matcher.accountsWithOpenOrders());
        perAccount.forEach((account, count) ->
                check(matcher.openOrders(account) == count, account + " open " + matcher.openOrders(account) + " vs " + count));
    }

    private static void checkBalances(final Funds funds, final List<Order> resting) {
        final BalanceTable table = funds.table;
        final int assets = funds.rules.assetCount();
        final long[] sums = new long[assets];
        for (int row = 0; row < table.rowCount(); row++) {
            for (int asset = 0; asset < assets; asset++) {
                final int cell = table.cell(row, asset);
                check(table.available[cell] >= 0 && table.held[cell] >= 0, table.account(row) + " has "
                        + table.available[cell] + " available, " + table.held[cell] + " held of asset " + asset);
                sums[asset] += table.available[cell] + table.held[cell];
            }
        }
        for (int asset = 0; asset < assets; asset++) {
            check(sums[asset] == funds.supply[asset], "asset " + asset + " adds up to " + sums[asset] + ", supply "
                    + funds.supply[asset]);
        }
        try {
            funds.checkHeld(resting);
        } catch (final IOException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    private static int checkSide(final Matcher matcher, final BookSide side, final Map<String, Integer> perAccount,
                                 final List<Order> resting) {
        int orders = 0;
        for (int i = 0; i < side.levelCount(); i++) {
            final PriceLevel level = side.levelFromBest(i);
            check(level.side == side, "level " + level.price + " points to another side");
            check(side.find(level.price) == level, "level " + level.price + " not found by price");
            if (i > 0) {
                final long better = side.levelFromBest(i - 1).price;
                check(side.keyOf(better) > side.keyOf(level.price), "levels out of order at " + level.price);
            }
            long total = 0;
            int count = 0;
            Order previous = null;
            for (Order order = level.head; order != null; order = order.next) {
                check(order.level == level && order.prev == previous, "broken links at order " + order.orderId);
                check(order.filled >= 0 && order.remaining() > 0, "order " + order.orderId + " has nothing left");
                check(matcher.restingOrder(order.orderId) == order, "order " + order.orderId + " not indexed");
                perAccount.merge(order.accountId, 1, Integer::sum);
                resting.add(order);
                total += order.remaining();
                count++;
                previous = order;
            }
            check(level.tail == previous && count > 0, "level " + level.price + " tail or emptiness wrong");
            check(level.totalQuantity == total && level.orderCount == count,
                    "level " + level.price + " says " + level.totalQuantity + "/" + level.orderCount + ", holds " + total + "/" + count);
            orders += count;
        }
        return orders;
    }

    private static void check(final boolean condition, final String message) {
        if (!condition) {
            throw new AssertionError(message);
        }
    }
}
