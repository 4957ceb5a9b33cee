package io.orderentry.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The contract around an order's life (see {@link Matcher}): cancel outcomes, idempotent retries by
 * clientOrderId and the dedup window, and every limit in {@link EngineConfig}. Run against every
 * {@link OrderEngine}.
 */
abstract class OrderLifecycleContractTest extends ContractTestSupport {

    private long gtc(final String account, final String clientOrderId, final Side side, final long price,
                     final long quantity) {
        return place(account, clientOrderId, BTC, side, OrderType.LIMIT, TimeInForce.GTC, false, price, quantity);
    }

    @Test
    void cancelOfARestingOrderRemovesItAndReportsWhatItHadFilled() {
        final long id = sell(100, 10);
        buy(100, 4);
        cancel(id);
        assertEquals(List.of(
                new RecordedEvent.Updated(6, 3, id, "bob", BTC, Side.SELL, 100, 10, 4, 0, OrderStatus.CANCELED,
                        RejectReason.NONE),
                new RecordedEvent.Completed(CommandResult.CANCELED, id)), events.events());
        assertEquals(List.of(), asks());
        assertEquals(0, engine.restingOrderCount());
    }

    @Test
    void cancelFromTheMiddleOfALevelKeepsTheOthersInArrivalOrder() {
        final long first = sell(100, 1);
        final long middle = sell(100, 2);
        final long last = sell(100, 3);
        cancel(middle);
        assertEquals(List.of(level(100, 4, 2)), asks());
        buy(100, 4);
        assertEquals(List.of(new Fill(100, 1, first), new Fill(100, 3, last)), fills());
    }

    @Test
    void cancelOfTheLastOrderAtAPriceRemovesTheLevel() {
        sell(101, 1);
        final long only = sell(102, 1);
        sell(103, 1);
        cancel(only);
        assertEquals(List.of(level(101, 1, 1), level(103, 1, 1)), asks());
    }

    @Test
    void cancelOfAFilledOrderIsNotOpen() {
        final long id = sell(100, 1);
        buy(100, 1);
        cancel(id);
        assertCompletedOnly(CommandResult.ORDER_NOT_OPEN, id);
    }

    @Test
    void cancelOfACancelledOrderIsNotOpen() {
        final long id = buy(100, 1);
        cancel(id);
        final long sequence = engine.lastEventSequence();
        cancel(id);
        assertCompletedOnly(CommandResult.ORDER_NOT_OPEN, id);
        assertEquals(sequence, engine.lastEventSequence());
    }

    @Test
    void cancelOfAnExpiredOrRejectedOrderIsNotOpen() {
        final long expired = market(Side.BUY, 1);
        cancel(expired);
        assertCompletedOnly(CommandResult.ORDER_NOT_OPEN, expired);
        sell(100, 1);
        final long rejected = place("a", null, BTC, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, true, 100, 1);
        cancel(rejected);
        assertCompletedOnly(CommandResult.ORDER_NOT_OPEN, rejected);
    }

    @Test
    void cancelOfAnIdNeverAssignedIsNotFound() {
        buy(100, 1);
        for (final long id : new long[] {0, -1, 2, Long.MAX_VALUE, Long.MIN_VALUE}) {
            cancel(id);
            assertCompletedOnly(CommandResult.ORDER_NOT_FOUND, id);
        }
        assertEquals(1, engine.restingOrderCount());
    }

    @Test
    void retryWithTheSameFieldsIsADuplicateOfTheOriginalAndPlacesNothing() {
        final long id = gtc("alice", "c-1", Side.BUY, 100, 5);
        final long sequence = engine.lastEventSequence();
        gtc("alice", "c-1", Side.BUY, 100, 5);
        assertCompletedOnly(CommandResult.DUPLICATE, id);
        assertEquals(List.of(level(100, 5, 1)), bids());
        assertEquals(id, engine.lastOrderId());
        assertEquals(sequence, engine.lastEventSequence());
    }

