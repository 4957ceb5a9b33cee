package io.orderentry.engine;

import java.util.List;

/**
 * Invariants every engine must keep, checked through the public API only: each side sorted best
 * first with strictly better prices first, no empty level, books not crossed, the level counts adding
 * up to the resting count, and the configured limits respected.
 */
final class BookInvariants {

    private BookInvariants() {
    }

    static void check(final OrderEngine engine, final int symbolCount, final EngineConfig limits) {
        int orders = 0;
        for (int symbol = 0; symbol < symbolCount; symbol++) {
            final List<OrderEngine.Level> bids = engine.levels(symbol, Side.BUY);
            final List<OrderEngine.Level> asks = engine.levels(symbol, Side.SELL);
            orders += checkSide(symbol, Side.BUY, bids, limits) + checkSide(symbol, Side.SELL, asks, limits);
            if (!bids.isEmpty() && !asks.isEmpty() && bids.get(0).price() >= asks.get(0).price()) {
                throw new AssertionError("book " + symbol + " crossed: " + bids.get(0) + " / " + asks.get(0));
            }
        }
        if (orders != engine.restingOrderCount()) {
            throw new AssertionError("levels hold " + orders + " orders, restingOrderCount " + engine.restingOrderCount());
        }
        if (orders > limits.maxRestingOrders()) {
            throw new AssertionError(orders + " resting orders exceed " + limits.maxRestingOrders());
        }
    }

    private static int checkSide(final int symbol, final Side side, final List<OrderEngine.Level> levels,
                                 final EngineConfig limits) {
        if (levels.size() > limits.maxPriceLevelsPerSide()) {
            throw new AssertionError(side + " " + symbol + " has " + levels.size() + " levels");
        }
        int orders = 0;
        for (int i = 0; i < levels.size(); i++) {
            final OrderEngine.Level level = levels.get(i);
            if (level.price() <= 0 || level.totalQuantity() < level.orderCount() || level.orderCount() <= 0) {
                throw new AssertionError(side + " " + symbol + " bad level " + level);
            }
            if (i > 0) {
                final long previous = levels.get(i - 1).price();
                final boolean better = side == Side.BUY ? previous > level.price() : previous < level.price();
                if (!better) {
                    throw new AssertionError(side + " " + symbol + " not sorted best first: " + levels);
                }
            }
            orders += level.orderCount();
        }
        return orders;
    }
}
