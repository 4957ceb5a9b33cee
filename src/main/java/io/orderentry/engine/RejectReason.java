package io.orderentry.engine;

/**
 * Why an order ended as it did when that was not simply the client's own doing. Mostly why the engine refused to
 * place an order that was well formed (it still gets an id and the status {@link OrderStatus#REJECTED}); also why an
 * order was CANCELED or EXPIRED by the engine rather than by a cancel or its time in force ({@link #SELF_TRADE_PREVENTED},
 * {@link #CANCEL_ALL}, {@link #CANCEL_ALL_AFTER}, {@link #CANCEL_ON_DISCONNECT}, {@link #PRICE_OUTSIDE_BAND} for a
 * MARKET order's remainder).
 * {@link #NONE} is carried by every other order.
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
    BOOK_CAPACITY_REACHED,
    /**
     * Self-trade prevention: a resting order CANCELED because an order of its own account arrived with EXPIRE_MAKER or
     * EXPIRE_BOTH, or an incoming order EXPIRED because it met one of its own account's resting orders.
     */
    SELF_TRADE_PREVENTED,
    /** A LIMIT order priced outside its instrument's price band (REJECTED), or a MARKET order the band stopped (EXPIRED). */
    PRICE_OUTSIDE_BAND,
    /** CANCELED by a cancel-all of its account. */
    CANCEL_ALL,
    /** CANCELED by a cancel-all that its account's dead man's switch fired. */
    CANCEL_ALL_AFTER,
    /** CANCELED because the stream connection it was placed through, with cancel on disconnect, closed. */
    CANCEL_ON_DISCONNECT,
    /**
     * With balances: the account's available balance could not cover what the order holds (REJECTED, nothing changed),
     * or a MARKET BUY's remainder EXPIRED because the available quote paid for no more.
     */
    INSUFFICIENT_BALANCE
}
