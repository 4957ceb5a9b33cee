package io.orderentry.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The matching contract of one book (see {@link Matcher}): price-time priority, trades at the
 * maker's price, sweeps, time in force, postOnly, MARKET orders, event order and contiguous ids.
 * Run against every {@link OrderEngine}.
 */
abstract class OrderBookContractTest extends ContractTestSupport {

    @Test
    void ordersThatDoNotCrossRestAsNew() {
        buy(99, 5);
        assertOutcome(OrderStatus.NEW, 0, 5);
        sell(101, 7);
        assertOutcome(OrderStatus.NEW, 0, 7);
        assertEquals(List.of(level(99, 5, 1)), bids());
        assertEquals(List.of(level(101, 7, 1)), asks());
    }

    @Test
    void levelsAreReportedBestFirstOnBothSides() {
        buy(97, 1);
        buy(99, 2);
        buy(98, 3);
        sell(103, 4);
        sell(101, 5);
        sell(102, 6);
        assertEquals(List.of(level(99, 2, 1), level(98, 3, 1), level(97, 1, 1)), bids());
        assertEquals(List.of(level(101, 5, 1), level(102, 6, 1), level(103, 4, 1)), asks());
    }

    @Test
    void incomingBuyTradesWithTheLowestAskFirst() {
        final long high = sell(102, 5);
        final long low = sell(101, 5);
        buy(102, 5);
        assertEquals(List.of(new Fill(101, 5, low)), fills());
        buy(102, 5);
        assertEquals(List.of(new Fill(102, 5, high)), fills());
    }

    @Test
    void incomingSellTradesWithTheHighestBidFirst() {
        buy(98, 5);
        final long high = buy(99, 5);
        sell(98, 5);
        assertEquals(List.of(new Fill(99, 5, high)), fills());
        assertEquals(List.of(level(98, 5, 1)), bids());
    }

    @Test
    void ordersAtOnePriceTradeInArrivalOrder() {
        final long first = sell(100, 2);
        final long second = sell(100, 3);
        final long third = sell(100, 4);
        buy(100, 6);
        assertEquals(List.of(new Fill(100, 2, first), new Fill(100, 3, second), new Fill(100, 1, third)), fills());
        assertEquals(List.of(level(100, 3, 1)), asks());
    }

    @Test
    void partiallyFilledMakerKeepsItsPlaceAtTheFrontOfTheLevel() {
        final long first = sell(100, 5);
        final long second = sell(100, 5);
        buy(100, 2);
        buy(100, 4);
        assertEquals(List.of(new Fill(100, 3, first), new Fill(100, 1, second)), fills());
    }

    @Test
    void tradeExecutesAtTheMakersPriceNotTheTakersLimit() {
        final long ask = sell(100, 5);
        buy(105, 5);
        assertEquals(List.of(new Fill(100, 5, ask)), fills());
        final long bid = buy(95, 5);
        sell(90, 5);
        assertEquals(List.of(new Fill(95, 5, bid)), fills());
    }

    @Test
    void incomingBuySweepsSeveralAskLevelsBestFirst() {
        final long a = sell(101, 2);
        final long b = sell(102, 2);
        final long c = sell(103, 2);
        final long d = sell(104, 2);
        buy(103, 5);
        assertEquals(List.of(new Fill(101, 2, a), new Fill(102, 2, b), new Fill(103, 1, c)), fills());
        assertOutcome(OrderStatus.FILLED, 5, 0);
        assertEquals(List.of(level(103, 1, 1), level(104, 2, 1)), asks());
        buy(104, 3);
        assertEquals(List.of(new Fill(103, 1, c), new Fill(104, 2, d)), fills());
    }

    @Test
    void incomingSellSweepsSeveralBidLevelsBestFirst() {
        final long a = buy(99, 2);
        final long b = buy(98, 2);
        buy(97, 2);
        sell(98, 3);
        assertEquals(List.of(new Fill(99, 2, a), new Fill(98, 1, b)), fills());
        assertEquals(List.of(level(98, 1, 1), level(97, 2, 1)), bids());
    }

