package io.orderentry.account;

import io.orderentry.engine.OrderStatus;

/**
 * What happened to an order, as the private {@code orders} stream names it in each update's {@code "event"}. One
 * update per sequenced engine event that changed an order of the account:
 * <ul>
 *   <li>{@code ORDER_ACCEPTED}: {@link #ACCEPTED} (every placed order, also one that ends REJECTED or EXPIRED in the
 *       same command: the engine gave it an id first);</li>
 *   <li>{@code TRADE}: {@link #FILL} for the taker's order and {@link #FILL} for the maker's, taker first (both to
 *       one account when it traded with itself); an amended order that trades at its new price is the taker;</li>
 *   <li>{@code ORDER_AMENDED}: {@link #AMENDED}, with the order's new price and quantity;</li>
 *   <li>{@code ORDER_UPDATED}: see {@link #ofUpdate}.</li>
 * </ul>
 */
public enum OrderEvent {
    /** The engine took the order and gave it its id; status NEW, nothing filled yet. */
    ACCEPTED,
    /** The order traded once; the update carries that fill. */
    FILL,
    /**
     * An amend changed the order's price and/or total quantity; its status is still the one it had (NEW or
     * PARTIALLY_FILLED). What the amend then did to it follows as further updates: FILLs at its new price, and
     * EXPIRED or REJECTED if it left the book.
     */
    AMENDED,
    /**
     * The order left the book without trading out: a cancel of it (no reject reason), a cancel-all of its account
     * (CANCEL_ALL, or CANCEL_ALL_AFTER when its dead man's switch fired) or self-trade prevention
     * (SELF_TRADE_PREVENTED: an order of its own account arrived with EXPIRE_MAKER or EXPIRE_BOTH).
     */
    CANCELED,
    /**
     * An IOC, FOK or MARKET order's unfilled remainder expired (a MARKET order stopped by the price band with
     * PRICE_OUTSIDE_BAND), or self-trade prevention stopped an incoming or amended order (SELF_TRADE_PREVENTED, also
     * a GTC one).
     */
    EXPIRED,
    /**
     * The order was not placed (postOnly that would cross, an engine limit, PRICE_OUTSIDE_BAND), or a postOnly order
     * amended to a price that would cross left the book (POST_ONLY_WOULD_CROSS).
     */
    REJECTED;

    /**
     * The event of an {@code ORDER_UPDATED} engine event, by the status it left the order in: CANCELED, EXPIRED and
     * REJECTED are changes of their own, whichever command caused them (a cancel, a cancel-all, another order's
     * self-trade prevention, a place, an amend). An order left open or FILLED is the end of a place or an amend that
     * changed nothing a subscriber has not been sent already (ACCEPTED said NEW, AMENDED the new terms, each FILL the
     * fill and the status after it), so it is no update: null.
     *
     * @return the event, or null when the engine event is no change for a subscriber
     */
    public static OrderEvent ofUpdate(final OrderStatus status) {
        return switch (status) {
            case CANCELED -> CANCELED;
            case EXPIRED -> EXPIRED;
            case REJECTED -> REJECTED;
            case NEW, PARTIALLY_FILLED, FILLED -> null;
        };
    }
}
