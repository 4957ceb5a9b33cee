package io.orderentry.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.orderentry.engine.OrderStatus;
import io.orderentry.engine.OrderType;
import io.orderentry.engine.RejectReason;
import io.orderentry.engine.Side;
import io.orderentry.engine.TimeInForce;
import io.orderentry.pipeline.EngineEvent;
import io.orderentry.pipeline.EventType;
import org.junit.jupiter.api.Test;

class OrderFoldTest {

    private final EventBatch batch = new EventBatch(16);
    private final OrderFold fold = new OrderFold();
    private long sequence = 100;

    @Test
    void anOrderAcceptedTradedAndUpdatedInOneBatchIsOneNewRowInItsFinalState() {
        accepted(7, 10);
        trade(7, 3, 5, 1, OrderStatus.FILLED);
        trade(7, 10, 6, 7, OrderStatus.PARTIALLY_FILLED);
        updated(7, OrderStatus.FILLED, 10, 0);
        fold.fold(batch);
        assertEquals(1, fold.newRows().size());
        final OrderFold.Row row = fold.newRows().get(0);
        assertEquals(7, row.orderId);
        assertEquals(OrderStatus.FILLED, row.status);
        assertEquals(10, row.filledQuantity);
        assertEquals(0, row.remainingQuantity);
        assertEquals(104, row.lastSequence);
        assertEquals(2, fold.updateRows().size(), "the two makers were accepted in an earlier batch");
    }

    @Test
    void aMakerFromAnEarlierBatchGetsItsStatusAndLeavesTheRemainderToTheDatabase() {
        trade(9, 4, 5, 6, OrderStatus.PARTIALLY_FILLED);
        fold.fold(batch);
        final OrderFold.Row maker = fold.updateRows().get(1);
        assertEquals(5, maker.orderId);
        assertEquals(OrderStatus.PARTIALLY_FILLED, maker.status);
        assertEquals(6, maker.filledQuantity);
        assertEquals(-1, maker.remainingQuantity, "derived from the stored quantity");
        final OrderFold.Row taker = fold.updateRows().get(0);
        assertNull(taker.status, "a taker split from its acceptance gets its status derived in SQL");
        assertTrue(fold.newRows().isEmpty());
    }

    @Test
    void theLastEventForAnOrderWinsAndRowsAreReusedAcrossBatches() {
        trade(9, 4, 5, 6, OrderStatus.PARTIALLY_FILLED);
        trade(9, 8, 5, 10, OrderStatus.FILLED);
        fold.fold(batch);
        final OrderFold.Row maker = fold.updateRows().get(1);
        assertEquals(OrderStatus.FILLED, maker.status);
        assertEquals(10, maker.filledQuantity);
        assertEquals(2, fold.updateRows().size());
        batch.clear();
        updated(5, OrderStatus.CANCELED, 10, 0);
        fold.fold(batch);
        assertEquals(1, fold.updateRows().size());
        assertEquals(OrderStatus.CANCELED, fold.updateRows().get(0).status);
        assertEquals(0, fold.updateRows().get(0).remainingQuantity);
    }

    private EngineEvent next(final EventType type) {
        final EngineEvent e = batch.slot();
        e.reset();
        e.type = type;
        e.eventSequence = ++sequence;
        e.timestampMicros = sequence * 10;
        e.symbol = 0;
        batch.commitSlot();
        return e;
    }

    private void accepted(final long orderId, final long quantity) {
        final EngineEvent e = next(EventType.ORDER_ACCEPTED);
        e.orderId = orderId;
        e.accountId = "a";
        e.side = Side.BUY;
        e.orderType = OrderType.LIMIT;
        e.timeInForce = TimeInForce.GTC;
        e.price = 100;
        e.quantity = quantity;
        e.status = OrderStatus.NEW;
        e.rejectReason = RejectReason.NONE;
    }

    private void trade(final long taker, final long takerFilled, final long maker, final long makerFilled,
                       final OrderStatus makerStatus) {
        final EngineEvent e = next(EventType.TRADE);
        e.tradeId = sequence;
        e.takerOrderId = taker;
        e.takerSide = Side.BUY;
        e.takerAccountId = "a";
        e.takerFilledQuantity = takerFilled;
        e.makerOrderId = maker;
        e.makerAccountId = "b";
        e.makerFilledQuantity = makerFilled;
        e.makerStatus = makerStatus;
        e.price = 100;
        e.quantity = 1;
    }

    private void updated(final long orderId, final OrderStatus status, final long filled, final long remaining) {
        final EngineEvent e = next(EventType.ORDER_UPDATED);
        e.orderId = orderId;
        e.accountId = "a";
        e.side = Side.BUY;
        e.price = 100;
        e.quantity = 10;
        e.filledQuantity = filled;
        e.remainingQuantity = remaining;
        e.status = status;
        e.rejectReason = RejectReason.NONE;
    }
}
