package io.orderentry.engine;

/**
 * Why the engine refused to place an order that was well formed. The order still gets an id and the
 * status {@link OrderStatus#REJECTED}; {@link #NONE} is carried by every order that was not rejected.
 */
public enum RejectReason {
    NONE,
    /** A postOnly order would have traded on arrival. */
    POST_ONLY_WOULD_CROSS,
    /** The account already has the configured maximum of open orders. */
    TOO_MANY_OPEN_ORDERS,
    /** Resting the order would open a price level beyond the configured maximum per side. */
    TOO_MANY_PRICE_LEVELS,
    /** The engine already holds the configured maximum of resting orders. */
    BOOK_CAPACITY_REACHED
}
