package io.orderentry.persistence;

import io.orderentry.engine.OrderStatus;
import io.orderentry.engine.OrderType;
import io.orderentry.engine.RejectReason;
import io.orderentry.engine.SelfTradePrevention;
import io.orderentry.engine.Side;
import io.orderentry.engine.TimeInForce;
import io.orderentry.pipeline.EngineEvent;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Folds one batch of events into one row per order touched, its state after the batch's last event
 * for it, so that each order is written once per transaction:
 * <ul>
 *   <li>a <em>new</em> row for an order accepted in this batch: every column is known, it is inserted;</li>
 *   <li>an <em>update</em> row for an order accepted earlier: only what the events carry is known, the
 *       rest (the taker's status during matching, the remaining quantity after a trade) is derived in
 *       SQL from the order's quantity, this row's when an event of the batch carried it (an amend, an update),
 *       else the stored one; {@code null} status, {@code -1} remaining and {@code 0} price or quantity mean
 *       "derive" or "keep".</li>
 * </ul>
 * An ORDER_AMENDED sets the order's price, its new total quantity and what remains of it; its status is the one a
 * resting order has (NEW, or PARTIALLY_FILLED once it has fills) until the amend's ORDER_UPDATED says otherwise.
 *
 * <p>Threads: owned by the persistence writer thread; rows are reused from batch to batch.
 */
final class OrderFold {

    /** One order's state after the batch. Fields marked "new rows only" are unset on update rows. */
    static final class Row {
        long orderId;
        boolean isNew;
        /** New rows only. */
        String clientOrderId;
        /** New rows only. */
        String accountId;
        int symbol;
        /** New rows only. */
        Side side;
        /** New rows only. */
        OrderType type;
        /** New rows only. */
        TimeInForce timeInForce;
        /** New rows only. */
        boolean postOnly;
        /** New rows only. */
        SelfTradePrevention selfTradePrevention;
        /** New rows: 0 for MARKET. Update rows: the price an ORDER_AMENDED or ORDER_UPDATED of the batch carried, else 0. */
        long price;
        /** New rows; update rows: the total an ORDER_AMENDED or ORDER_UPDATED of the batch carried, else 0. */
        long quantity;
        /** New rows only. */
        long createdAtMicros;
        OrderStatus status;
        long filledQuantity;
        long remainingQuantity;
        RejectReason rejectReason;
        long lastSequence;
        long updatedAtMicros;
    }

    private final Map<Long, Row> byOrder = new HashMap<>();
    private final List<Row> newRows = new ArrayList<>();
    private final List<Row> updateRows = new ArrayList<>();
    private final List<Row> spare = new ArrayList<>();

    /** Replaces the rows with those of {@code batch}. */
    void fold(final EventBatch batch) {
        clear();
        for (int i = 0; i < batch.size(); i++) {
            final EngineEvent e = batch.get(i);
            switch (e.type) {
                case ORDER_ACCEPTED -> accepted(e);
                case TRADE -> traded(e);
                case ORDER_UPDATED -> updated(e);
                case ORDER_AMENDED -> amended(e);
                case BALANCE_CHANGED -> {
                    // not an order's: BalanceCopy stores it
                }
                default -> throw new IllegalStateException("event " + e.eventSequence + " of type " + e.type
                        + " is not persisted");
            }
        }
    }

    /** @return rows of orders accepted in the batch, in order of acceptance */
    List<Row> newRows() {
        return newRows;
    }

    /** @return rows of orders accepted before the batch, in order of their first event in it */
    List<Row> updateRows() {
        return updateRows;
    }

    private void accepted(final EngineEvent e) {
        final Row row = take(e.orderId);
        if (byOrder.putIfAbsent(e.orderId, row) != null) {
            throw new IllegalStateException("order " + e.orderId + " accepted twice (event " + e.eventSequence + ")");
        }
        row.isNew = true;
        row.clientOrderId = e.clientOrderId.toStringOrNull();
        row.accountId = e.accountId;
        row.symbol = e.symbol;
        row.side = e.side;
        row.type = e.orderType;
        row.timeInForce = e.timeInForce;
        row.postOnly = e.postOnly;
        row.selfTradePrevention = e.selfTradePrevention == null ? SelfTradePrevention.NONE : e.selfTradePrevention;
        row.price = e.price;
        row.quantity = e.quantity;
        row.createdAtMicros = e.timestampMicros;
        row.status = OrderStatus.NEW;
        row.filledQuantity = 0;
        row.remainingQuantity = e.quantity;
        row.rejectReason = RejectReason.NONE;
        touched(row, e);
        newRows.add(row);
    }

    private void traded(final EngineEvent e) {
        final Row taker = row(e.takerOrderId);
        taker.filledQuantity = e.takerFilledQuantity;
        if (taker.quantity > 0) {       // known: a new row, or one an amend of this batch gave its new total
            taker.status = taker.filledQuantity == taker.quantity ? OrderStatus.FILLED : OrderStatus.PARTIALLY_FILLED;
            taker.remainingQuantity = taker.quantity - taker.filledQuantity;
        } else {
            taker.status = null;
            taker.remainingQuantity = -1;
        }
        touched(taker, e);

        final Row maker = row(e.makerOrderId);
        maker.filledQuantity = e.makerFilledQuantity;
        maker.status = e.makerStatus;
        maker.remainingQuantity = maker.quantity > 0 ? maker.quantity - maker.filledQuantity : -1;
        touched(maker, e);
    }

    private void amended(final EngineEvent e) {
        final Row row = row(e.orderId);
        row.price = e.price;
        row.quantity = e.quantity;
        row.filledQuantity = e.filledQuantity;
        row.remainingQuantity = e.quantity - e.filledQuantity;
        row.status = e.filledQuantity == 0 ? OrderStatus.NEW : OrderStatus.PARTIALLY_FILLED;
        touched(row, e);
    }

    private void updated(final EngineEvent e) {
        final Row row = row(e.orderId);
        row.price = e.price;
        row.quantity = e.quantity;
        row.status = e.status;
        row.filledQuantity = e.filledQuantity;
        row.remainingQuantity = e.remainingQuantity;
        row.rejectReason = e.rejectReason;
        touched(row, e);
    }

    private Row row(final long orderId) {
        final Row existing = byOrder.get(orderId);
        if (existing != null) {
            return existing;
        }
        final Row row = take(orderId);
        row.isNew = false;
        row.price = 0;
        row.quantity = 0;
        row.status = null;
        row.remainingQuantity = -1;
        row.rejectReason = null;
        byOrder.put(orderId, row);
        updateRows.add(row);
        return row;
    }

    private static void touched(final Row row, final EngineEvent e) {
        row.symbol = e.symbol;
        row.lastSequence = e.eventSequence;
        row.updatedAtMicros = e.timestampMicros;
    }

    private Row take(final long orderId) {
        final Row row = spare.isEmpty() ? new Row() : spare.remove(spare.size() - 1);
        row.orderId = orderId;
        row.clientOrderId = null;
        row.accountId = null;
        return row;
    }

    private void clear() {
        spare.addAll(newRows);
        spare.addAll(updateRows);
        newRows.clear();
        updateRows.clear();
        byOrder.clear();
    }
}