    @Test
    void retryWithAnyOtherFieldIsAMismatchAndPlacesNothing() {
        final long id = place("alice", "c-1", BTC, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, false, 100, 5);
        place("alice", "c-1", ETH, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, false, 100, 5);
        assertCompletedOnly(CommandResult.DUPLICATE_MISMATCH, id);
        place("alice", "c-1", BTC, Side.SELL, OrderType.LIMIT, TimeInForce.GTC, false, 100, 5);
        assertCompletedOnly(CommandResult.DUPLICATE_MISMATCH, id);
        place("alice", "c-1", BTC, Side.BUY, OrderType.MARKET, TimeInForce.IOC, false, 0, 5);
        assertCompletedOnly(CommandResult.DUPLICATE_MISMATCH, id);
        place("alice", "c-1", BTC, Side.BUY, OrderType.LIMIT, TimeInForce.IOC, false, 100, 5);
        assertCompletedOnly(CommandResult.DUPLICATE_MISMATCH, id);
        place("alice", "c-1", BTC, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, true, 100, 5);
        assertCompletedOnly(CommandResult.DUPLICATE_MISMATCH, id);
        place("alice", "c-1", BTC, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, false, 101, 5);
        assertCompletedOnly(CommandResult.DUPLICATE_MISMATCH, id);
        place("alice", "c-1", BTC, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, false, 100, 6);
        assertCompletedOnly(CommandResult.DUPLICATE_MISMATCH, id);
        assertEquals(id, engine.lastOrderId());
        assertEquals(List.of(level(100, 5, 1)), bids());
    }

    @Test
    void duplicateIsRecognisedAfterTheOriginalLeftTheBook() {
        final long id = gtc("alice", "c-1", Side.BUY, 100, 5);
        cancel(id);
        gtc("alice", "c-1", Side.BUY, 100, 5);
        assertCompletedOnly(CommandResult.DUPLICATE, id);
        final long expired = place("bob", "c-2", BTC, Side.SELL, OrderType.MARKET, TimeInForce.IOC, false, 0, 1);
        place("bob", "c-2", BTC, Side.SELL, OrderType.MARKET, TimeInForce.IOC, false, 0, 1);
        assertCompletedOnly(CommandResult.DUPLICATE, expired);
    }

    @Test
    void sameClientOrderIdOfAnotherAccountIsANewOrder() {
        gtc("alice", "c-1", Side.BUY, 100, 5);
        final long id = gtc("bob", "c-1", Side.BUY, 100, 5);
        assertOutcome(OrderStatus.NEW, 0, 5);
        assertEquals(2, id);
    }

    @Test
    void ordersWithoutClientOrderIdAreNeverDuplicates() {
        gtc("alice", null, Side.BUY, 100, 5);
        gtc("alice", null, Side.BUY, 100, 5);
        assertOutcome(OrderStatus.NEW, 0, 5);
        assertEquals(List.of(level(100, 10, 2)), bids());
    }

    @Test
    void windowForgetsTheOldestPairFirst() {
        start(new EngineConfig(1_000, 100, 100, 3));
        gtc("alice", "c-1", Side.BUY, 100, 1);
        gtc("alice", null, Side.BUY, 100, 1);
        gtc("alice", "c-2", Side.BUY, 100, 1);
        gtc("alice", "c-3", Side.BUY, 100, 1);
        gtc("alice", "c-2", Side.BUY, 100, 1);
        assertCompletedOnly(CommandResult.DUPLICATE, 3);
        gtc("alice", "c-4", Side.BUY, 100, 1);
        final long again = gtc("alice", "c-1", Side.BUY, 100, 1);
        assertOutcome(OrderStatus.NEW, 0, 1);
        assertEquals(6, again);
        gtc("alice", "c-2", Side.BUY, 100, 1);
        assertOutcome(OrderStatus.NEW, 0, 1);
        gtc("alice", "c-4", Side.BUY, 100, 1);
        assertCompletedOnly(CommandResult.DUPLICATE, 5);
        gtc("alice", "c-1", Side.BUY, 100, 1);
        assertCompletedOnly(CommandResult.DUPLICATE, 6);
    }

    @Test
    void accountAtItsOpenOrderLimitCannotRestAnotherOrderAndNothingTrades() {
        start(new EngineConfig(1_000, 2, 100, 100));
        gtc("alice", null, Side.BUY, 90, 1);
        gtc("alice", null, Side.BUY, 91, 1);
        sell(100, 3);
        final long sequence = engine.lastEventSequence();
        gtc("alice", null, Side.BUY, 100, 5);
        assertRejected(RejectReason.TOO_MANY_OPEN_ORDERS);
        assertEquals(List.of(level(100, 3, 1)), asks());
        assertEquals(sequence + 2, engine.lastEventSequence());
        gtc("zoe", null, Side.BUY, 90, 1);
        assertOutcome(OrderStatus.NEW, 0, 1);
    }

