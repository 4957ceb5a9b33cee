package io.orderentry.account;

import io.orderentry.engine.OrderStatus;

/**
 * What happened to an order, as the private {@code orders} stream names it in each update's {@code "event"}. One
 * update per sequenced engine event that changed an order of the account:
 * <ul>
 *   <li>{@code ORDER_ACCEPTED}: {@link #ACCEPTED} (every placed order, also one that ends REJECTED or EXPIRED in the
 *       same command: the engine gave it an id first);</li>
 *   <li>{@code TRADE}: {@link #FILL} for the taker's order and {@link #FILL} for the maker's, taker first (both to
 *       one account when it traded with itself);</li>
 *   <li>{@code ORDER_UPDATED}: see {@link #ofUpdate}.</li>
 * </ul>
 */
public enum OrderEvent {
    /** The engine took the order and gave it its id; status NEW, nothing filled yet. */
    ACCEPTED,
    /** The order traded once; the update carries that fill. */
    FILL,
    /** A cancel removed the order from the book. */
    CANCELED,
    /** An IOC, FOK or MARKET order's unfilled remainder expired. */
    EXPIRED,
    /** The order was not placed (postOnly that would cross, an engine limit). */
    REJECTED;

    /**
     * The event of an {@code ORDER_UPDATED} engine event, by the status it left the order in: CANCELED, EXPIRED and
     * REJECTED are changes of their own. An order left open or FILLED is the end of a place command that changed
     * nothing a subscriber has not been sent already (ACCEPTED said NEW, each FILL the fill and the status after it),
     * so it is no update: null. An amend's update, when amends come, is the one other change this engine event can
     * carry, and is told apart here.
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
