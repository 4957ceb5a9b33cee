package io.orderentry.engine;

/**
 * Receives the price levels of one side of a book from {@link Matcher#forEachLevel}, best first, one
 * call per level. Called on the thread that called {@code forEachLevel}; must not call back into the
 * matcher.
 */
@FunctionalInterface
public interface LevelVisitor {

    /**
     * @param price         the level's price in ticks
     * @param totalQuantity the sum of the remaining quantities of the orders resting at this price, in lots
     * @param orderCount    how many orders rest at this price (at least 1)
     */
    void level(long price, long totalQuantity, int orderCount);
}