    @Test
    void sweepStopsAtTheLimitAndTheRemainderRestsAtTheLimit() {
        sell(101, 2);
        sell(102, 2);
        sell(104, 2);
        buy(102, 10);
        assertOutcome(OrderStatus.PARTIALLY_FILLED, 4, 6);
        assertEquals(List.of(level(102, 6, 1)), bids());
        assertEquals(List.of(level(104, 2, 1)), asks());
    }

    @Test
    void fullyFilledGtcOrderDoesNotRest() {
        sell(100, 5);
        buy(100, 5);
        assertOutcome(OrderStatus.FILLED, 5, 0);
        assertEquals(List.of(), bids());
        assertEquals(List.of(), asks());
        assertEquals(0, engine.restingOrderCount());
    }

    /** A trade's quantities as the cumulative-fill rule states them. */
    record Cumulative(long makerOrderId, long quantity, long takerFilled, long makerFilled, OrderStatus makerStatus) {
    }

    private List<Cumulative> cumulative() {
        return events.trades().stream()
                .map(t -> new Cumulative(t.makerOrderId(), t.quantity(), t.takerFilled(), t.makerFilled(), t.makerStatus()))
                .toList();
    }

    @Test
    void tradesReportCumulativeFilledOfTakerAndMaker() {
        final long first = sell(100, 2);
        final long second = sell(101, 10);
        buy(101, 5);
        assertEquals(List.of(new Cumulative(first, 2, 2, 2, OrderStatus.FILLED),
                new Cumulative(second, 3, 5, 3, OrderStatus.PARTIALLY_FILLED)), cumulative());
        buy(101, 4);
        assertEquals(List.of(new Cumulative(second, 4, 4, 7, OrderStatus.PARTIALLY_FILLED)), cumulative());
        buy(101, 3);
        assertEquals(List.of(new Cumulative(second, 3, 3, 10, OrderStatus.FILLED)), cumulative());
    }

    @Test
    void tradeNamesBothAccountsTheSymbolAndTheTakerSide() {
        final long maker = sell(100, 5);
        final long taker = limit("erin", Side.BUY, TimeInForce.GTC, 100, 5);
        assertEquals(new RecordedEvent.Trade(4, 2, 1, BTC, 100, 5, Side.BUY, taker, "erin", 5, maker, "bob", 5,
                OrderStatus.FILLED), events.trades().get(0));
    }

    @Test
    void iocFillsWhatItCanAndTheRestExpires() {
        sell(100, 3);
        limit("dave", Side.BUY, TimeInForce.IOC, 100, 5);
        assertOutcome(OrderStatus.EXPIRED, 3, 0);
        assertEquals(List.of(), bids());
        assertEquals(List.of(), asks());
    }

    @Test
    void iocThatFillsCompletelyIsFilled() {
        sell(100, 8);
        limit("dave", Side.BUY, TimeInForce.IOC, 100, 5);
        assertOutcome(OrderStatus.FILLED, 5, 0);
        assertEquals(List.of(level(100, 3, 1)), asks());
    }

    @Test
    void iocWithNothingWithinItsLimitExpiresUnfilledAndDoesNotRest() {
        sell(101, 8);
        limit("dave", Side.BUY, TimeInForce.IOC, 100, 5);
        assertOutcome(OrderStatus.EXPIRED, 0, 0);
        assertEquals(List.of(), bids());
    }

    @Test
    void fokFillsCompletelyWhenEnoughIsAvailableWithinItsLimit() {
        sell(100, 2);
        sell(101, 3);
        sell(102, 9);
        limit("dave", Side.BUY, TimeInForce.FOK, 101, 5);
        assertOutcome(OrderStatus.FILLED, 5, 0);
        assertEquals(2, fills().size());
        assertEquals(List.of(level(102, 9, 1)), asks());
    }

