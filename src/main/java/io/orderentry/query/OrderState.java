package io.orderentry.query;

import io.orderentry.engine.OrderStatus;
import io.orderentry.engine.OrderType;
import io.orderentry.engine.RejectReason;
import io.orderentry.engine.SelfTradePrevention;
import io.orderentry.engine.Side;
import io.orderentry.engine.TimeInForce;
import java.util.ArrayList;
import java.util.List;

/**
 * An order as the engine left it after a given engine event, immutable, so any thread may read it.
 * Prices are ticks, quantities lots; {@code filledNotional} is the sum of price x quantity of its fills.
 * An amend changes {@code price}, {@code quantity} (the new total: filled plus remaining), {@code remainingQuantity},
 * {@code sequence} and {@code updatedAtMicros}; {@code createdAtMicros} and the id stay.
 *
 * @param selfTradePrevention what the order does as a taker when it meets an order of its own account; NONE for
 *                            orders placed before the engine had self-trade prevention
 * @param sequence            the engine event sequence of the last change
 * @param lastFill            the newest fill, or null (see {@link Fill#previous()})
 */
public record OrderState(long orderId, String clientOrderId, String accountId, int symbol, Side side, OrderType type,
                         TimeInForce timeInForce, boolean postOnly, SelfTradePrevention selfTradePrevention,
                         long price, long quantity, OrderStatus status,
                         long filledQuantity, long remainingQuantity, long filledNotional, RejectReason rejectReason,
                         long sequence, long createdAtMicros, long updatedAtMicros, Fill lastFill) {

    /** @return how many fills the order has */
    public int fillCount() {
        int count = 0;
        for (Fill fill = lastFill; fill != null; fill = fill.previous()) {
            count++;
        }
        return count;
    }

    /** @return the fills oldest first */
    public List<Fill> fills() {
        final List<Fill> fills = new ArrayList<>();
        for (Fill fill = lastFill; fill != null; fill = fill.previous()) {
            fills.add(fill);
        }
        java.util.Collections.reverse(fills);
        return fills;
    }

    OrderState withFill(final Fill fill, final long filled, final OrderStatus newStatus, final long remaining,
                        final long eventSequence, final long timestampMicros) {
        return new OrderState(orderId, clientOrderId, accountId, symbol, side, type, timeInForce, postOnly,
                selfTradePrevention, price, quantity, newStatus, filled, remaining,
                filledNotional + fill.price() * fill.quantity(), rejectReason, eventSequence, createdAtMicros,
                timestampMicros, fill);
    }

    OrderState withStatus(final OrderStatus newStatus, final long filled, final long remaining,
                          final RejectReason reason, final long eventSequence, final long timestampMicros) {
        return new OrderState(orderId, clientOrderId, accountId, symbol, side, type, timeInForce, postOnly,
                selfTradePrevention, price, quantity, newStatus, filled, remaining, filledNotional, reason,
                eventSequence, createdAtMicros, timestampMicros, lastFill);
    }

    OrderState withTerms(final long newPrice, final long newQuantity, final long eventSequence,
                         final long timestampMicros) {
        return new OrderState(orderId, clientOrderId, accountId, symbol, side, type, timeInForce, postOnly,
                selfTradePrevention, newPrice, newQuantity, status, filledQuantity, newQuantity - filledQuantity,
                filledNotional, rejectReason, eventSequence, createdAtMicros, timestampMicros, lastFill);
    }
}
