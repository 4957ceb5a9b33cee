package io.orderentry.engine;

/**
 * The bounds that keep the engine's memory finite. Validated on construction.
 *
 * @param maxRestingOrders        resting orders across all books; beyond it an order is rejected
 *                                with {@link RejectReason#BOOK_CAPACITY_REACHED}
 * @param maxOpenOrdersPerAccount open orders one account may have; beyond it
 *                                {@link RejectReason#TOO_MANY_OPEN_ORDERS}
 * @param maxPriceLevelsPerSide   distinct prices per side of one book; beyond it
 *                                {@link RejectReason#TOO_MANY_PRICE_LEVELS}
 * @param dedupWindow             how many of the most recent orders with a clientOrderId are
 *                                remembered for idempotent retries
 * @param risk                    the balances' rules with {@code ORDERS_RISK=balances} (fee rates 0: where an engine
 *                                starts; the configured ones are journaled), null without balances
 */
public record EngineConfig(int maxRestingOrders, int maxOpenOrdersPerAccount, int maxPriceLevelsPerSide,
                           int dedupWindow, RiskRules risk) {

    /** Defaults that fit 1,000,000 resting orders in a 1 GiB heap. */
    public static final EngineConfig DEFAULTS = new EngineConfig(2_000_000, 100_000, 50_000, 1_000_000);

    /** Bounds without balances. */
    public EngineConfig(final int maxRestingOrders, final int maxOpenOrdersPerAccount, final int maxPriceLevelsPerSide,
                        final int dedupWindow) {
        this(maxRestingOrders, maxOpenOrdersPerAccount, maxPriceLevelsPerSide, dedupWindow, null);
    }

    /** @return these bounds, holding and settling balances by {@code rules} (null: none) */
    public EngineConfig withRisk(final RiskRules rules) {
        return new EngineConfig(maxRestingOrders, maxOpenOrdersPerAccount, maxPriceLevelsPerSide, dedupWindow, rules);
    }

    public EngineConfig {
        requirePositive("maxRestingOrders", maxRestingOrders);
        requirePositive("maxOpenOrdersPerAccount", maxOpenOrdersPerAccount);
        requirePositive("maxPriceLevelsPerSide", maxPriceLevelsPerSide);
        requirePositive("dedupWindow", dedupWindow);
    }

    private static void requirePositive(final String name, final int value) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be > 0, was " + value);
        }
    }
}
