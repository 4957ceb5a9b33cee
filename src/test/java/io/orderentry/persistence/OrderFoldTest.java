package io.orderentry.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.orderentry.engine.OrderStatus;
import io.orderentry.engine.OrderType;
import io.orderentry.engine.RejectReason;
import io.orderentry.engine.SelfTradePrevention;
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

    @Test
    void anAmendOfAnOrderFromAnEarlierBatchGivesItsRowTheNewPriceQuantityAndRemainder() {
        amended(5, 99, 8, 3, false);
        fold.fold(batch);
        final OrderFold.Row row = fold.updateRows().get(0);
        assertEquals(99, row.price);
        assertEquals(8, row.quantity);
        assertEquals(3, row.filledQuantity);
        assertEquals(5, row.remainingQuantity, "nothing left to derive");
        assertEquals(OrderStatus.PARTIALLY_FILLED, row.status, "a resting order with fills");
        assertEquals(101, row.lastSequence);
        assertEquals(1010, row.updatedAtMicros);
    }

    @Test
    void anAmendedTakerGetsItsStatusAndRemainderFromItsNewQuantityNotTheStoredOne() {
        amended(5, 101, 12, 3, false);
        trade(5, 12, 6, 9, OrderStatus.PARTIALLY_FILLED);     // fills the amended order's 9 remaining
        fold.fold(batch);
        final OrderFold.Row amended = fold.updateRows().get(0);
        assertEquals(OrderStatus.FILLED, amended.status, "12 of the new 12");
        assertEquals(0, amended.remainingQuantity);
        final OrderFold.Row maker = fold.updateRows().get(1);
        assertEquals(0, maker.quantity, "a maker's quantity is still the stored one");
        assertEquals(-1, maker.remainingQuantity, "derived from it");
    }

    @Test
    void aRowWithoutAnAmendOrAnUpdateKeepsTheStoredPriceAndQuantity() {
        trade(9, 4, 5, 6, OrderStatus.PARTIALLY_FILLED);
        fold.fold(batch);
        for (final OrderFold.Row row : fold.updateRows()) {
            assertEquals(0, row.price, "kept");
            assertEquals(0, row.quantity, "kept");
        }
    }

    @Test
    void anOrderAcceptedAndAmendedInOneBatchIsOneNewRowWithItsSelfTradePreventionAndNewTerms() {
        accepted(7, 10);
        batch.get(batch.size() - 1).selfTradePrevention = SelfTradePrevention.EXPIRE_BOTH;
        amended(7, 95, 6, 0, true);
        updated(7, OrderStatus.NEW, 0, 6);
        batch.get(batch.size() - 1).quantity = 6;
        batch.get(batch.size() - 1).price = 95;
        fold.fold(batch);
        assertEquals(1, fold.newRows().size());
        assertTrue(fold.updateRows().isEmpty());
        final OrderFold.Row row = fold.newRows().get(0);
        assertEquals(SelfTradePrevention.EXPIRE_BOTH, row.selfTradePrevention);
        assertEquals(95, row.price);
        assertEquals(6, row.quantity);
        assertEquals(6, row.remainingQuantity);
        assertEquals(OrderStatus.NEW, row.status);
        assertEquals(1010, row.createdAtMicros, "created when accepted");
    }

    @Test
    void anOrderAcceptedWithoutAModeIsStoredWithNone() {
        accepted(7, 10);
        fold.fold(batch);
        assertEquals(SelfTradePrevention.NONE, fold.newRows().get(0).selfTradePrevention);
    }

    private void amended(final long orderId, final long price, final long quantity, final long filled,
                         final boolean keptPriority) {
        final EngineEvent e = next(EventType.ORDER_AMENDED);
        e.orderId = orderId;
        e.accountId = "a";
        e.side = Side.BUY;
        e.price = price;
        e.quantity = quantity;
        e.filledQuantity = filled;
        e.previousPrice = 100;
        e.previousQuantity = 10;
        e.keptPriority = keptPriority;
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
