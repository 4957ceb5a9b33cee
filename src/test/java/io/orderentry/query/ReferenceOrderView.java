package io.orderentry.query;

import io.orderentry.engine.OrderStatus;
import io.orderentry.engine.RejectReason;
import io.orderentry.engine.SelfTradePrevention;
import io.orderentry.pipeline.BatchStage;
import io.orderentry.pipeline.EngineEvent;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;

/**
 * The order view as it was before its state moved into primitive storage: one immutable {@link OrderState} per
 * order in concurrent maps. Kept as the reference {@link OrderStateViewTest} compares the real view with.
 */
final class ReferenceOrderView implements BatchStage<EngineEvent> {

    private final Map<Long, OrderState> orders = new ConcurrentHashMap<>();
    private final Map<String, NavigableSet<Long>> openByAccount = new ConcurrentHashMap<>();
    private final long[] finalOrders;
    private long finalCount;
    private long appliedSequence;
    private volatile long lastEventSequence;

    /**
     * @param retainedFinalOrders how many final orders to keep answering GETs for
     */
    ReferenceOrderView(final int retainedFinalOrders) {
        if (retainedFinalOrders <= 0) {
            throw new IllegalArgumentException("retainedFinalOrders must be > 0");
        }
        this.finalOrders = new long[retainedFinalOrders];
    }

    @Override
    public void apply(final EngineEvent event, final long sequence) {
        switch (event.type) {
            case ORDER_ACCEPTED -> accepted(event);
            case TRADE -> traded(event);
            case ORDER_UPDATED -> updated(event);
            case ORDER_AMENDED -> amended(event);
            case COMMAND_COMPLETED, REQUEST_REJECTED, REPLAY_COMPLETED, TICK -> {
                return;
            }
            default -> throw new IllegalStateException("unknown event type " + event.type);
        }
        appliedSequence = event.eventSequence;
    }

    /** Makes the batch's last applied sequence readable by other threads. */
    @Override
    public void endOfBatch() {
        lastEventSequence = appliedSequence;
    }

    /** @return the order's current state, or null if it never existed or is no longer retained */
    public OrderState get(final long orderId) {
        return orders.get(orderId);
    }

    /**
     * @param afterOrderId only orders with a larger id (0 for all)
     * @param limit        at most this many
     * @return the account's open orders, oldest first
     */
    public List<OrderState> openOrders(final String accountId, final long afterOrderId, final int limit) {
        final NavigableSet<Long> ids = openByAccount.get(accountId);
        if (ids == null) {
            return Collections.emptyList();
        }
        final List<OrderState> result = new ArrayList<>(Math.min(limit, 64));
        for (final Long id : ids.tailSet(afterOrderId, false)) {
            final OrderState state = orders.get(id);
            if (state != null && state.status().isOpen()) {
                result.add(state);
                if (result.size() == limit) {
                    break;
                }
            }
        }
        return result;
    }

    /** @return the sequence of the last engine event applied; readable from any thread */
    public long lastEventSequence() {
        return lastEventSequence;
    }

    /** @return how many orders are held (open plus retained final ones) */
    public int size() {
        return orders.size();
    }

    private void accepted(final EngineEvent e) {
        orders.put(e.orderId, new OrderState(e.orderId, e.clientOrderId.toStringOrNull(), e.accountId, e.symbol, e.side, e.orderType,
                e.timeInForce, e.postOnly,
                e.selfTradePrevention == null ? SelfTradePrevention.NONE : e.selfTradePrevention, e.price, e.quantity,
                OrderStatus.NEW, 0, e.quantity, 0, RejectReason.NONE, e.eventSequence, e.timestampMicros,
                e.timestampMicros, null));
    }

    /** New terms; the status, and whether the order is still open, come with the amend's ORDER_UPDATED. */
    private void amended(final EngineEvent e) {
        orders.put(e.orderId, orders.get(e.orderId).withTerms(e.price, e.quantity, e.eventSequence,
                e.timestampMicros));
    }

    private void traded(final EngineEvent e) {
        final OrderState taker = orders.get(e.takerOrderId);
        final OrderStatus takerStatus = taker.quantity() == e.takerFilledQuantity
                ? OrderStatus.FILLED : OrderStatus.PARTIALLY_FILLED;
        orders.put(taker.orderId(), taker.withFill(
                new Fill(e.tradeId, e.price, e.quantity, true, e.timestampMicros, taker.lastFill()),
                e.takerFilledQuantity, takerStatus, taker.quantity() - e.takerFilledQuantity,
                e.eventSequence, e.timestampMicros));

        final OrderState maker = orders.get(e.makerOrderId);
        final long makerRemaining = maker.quantity() - e.makerFilledQuantity;
        orders.put(maker.orderId(), maker.withFill(
                new Fill(e.tradeId, e.price, e.quantity, false, e.timestampMicros, maker.lastFill()),
                e.makerFilledQuantity, e.makerStatus, makerRemaining, e.eventSequence, e.timestampMicros));
        if (!e.makerStatus.isOpen()) {
            closed(maker.accountId(), maker.orderId());
        }
    }

    private void updated(final EngineEvent e) {
        final OrderState order = orders.get(e.orderId);
        orders.put(e.orderId, order.withStatus(e.status, e.filledQuantity, e.remainingQuantity, e.rejectReason,
                e.eventSequence, e.timestampMicros));
        if (e.status.isOpen()) {
            openByAccount.computeIfAbsent(order.accountId(), account -> new ConcurrentSkipListSet<>()).add(e.orderId);
        } else {
            closed(order.accountId(), e.orderId);
        }
    }

    private void closed(final String accountId, final long orderId) {
        final NavigableSet<Long> open = openByAccount.get(accountId);
        if (open != null) {
            open.remove(orderId);
            if (open.isEmpty()) {
                openByAccount.remove(accountId, open);
            }
        }
        final int slot = (int) (finalCount % finalOrders.length);
        if (finalCount >= finalOrders.length) {
            orders.remove(finalOrders[slot]);
        }
        finalOrders[slot] = orderId;
        finalCount++;
    }
}
