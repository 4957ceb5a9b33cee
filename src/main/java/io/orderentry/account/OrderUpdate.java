package io.orderentry.account;

import io.orderentry.query.Fill;
import io.orderentry.query.OrderState;

/**
 * One change to one of an account's orders, or with balances to one of its balances, as its private stream sends it.
 * Immutable.
 *
 * @param sequence the account's feed sequence of this update: the previous update's plus one
 * @param event    what happened to the order; null for a balance's change
 * @param order    the order exactly as this change left it (the state the order view held right after the engine
 *                 event), as a REST answer would show it at that moment; null for a balance's change
 * @param balance  of a balance's change (with balances: a {@code "type":"balance"} message): the balance after it;
 *                 else null
 */
public record OrderUpdate(long sequence, OrderEvent event, OrderState order, Balance balance) {

    /**
     * An account's balance of one asset after a change, in units of the asset.
     *
     * @param engineSequence the engine event sequence of the change
     */
    public record Balance(int asset, long available, long held, long engineSequence) {
    }

    /** An order's update. */
    public OrderUpdate(final long sequence, final OrderEvent event, final OrderState order) {
        this(sequence, event, order, null);
    }

    /** @return the fill of a {@link OrderEvent#FILL}: the order's newest fill at that moment; else null */
    public Fill fill() {
        return event == OrderEvent.FILL ? order.lastFill() : null;
    }
}