    @Test
    void fokThatCannotFillCompletelyExpiresAndLeavesTheBookUntouched() {
        buy(98, 1);
        sell(100, 2);
        sell(101, 2);
        sell(102, 9);
        final List<OrderEngine.Level> asksBefore = asks();
        final long tradesBefore = engine.lastTradeId();
        limit("dave", Side.BUY, TimeInForce.FOK, 101, 5);
        assertOutcome(OrderStatus.EXPIRED, 0, 0);
        assertEquals(List.of(), events.trades());
        assertEquals(asksBefore, asks());
        assertEquals(List.of(level(98, 1, 1)), bids());
        assertEquals(tradesBefore, engine.lastTradeId());
    }

    @Test
    void fokSellAgainstAnEmptyBookExpires() {
        limit("dave", Side.SELL, TimeInForce.FOK, 100, 1);
        assertOutcome(OrderStatus.EXPIRED, 0, 0);
    }

    @Test
    void postOnlyThatWouldCrossIsRejectedAndNothingTrades() {
        sell(100, 5);
        place("alice", null, BTC, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, true, 100, 5);
        assertRejected(RejectReason.POST_ONLY_WOULD_CROSS);
        assertEquals(List.of(level(100, 5, 1)), asks());
        assertEquals(List.of(), bids());
    }

    @Test
    void postOnlyThatDoesNotCrossRestsAsNew() {
        sell(100, 5);
        place("alice", null, BTC, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, true, 99, 5);
        assertOutcome(OrderStatus.NEW, 0, 5);
        place("bob", null, BTC, Side.SELL, OrderType.LIMIT, TimeInForce.GTC, true, 101, 4);
        assertOutcome(OrderStatus.NEW, 0, 4);
        assertEquals(List.of(level(99, 5, 1)), bids());
        assertEquals(List.of(level(100, 5, 1), level(101, 4, 1)), asks());
    }

    @Test
    void marketOrderAgainstAnEmptyBookExpiresUnfilled() {
        market(Side.BUY, 5);
        assertOutcome(OrderStatus.EXPIRED, 0, 0);
        assertEquals(0, engine.restingOrderCount());
    }

    @Test
    void marketOrderAgainstAThinBookFillsWhatThereIsAndExpires() {
        final long a = sell(100, 2);
        final long b = sell(250, 1);
        market(Side.BUY, 5);
        assertEquals(List.of(new Fill(100, 2, a), new Fill(250, 1, b)), fills());
        assertOutcome(OrderStatus.EXPIRED, 3, 0);
        assertEquals(List.of(), asks());
    }

    @Test
    void marketSellSweepsBidsAtAnyPriceUntilFilled() {
        buy(99, 2);
        buy(1, 2);
        buy(50, 2);
        market(Side.SELL, 5);
        assertEquals(List.of(new Fill(99, 2, 1), new Fill(50, 2, 3), new Fill(1, 1, 2)), fills());
        assertOutcome(OrderStatus.FILLED, 5, 0);
    }

    @Test
    void orderUpdatedCarriesTheLimitPriceSideSymbolAndOriginalQuantity() {
        sell(100, 2);
        final long id = place("alice", null, ETH, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, false, 120, 7);
        assertEquals(new RecordedEvent.Updated(4, 2, id, "alice", ETH, Side.BUY, 120, 7, 0, 7, OrderStatus.NEW,
                RejectReason.NONE), events.update());
        final long market = place("carol", null, ETH, Side.SELL, OrderType.MARKET, TimeInForce.IOC, false, 0, 9);
        assertEquals(new RecordedEvent.Updated(7, 3, market, "carol", ETH, Side.SELL, 0, 9, 7, 0, OrderStatus.EXPIRED,
                RejectReason.NONE), events.update());
    }

    @Test
    void booksOfDifferentSymbolsAreIndependent() {
        sell(100, 5);
        place("alice", null, ETH, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, false, 100, 5);
        assertOutcome(OrderStatus.NEW, 0, 5);
        assertEquals(List.of(level(100, 5, 1)), engine.levels(ETH, Side.BUY));
        assertEquals(List.of(), bids());
        assertEquals(List.of(level(100, 5, 1)), asks());
    }

