package io.orderentry.account;

import io.orderentry.query.Fill;
import io.orderentry.query.OrderState;

/**
 * One change to one of an account's orders, as its private stream sends it. Immutable.
 *
 * @param sequence the account's feed sequence of this update: the previous update's plus one
 * @param order    the order exactly as this change left it (the state the order view held right after the engine
 *                 event), as a REST answer would show it at that moment
 */
public record OrderUpdate(long sequence, OrderEvent event, OrderState order) {

    /** @return the fill of a {@link OrderEvent#FILL}: the order's newest fill at that moment; else null */
    public Fill fill() {
        return event == OrderEvent.FILL ? order.lastFill() : null;
    }
}
