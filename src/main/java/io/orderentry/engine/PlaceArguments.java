package io.orderentry.engine;

/**
 * The caller's side of the {@link Matcher#place} contract. The edge validates requests and answers
 * bad ones with 4xx, so an invalid order reaching the matcher is a bug: it is refused with an
 * {@link IllegalArgumentException} before any state changes or any id is taken.
 */
final class PlaceArguments {

    /** Prices stay below this (2^60 ticks), so that twice a price, and the sum of two, fit in a {@code long}. */
    static final long MAX_PRICE = 1L << 60;

    private PlaceArguments() {
    }

    /** @throws IllegalArgumentException when the arguments break the documented guarantee */
    static void check(final int symbolCount, final String accountId, final int symbol, final Side side,
                      final OrderType type, final TimeInForce timeInForce, final boolean postOnly,
                      final SelfTradePrevention stp, final long price, final long quantity) {
        if (accountId == null || side == null || type == null || timeInForce == null || stp == null) {
            throw new IllegalArgumentException("accountId, side, type, timeInForce and stp must be non-null");
        }
        if (price >= MAX_PRICE) {
            throw new IllegalArgumentException("price beyond 2^60 ticks: " + price);
        }
        if (symbol < 0 || symbol >= symbolCount) {
            throw new IllegalArgumentException("symbol out of range: " + symbol);
        }
        if (quantity <= 0) {
            throw new IllegalArgumentException("quantity must be > 0: " + quantity);
        }
        if (type == OrderType.LIMIT ? price <= 0 : price != 0 || timeInForce != TimeInForce.IOC) {
            throw new IllegalArgumentException("LIMIT needs price > 0, MARKET price 0 and IOC: " + type + " "
                    + timeInForce + " " + price);
        }
        if (postOnly && (type != OrderType.LIMIT || timeInForce != TimeInForce.GTC)) {
            throw new IllegalArgumentException("postOnly only with LIMIT GTC: " + type + " " + timeInForce);
        }
    }
}