    @Test
    void accountAtItsLimitMayStillTradeWhatDoesNotRest() {
        start(new EngineConfig(1_000, 1, 100, 100));
        gtc("alice", null, Side.BUY, 90, 1);
        sell(100, 10);
        gtc("alice", null, Side.BUY, 100, 2);
        assertOutcome(OrderStatus.FILLED, 2, 0);
        limit("alice", Side.BUY, TimeInForce.IOC, 100, 3);
        assertOutcome(OrderStatus.FILLED, 3, 0);
        limit("alice", Side.BUY, TimeInForce.FOK, 100, 4);
        assertOutcome(OrderStatus.FILLED, 4, 0);
        place("alice", null, BTC, Side.BUY, OrderType.MARKET, TimeInForce.IOC, false, 0, 5);
        assertOutcome(OrderStatus.EXPIRED, 1, 0);
    }

    @Test
    void openOrderCountDropsWhenAnOrderFillsOrIsCancelled() {
        start(new EngineConfig(1_000, 2, 100, 100));
        final long a = gtc("alice", null, Side.SELL, 100, 1);
        gtc("alice", null, Side.SELL, 101, 1);
        gtc("alice", null, Side.SELL, 102, 1);
        assertRejected(RejectReason.TOO_MANY_OPEN_ORDERS);
        cancel(a);
        gtc("alice", null, Side.SELL, 102, 1);
        assertOutcome(OrderStatus.NEW, 0, 1);
        buy(101, 1);
        gtc("alice", null, Side.SELL, 103, 1);
        assertOutcome(OrderStatus.NEW, 0, 1);
        gtc("alice", null, Side.SELL, 104, 1);
        assertRejected(RejectReason.TOO_MANY_OPEN_ORDERS);
    }

    @Test
    void sideAtItsPriceLevelLimitRejectsANewPriceButJoinsAnExistingOne() {
        start(new EngineConfig(1_000, 100, 2, 100));
        buy(98, 1);
        buy(99, 1);
        sell(105, 7);
        buy(97, 1);
        assertRejected(RejectReason.TOO_MANY_PRICE_LEVELS);
        buy(99, 2);
        assertOutcome(OrderStatus.NEW, 0, 2);
        buy(105, 5);
        assertOutcome(OrderStatus.FILLED, 5, 0);
        buy(105, 5);
        assertRejected(RejectReason.TOO_MANY_PRICE_LEVELS);
        assertEquals(List.of(level(105, 2, 1)), asks());
        sell(106, 1);
        assertOutcome(OrderStatus.NEW, 0, 1);
        place("alice", null, ETH, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, false, 97, 1);
        assertOutcome(OrderStatus.NEW, 0, 1);
        assertEquals(List.of(level(99, 3, 2), level(98, 1, 1)), bids());
    }

    @Test
    void engineAtItsRestingCapacityRejectsOrdersThatWouldRest() {
        start(new EngineConfig(3, 100, 100, 100));
        buy(98, 1);
        buy(99, 1);
        sell(101, 2);
        sell(102, 1);
        assertRejected(RejectReason.BOOK_CAPACITY_REACHED);
        buy(101, 3);
        assertRejected(RejectReason.BOOK_CAPACITY_REACHED);
        buy(101, 2);
        assertOutcome(OrderStatus.FILLED, 2, 0);
        sell(102, 1);
        assertOutcome(OrderStatus.NEW, 0, 1);
        assertEquals(3, engine.restingOrderCount());
    }

    @Test
    void capacityFreedByCancelsCanBeReused() {
        start(new EngineConfig(2, 100, 100, 100));
        for (int round = 0; round < 50; round++) {
            final long a = buy(90 + round % 5, 1);
            final long b = sell(110 + round % 7, 1);
            sell(120, 1);
            assertRejected(RejectReason.BOOK_CAPACITY_REACHED);
            cancel(a);
            cancel(b);
        }
        assertEquals(0, engine.restingOrderCount());
    }

    @Test
    void limitsAreCheckedAfterPostOnlyInTheOrderOfTheRejectReasons() {
        start(new EngineConfig(2, 1, 1, 100));
        gtc("alice", null, Side.BUY, 99, 1);
        gtc("bob", null, Side.SELL, 101, 1);
        place("alice", null, BTC, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, true, 101, 1);
        assertRejected(RejectReason.POST_ONLY_WOULD_CROSS);
        gtc("alice", null, Side.BUY, 98, 1);
        assertRejected(RejectReason.TOO_MANY_OPEN_ORDERS);
        gtc("carol", null, Side.BUY, 98, 1);
        assertRejected(RejectReason.TOO_MANY_PRICE_LEVELS);
        gtc("carol", null, Side.BUY, 99, 1);
        assertRejected(RejectReason.BOOK_CAPACITY_REACHED);
    }
}