    @Test
    void placeEmitsAcceptedThenTradesThenUpdatedThenCompleted() {
        sell(100, 1);
        sell(101, 1);
        final long id = buy(101, 3);
        final List<RecordedEvent> all = events.events();
        assertEquals(5, all.size());
        assertInstanceOf(RecordedEvent.Accepted.class, all.get(0));
        assertInstanceOf(RecordedEvent.Trade.class, all.get(1));
        assertInstanceOf(RecordedEvent.Trade.class, all.get(2));
        assertInstanceOf(RecordedEvent.Updated.class, all.get(3));
        assertEquals(new RecordedEvent.Completed(CommandResult.PLACED, id), all.get(4));
        assertEquals(new RecordedEvent.Accepted(5, 3, id, "alice", null, BTC, Side.BUY, OrderType.LIMIT,
                TimeInForce.GTC, false, 101, 3), all.get(0));
    }

    @Test
    void orderIdsTradeIdsAndEventSequencesCountFromOneWithoutGaps() {
        final List<RecordedEvent> all = new ArrayList<>();
        sell(100, 1);
        all.addAll(events.events());
        place("x", null, BTC, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, true, 100, 1);
        all.addAll(events.events());
        market(Side.BUY, 3);
        all.addAll(events.events());
        sell(100, 2);
        all.addAll(events.events());
        sell(101, 2);
        all.addAll(events.events());
        cancel(4);
        all.addAll(events.events());
        cancel(99);
        all.addAll(events.events());
        buy(101, 5);
        all.addAll(events.events());
        final List<Long> sequences = new ArrayList<>();
        final List<Long> orderIds = new ArrayList<>();
        final List<Long> tradeIds = new ArrayList<>();
        for (final RecordedEvent event : all) {
            if (event instanceof RecordedEvent.Accepted a) {
                sequences.add(a.sequence());
                orderIds.add(a.orderId());
            } else if (event instanceof RecordedEvent.Trade t) {
                sequences.add(t.sequence());
                tradeIds.add(t.tradeId());
            } else if (event instanceof RecordedEvent.Updated u) {
                sequences.add(u.sequence());
            }
        }
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L), orderIds);
        assertEquals(List.of(1L, 2L), tradeIds);
        assertEquals(sequences.size(), engine.lastEventSequence());
        for (int i = 0; i < sequences.size(); i++) {
            assertEquals(i + 1, sequences.get(i));
        }
        assertEquals(6, engine.lastOrderId());
        assertEquals(2, engine.lastTradeId());
    }

    @Test
    void invalidArgumentsAreBugsAndChangeNothing() {
        assertThrows(IllegalArgumentException.class,
                () -> engine.place(1, "a", null, SYMBOLS, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, false, 1, 1));
        assertThrows(IllegalArgumentException.class,
                () -> engine.place(1, "a", null, BTC, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, false, 1, 0));
        assertThrows(IllegalArgumentException.class,
                () -> engine.place(1, "a", null, BTC, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, false, 0, 1));
        assertThrows(IllegalArgumentException.class,
                () -> engine.place(1, "a", null, BTC, Side.BUY, OrderType.MARKET, TimeInForce.IOC, false, 5, 1));
        assertThrows(IllegalArgumentException.class,
                () -> engine.place(1, "a", null, BTC, Side.BUY, OrderType.MARKET, TimeInForce.GTC, false, 0, 1));
        assertThrows(IllegalArgumentException.class,
                () -> engine.place(1, "a", null, BTC, Side.BUY, OrderType.LIMIT, TimeInForce.IOC, true, 1, 1));
        assertThrows(IllegalArgumentException.class,
                () -> engine.place(1, null, null, BTC, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, false, 1, 1));
        assertEquals(0, engine.lastOrderId());
        assertEquals(0, engine.lastEventSequence());
        assertEquals(List.of(), events.events());
    }
}
