package io.orderentry.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The contract of issue 15's order operations (see {@link Matcher}): amend, cancel-all, self-trade prevention
 * and price bands, one test per rule, each asserting the exact events (sequences, fills, statuses, reasons,
 * results) and the book levels left. Run against every {@link OrderEngine}.
 */
abstract class OrderOperationsContractTest extends ContractTestSupport {

    /** A price near the top of the matcher's range (it takes prices below 2^60 ticks). */
    private static final long P = 1_000_000_000_000_000_000L;

    /** An engine with a price band per instrument, in basis points (0 = none). */
    abstract OrderEngine newEngine(int symbolCount, EngineConfig limits, int[] priceBandBasisPoints, EventSink sink);

    void startWithBands(final int btcBand, final int ethBand) {
        startWithBands(ROOMY, btcBand, ethBand);
    }

    void startWithBands(final EngineConfig newLimits, final int btcBand, final int ethBand) {
        start(newLimits, newEngine(SYMBOLS, newLimits, new int[] {btcBand, ethBand}, events));
    }

    // ---- shorthand ----

    private long gtc(final String account, final Side side, final long price, final long quantity) {
        return limit(account, side, TimeInForce.GTC, price, quantity);
    }

    private long withStp(final String account, final Side side, final TimeInForce tif, final SelfTradePrevention stp,
                         final long price, final long quantity) {
        return place(account, null, BTC, side, OrderType.LIMIT, tif, false, stp, price, quantity);
    }

    private long marketWithStp(final String account, final Side side, final SelfTradePrevention stp,
                               final long quantity) {
        return place(account, null, BTC, side, OrderType.MARKET, TimeInForce.IOC, false, stp, 0, quantity);
    }

    private long postOnly(final String account, final Side side, final SelfTradePrevention stp, final long price,
                          final long quantity) {
        return place(account, null, BTC, side, OrderType.LIMIT, TimeInForce.GTC, true, stp, price, quantity);
    }

    /** A trade at this price between bob (selling, resting) and alice (buying), so it becomes the last trade. */
    private void tradeAt(final long price) {
        sell(price, 1);
        buy(price, 1);
        assertOutcome(OrderStatus.FILLED, 1, 0);
    }

    private RecordedEvent.Accepted accepted(final long sequence, final long orderId, final String account,
                                            final Side side, final OrderType type, final TimeInForce tif,
                                            final boolean postOnly, final long price, final long quantity) {
        return new RecordedEvent.Accepted(sequence, now(), orderId, account, null, BTC, side, type, tif, postOnly,
                price, quantity);
    }

    private RecordedEvent.Trade trade(final long sequence, final long tradeId, final long price, final long quantity,
                                      final Side takerSide, final long takerOrderId, final String takerAccount,
                                      final long takerFilled, final long makerOrderId, final String makerAccount,
                                      final long makerFilled, final OrderStatus makerStatus) {
        return new RecordedEvent.Trade(sequence, now(), tradeId, BTC, price, quantity, takerSide, takerOrderId,
                takerAccount, takerFilled, makerOrderId, makerAccount, makerFilled, makerStatus);
    }

    private RecordedEvent.Updated updated(final long sequence, final long orderId, final String account,
                                          final Side side, final long price, final long quantity, final long filled,
                                          final long remaining, final OrderStatus status, final RejectReason reason) {
        return updatedIn(BTC, sequence, orderId, account, side, price, quantity, filled, remaining, status, reason);
    }

    private RecordedEvent.Updated updatedIn(final int symbol, final long sequence, final long orderId,
                                            final String account, final Side side, final long price,
                                            final long quantity, final long filled, final long remaining,
                                            final OrderStatus status, final RejectReason reason) {
        return new RecordedEvent.Updated(sequence, now(), orderId, account, symbol, side, price, quantity, filled,
                remaining, status, reason);
    }

    private RecordedEvent.Amended amended(final long sequence, final long orderId, final String account,
                                          final Side side, final long price, final long quantity, final long filled,
                                          final long previousPrice, final long previousQuantity,
                                          final boolean keptPriority) {
        return new RecordedEvent.Amended(sequence, now(), orderId, account, BTC, side, price, quantity, filled,
                previousPrice, previousQuantity, keptPriority);
    }

    private static RecordedEvent.Completed completed(final CommandResult result, final long orderId) {
        return new RecordedEvent.Completed(result, orderId);
    }

    private List<OrderEngine.Level> ethBids() {
        return engine.levels(ETH, Side.BUY);
    }

    private List<OrderEngine.Level> ethAsks() {
        return engine.levels(ETH, Side.SELL);
    }

    /** Asserts that the amend (or cancel-all) was answered with this result alone and changed nothing. */
    private void assertRefused(final CommandResult result, final long orderId, final long sequenceBefore) {
        assertCompletedOnly(result, orderId);
        assertEquals(sequenceBefore, engine.lastEventSequence(), "no event sequence used");
    }

    // ---- amend: priority ----

    @Test
    void amendReducingTheQuantityAtTheSamePriceKeepsTheOrdersPlaceInTheQueue() {
        final long a = sell(100, 10);
        final long b = sell(100, 5);
        final long s = engine.lastEventSequence();
        amend(a, 0, 6);
        assertEquals(List.of(
                amended(s + 1, a, "bob", Side.SELL, 100, 6, 0, 100, 10, true),
                updated(s + 2, a, "bob", Side.SELL, 100, 6, 0, 6, OrderStatus.NEW, RejectReason.NONE),
                completed(CommandResult.AMENDED, a)), events.events());
        assertEquals(List.of(level(100, 11, 2)), asks());
        buy(100, 7);
        assertEquals(List.of(new Fill(100, 6, a), new Fill(100, 1, b)), fills(), "the amended order still trades first");
    }

    @Test
    void amendToTheSamePriceGivenExplicitlyOrToTheSameTermsStillKeepsPriorityAndReportsTheFills() {
        final long a = sell(100, 10);
        final long b = sell(100, 5);
        buy(100, 4);
        long s = engine.lastEventSequence();
        amend(a, 100, 10);
        assertEquals(List.of(
                amended(s + 1, a, "bob", Side.SELL, 100, 10, 4, 100, 10, true),
                updated(s + 2, a, "bob", Side.SELL, 100, 10, 4, 6, OrderStatus.PARTIALLY_FILLED, RejectReason.NONE),
                completed(CommandResult.AMENDED, a)), events.events());
        s = engine.lastEventSequence();
        amend(a, 100, 5);
        assertEquals(List.of(
                amended(s + 1, a, "bob", Side.SELL, 100, 5, 4, 100, 10, true),
                updated(s + 2, a, "bob", Side.SELL, 100, 5, 4, 1, OrderStatus.PARTIALLY_FILLED, RejectReason.NONE),
                completed(CommandResult.AMENDED, a)), events.events());
        assertEquals(List.of(level(100, 6, 2)), asks());
        buy(100, 2);
        assertEquals(List.of(new Fill(100, 1, a), new Fill(100, 1, b)), fills());
    }

    @Test
    void amendIncreasingTheQuantityMovesTheOrderToTheBackOfItsLevel() {
        final long a = sell(100, 5);
        final long b = sell(100, 5);
        final long s = engine.lastEventSequence();
        amend(a, 0, 8);
        assertEquals(List.of(
                amended(s + 1, a, "bob", Side.SELL, 100, 8, 0, 100, 5, false),
                updated(s + 2, a, "bob", Side.SELL, 100, 8, 0, 8, OrderStatus.NEW, RejectReason.NONE),
                completed(CommandResult.AMENDED, a)), events.events());
        assertEquals(List.of(level(100, 13, 2)), asks());
        buy(100, 6);
        assertEquals(List.of(new Fill(100, 5, b), new Fill(100, 1, a)), fills());
    }

    @Test
    void amendIncreasingAPartiallyFilledOrderKeepsItsFillsAndIsStillPartiallyFilled() {
        final long a = sell(100, 5);
        buy(100, 2);
        final long s = engine.lastEventSequence();
        amend(a, 0, 9);
        assertEquals(List.of(
                amended(s + 1, a, "bob", Side.SELL, 100, 9, 2, 100, 5, false),
                updated(s + 2, a, "bob", Side.SELL, 100, 9, 2, 7, OrderStatus.PARTIALLY_FILLED, RejectReason.NONE),
                completed(CommandResult.AMENDED, a)), events.events());
        assertEquals(List.of(level(100, 7, 1)), asks());
    }

    @Test
    void amendToANewPriceMovesTheOrderToTheBackOfThatLevel() {
        final long x = sell(100, 3);
        final long a = sell(101, 5);
        final long s = engine.lastEventSequence();
        amend(a, 100, 0);
        assertEquals(List.of(
                amended(s + 1, a, "bob", Side.SELL, 100, 5, 0, 101, 5, false),
                updated(s + 2, a, "bob", Side.SELL, 100, 5, 0, 5, OrderStatus.NEW, RejectReason.NONE),
                completed(CommandResult.AMENDED, a)), events.events());
        assertEquals(List.of(level(100, 8, 2)), asks(), "the level at 101 is gone");
        final long y = sell(100, 1);
        buy(100, 9);
        assertEquals(List.of(new Fill(100, 3, x), new Fill(100, 5, a), new Fill(100, 1, y)), fills());
    }

    @Test
    void amendedOrderIsCanceledWithItsNewTerms() {
        final long a = sell(100, 10);
        buy(100, 2);
        amend(a, 101, 12);
        final long s = engine.lastEventSequence();
        cancel(a);
        assertEquals(List.of(
                updated(s + 1, a, "bob", Side.SELL, 101, 12, 2, 0, OrderStatus.CANCELED, RejectReason.NONE),
                completed(CommandResult.CANCELED, a)), events.events());
    }

    // ---- amend: crossing ----

    @Test
    void amendToACrossingPriceTradesAsTakerWithFilledQuantitiesCountingEarlierFills() {
        final long a = buy(99, 10);
        limit("bob", Side.SELL, TimeInForce.IOC, 99, 4);
        final long m1 = sell(101, 3);
        final long m2 = sell(102, 5);
        final long s = engine.lastEventSequence();
        final long t = engine.lastTradeId();
        amend(a, 102, 0);
        assertEquals(List.of(
                amended(s + 1, a, "alice", Side.BUY, 102, 10, 4, 99, 10, false),
                trade(s + 2, t + 1, 101, 3, Side.BUY, a, "alice", 7, m1, "bob", 3, OrderStatus.FILLED),
                trade(s + 3, t + 2, 102, 3, Side.BUY, a, "alice", 10, m2, "bob", 3, OrderStatus.PARTIALLY_FILLED),
                updated(s + 4, a, "alice", Side.BUY, 102, 10, 10, 0, OrderStatus.FILLED, RejectReason.NONE),
                completed(CommandResult.AMENDED, a)), events.events());
        assertEquals(List.of(), bids());
        assertEquals(List.of(level(102, 2, 1)), asks());
        cancel(a);
        assertCompletedOnly(CommandResult.ORDER_NOT_OPEN, a);
    }

    @Test
    void amendThatCrossesOnlyPartlyRestsTheRemainderAtTheNewPrice() {
        final long a = buy(99, 10);
        final long m = sell(101, 4);
        final long s = engine.lastEventSequence();
        final long t = engine.lastTradeId();
        amend(a, 101, 12);
        assertEquals(List.of(
                amended(s + 1, a, "alice", Side.BUY, 101, 12, 0, 99, 10, false),
                trade(s + 2, t + 1, 101, 4, Side.BUY, a, "alice", 4, m, "bob", 4, OrderStatus.FILLED),
                updated(s + 3, a, "alice", Side.BUY, 101, 12, 4, 8, OrderStatus.PARTIALLY_FILLED, RejectReason.NONE),
                completed(CommandResult.AMENDED, a)), events.events());
        assertEquals(List.of(level(101, 8, 1)), bids());
        assertEquals(List.of(), asks());
    }

    @Test
    void postOnlyOrderAmendedToACrossingPriceIsRejectedAndLeavesTheBook() {
        final long a = postOnly("alice", Side.BUY, SelfTradePrevention.NONE, 99, 5);
        limit("bob", Side.SELL, TimeInForce.IOC, 99, 2);
        sell(101, 3);
        final long s = engine.lastEventSequence();
        amend(a, 101, 0);
        assertEquals(List.of(
                amended(s + 1, a, "alice", Side.BUY, 101, 5, 2, 99, 5, false),
                updated(s + 2, a, "alice", Side.BUY, 101, 5, 2, 0, OrderStatus.REJECTED,
                        RejectReason.POST_ONLY_WOULD_CROSS),
                completed(CommandResult.AMENDED, a)), events.events());
        assertEquals(List.of(), bids());
        assertEquals(List.of(level(101, 3, 1)), asks());
        assertEquals(1, engine.restingOrderCount());
        cancel(a);
        assertCompletedOnly(CommandResult.ORDER_NOT_OPEN, a);
    }

    @Test
    void postOnlyOrderAmendedToAPriceThatDoesNotCrossRestsThere() {
        final long a = postOnly("alice", Side.BUY, SelfTradePrevention.NONE, 99, 5);
        sell(101, 3);
        final long s = engine.lastEventSequence();
        amend(a, 100, 0);
        assertEquals(List.of(
                amended(s + 1, a, "alice", Side.BUY, 100, 5, 0, 99, 5, false),
                updated(s + 2, a, "alice", Side.BUY, 100, 5, 0, 5, OrderStatus.NEW, RejectReason.NONE),
                completed(CommandResult.AMENDED, a)), events.events());
        assertEquals(List.of(level(100, 5, 1)), bids());
    }

    @Test
    void amendedOrderTradesUnderItsOwnSelfTradePreventionMode() {
        final long a = withStp("alice", Side.BUY, TimeInForce.GTC, SelfTradePrevention.EXPIRE_TAKER, 99, 5);
        final long m1 = sell(100, 1);
        final long own = gtc("alice", Side.SELL, 100, 2);
        final long m3 = sell(101, 3);
        long s = engine.lastEventSequence();
        long t = engine.lastTradeId();
        amend(a, 101, 0);
        assertEquals(List.of(
                amended(s + 1, a, "alice", Side.BUY, 101, 5, 0, 99, 5, false),
                trade(s + 2, t + 1, 100, 1, Side.BUY, a, "alice", 1, m1, "bob", 1, OrderStatus.FILLED),
                updated(s + 3, a, "alice", Side.BUY, 101, 5, 1, 0, OrderStatus.EXPIRED,
                        RejectReason.SELF_TRADE_PREVENTED),
                completed(CommandResult.AMENDED, a)), events.events());
        assertEquals(List.of(), bids());
        assertEquals(List.of(level(100, 2, 1), level(101, 3, 1)), asks());

        final long b = withStp("alice", Side.BUY, TimeInForce.GTC, SelfTradePrevention.EXPIRE_MAKER, 99, 5);
        s = engine.lastEventSequence();
        t = engine.lastTradeId();
        amend(b, 101, 0);
        assertEquals(List.of(
                amended(s + 1, b, "alice", Side.BUY, 101, 5, 0, 99, 5, false),
                updated(s + 2, own, "alice", Side.SELL, 100, 2, 0, 0, OrderStatus.CANCELED,
                        RejectReason.SELF_TRADE_PREVENTED),
                trade(s + 3, t + 1, 101, 3, Side.BUY, b, "alice", 3, m3, "bob", 3, OrderStatus.FILLED),
                updated(s + 4, b, "alice", Side.BUY, 101, 5, 3, 2, OrderStatus.PARTIALLY_FILLED, RejectReason.NONE),
                completed(CommandResult.AMENDED, b)), events.events());
        assertEquals(List.of(level(101, 2, 1)), bids());
        assertEquals(List.of(), asks());
    }

    // ---- amend: refusals ----

    @Test
    void amendToAQuantityAtOrBelowWhatIsFilledIsRefusedAndChangesNothing() {
        final long a = sell(100, 10);
        buy(100, 4);
        final long s = engine.lastEventSequence();
        amend(a, 0, 4);
        assertRefused(CommandResult.QUANTITY_NOT_ABOVE_FILLED, a, s);
        amend(a, 0, 1);
        assertRefused(CommandResult.QUANTITY_NOT_ABOVE_FILLED, a, s);
        amend(a, 101, 3);
        assertRefused(CommandResult.QUANTITY_NOT_ABOVE_FILLED, a, s);
        assertEquals(List.of(level(100, 6, 1)), asks());
        amend(a, 0, 5);
        assertEquals(List.of(
                amended(s + 1, a, "bob", Side.SELL, 100, 5, 4, 100, 10, true),
                updated(s + 2, a, "bob", Side.SELL, 100, 5, 4, 1, OrderStatus.PARTIALLY_FILLED, RejectReason.NONE),
                completed(CommandResult.AMENDED, a)), events.events());
    }

    @Test
    void amendOfAnIdNeverAssignedIsNotFound() {
        buy(100, 1);
        final long s = engine.lastEventSequence();
        for (final long id : new long[] {0, -1, 2, Long.MAX_VALUE, Long.MIN_VALUE}) {
            amend(id, 101, 0);
            assertRefused(CommandResult.ORDER_NOT_FOUND, id, s);
        }
        assertEquals(List.of(level(100, 1, 1)), bids());
    }

    @Test
    void amendOfAnOrderThatIsNoLongerOpenIsNotOpen() {
        final long filled = sell(100, 1);
        buy(100, 1);
        final long canceled = buy(90, 1);
        cancel(canceled);
        final long expired = market(Side.BUY, 1);
        sell(100, 1);
        final long rejected = place("alice", null, BTC, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, true, 100, 1);
        final long s = engine.lastEventSequence();
        for (final long id : new long[] {filled, canceled, expired, rejected}) {
            amend(id, 0, 5);
            assertRefused(CommandResult.ORDER_NOT_OPEN, id, s);
            amend(id, 95, 0);
            assertRefused(CommandResult.ORDER_NOT_OPEN, id, s);
        }
    }

    @Test
    void amendToAPriceOutsideTheBandIsRefusedAndChangesNothing() {
        startWithBands(500, 0);
        tradeAt(1000);
        final long a = buy(990, 5);
        final long b = sell(1040, 1);
        final long s = engine.lastEventSequence();
        amend(a, 949, 0);
        assertRefused(CommandResult.PRICE_OUTSIDE_BAND, a, s);
        amend(a, 1051, 3);
        assertRefused(CommandResult.PRICE_OUTSIDE_BAND, a, s);
        amend(b, 1051, 0);
        assertRefused(CommandResult.PRICE_OUTSIDE_BAND, b, s);
        amend(b, 949, 0);
        assertRefused(CommandResult.PRICE_OUTSIDE_BAND, b, s);
        assertEquals(List.of(level(990, 5, 1)), bids());
        assertEquals(List.of(level(1040, 1, 1)), asks());
        amend(a, 950, 0);
        assertEquals(List.of(
                amended(s + 1, a, "alice", Side.BUY, 950, 5, 0, 990, 5, false),
                updated(s + 2, a, "alice", Side.BUY, 950, 5, 0, 5, OrderStatus.NEW, RejectReason.NONE),
                completed(CommandResult.AMENDED, a)), events.events());
        amend(b, 1050, 0);
        assertEquals(CommandResult.AMENDED, events.completion().result());
        assertEquals(List.of(level(1050, 1, 1)), asks());
    }

    @Test
    void amendKeepingThePriceIsNotCheckedAgainstTheBand() {
        startWithBands(500, 0);
        tradeAt(1000);
        final long a = buy(950, 5);
        tradeAt(1010);
        // now the band is 2p in [1919, 2121]: the order at 950 is outside it
        amend(a, 0, 3);
        assertEquals(CommandResult.AMENDED, events.completion().result());
        amend(a, 0, 8);
        assertEquals(CommandResult.AMENDED, events.completion().result());
        amend(a, 950, 9);
        assertEquals(CommandResult.AMENDED, events.completion().result());
        assertEquals(List.of(level(950, 9, 1)), bids());
        final long s = engine.lastEventSequence();
        amend(a, 951, 0);
        assertRefused(CommandResult.PRICE_OUTSIDE_BAND, a, s);
    }

    @Test
    void amendsBandReferenceIsTakenWithTheAmendedOrderStillInTheBook() {
        startWithBands(500, 0);
        final long a = buy(900, 1);
        sell(1000, 1);
        // mid reference 900 + 1000: 2p must be in [1805, 1995]; without the bid there would be no reference at all
        final long s = engine.lastEventSequence();
        amend(a, 998, 0);
        assertRefused(CommandResult.PRICE_OUTSIDE_BAND, a, s);
        amend(a, 997, 0);
        assertEquals(CommandResult.AMENDED, events.completion().result());
        assertEquals(List.of(level(997, 1, 1)), bids());
    }

    @Test
    void amendToANewPriceLevelOnAFullSideIsRefusedUnlessTheOrderWouldFillCompletely() {
        start(new EngineConfig(1_000, 100, 2, 100));
        final long a = buy(98, 1);
        buy(98, 1);
        final long b = buy(99, 1);
        final long m = sell(105, 3);
        final long s = engine.lastEventSequence();
        amend(a, 97, 0);
        assertRefused(CommandResult.TOO_MANY_PRICE_LEVELS, a, s);
        amend(a, 105, 5);
        assertRefused(CommandResult.TOO_MANY_PRICE_LEVELS, a, s);
        assertEquals(List.of(level(99, 1, 1), level(98, 2, 2)), bids());
        final long t = engine.lastTradeId();
        amend(a, 105, 3);
        assertEquals(List.of(
                amended(s + 1, a, "alice", Side.BUY, 105, 3, 0, 98, 1, false),
                trade(s + 2, t + 1, 105, 3, Side.BUY, a, "alice", 3, m, "bob", 3, OrderStatus.FILLED),
                updated(s + 3, a, "alice", Side.BUY, 105, 3, 3, 0, OrderStatus.FILLED, RejectReason.NONE),
                completed(CommandResult.AMENDED, a)), events.events());
        // an order alone at its level frees that level when it moves
        amend(b, 97, 0);
        assertEquals(CommandResult.AMENDED, events.completion().result());
        assertEquals(List.of(level(98, 1, 1), level(97, 1, 1)), bids());
    }

    @Test
    void amendsPriceLevelCheckCountsOnlyWhatItsSelfTradePreventionLetsItReach() {
        start(new EngineConfig(1_000, 100, 2, 100));
        final long a = withStp("alice", Side.BUY, TimeInForce.GTC, SelfTradePrevention.EXPIRE_TAKER, 98, 1);
        final long a2 = buy(98, 1);
        buy(99, 1);
        final long own = gtc("alice", Side.SELL, 105, 3);
        sell(106, 3);
        final long s = engine.lastEventSequence();
        amend(a, 106, 0);
        assertRefused(CommandResult.TOO_MANY_PRICE_LEVELS, a, s);
        final long t = engine.lastTradeId();
        amend(a2, 105, 0);
        assertEquals(List.of(
                amended(s + 1, a2, "alice", Side.BUY, 105, 1, 0, 98, 1, false),
                trade(s + 2, t + 1, 105, 1, Side.BUY, a2, "alice", 1, own, "alice", 1, OrderStatus.PARTIALLY_FILLED),
                updated(s + 3, a2, "alice", Side.BUY, 105, 1, 1, 0, OrderStatus.FILLED, RejectReason.NONE),
                completed(CommandResult.AMENDED, a2)), events.events());
    }

    @Test
    void amendIsNotHeldToTheOpenOrderOrRestingCapacityLimits() {
        start(new EngineConfig(1, 1, 100, 100));
        final long a = buy(99, 1);
        amend(a, 98, 5);
        assertEquals(List.of(level(98, 5, 1)), bids());
        assertEquals(OrderStatus.NEW, events.update().status());
        amend(a, 0, 9);
        assertEquals(CommandResult.AMENDED, events.completion().result());
        assertEquals(List.of(level(98, 9, 1)), bids());
    }

    @Test
    void amendDoesNotChangeWhatTheDedupWindowRemembers() {
        final long id = place("alice", "c-1", BTC, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, false, 99, 5);
        amend(id, 98, 6);
        place("alice", "c-1", BTC, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, false, 99, 5);
        assertCompletedOnly(CommandResult.DUPLICATE, id);
        place("alice", "c-1", BTC, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, false, 98, 6);
        assertCompletedOnly(CommandResult.DUPLICATE_MISMATCH, id);
    }

    // ---- cancel-all ----

    @Test
    void cancelAllCancelsEveryRestingOrderOfTheAccountInAscendingIdOrder() {
        final long a1 = place("alice", null, ETH, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, false, 50, 3);
        sell(106, 1);
        final long a2 = gtc("alice", Side.SELL, 105, 2);
        final long a3 = buy(99, 5);
        limit("bob", Side.SELL, TimeInForce.IOC, 99, 2);
        final long a4 = buy(100, 1);
        final long s = engine.lastEventSequence();
        cancelAll("alice", -1, RejectReason.CANCEL_ALL);
        assertEquals(List.of(
                updatedIn(ETH, s + 1, a1, "alice", Side.BUY, 50, 3, 0, 0, OrderStatus.CANCELED, RejectReason.CANCEL_ALL),
                updated(s + 2, a2, "alice", Side.SELL, 105, 2, 0, 0, OrderStatus.CANCELED, RejectReason.CANCEL_ALL),
                updated(s + 3, a3, "alice", Side.BUY, 99, 5, 2, 0, OrderStatus.CANCELED, RejectReason.CANCEL_ALL),
                updated(s + 4, a4, "alice", Side.BUY, 100, 1, 0, 0, OrderStatus.CANCELED, RejectReason.CANCEL_ALL),
                completed(CommandResult.CANCELED_ALL, 0)), events.events());
        assertEquals(List.of(), bids());
        assertEquals(List.of(level(106, 1, 1)), asks());
        assertEquals(List.of(), ethBids());
        assertEquals(1, engine.restingOrderCount());
        cancel(a3);
        assertCompletedOnly(CommandResult.ORDER_NOT_OPEN, a3);
    }

    @Test
    void cancelAllOfOneInstrumentLeavesTheAccountsOrdersOnTheOthers() {
        final long a1 = place("alice", null, ETH, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, false, 50, 3);
        final long a2 = buy(99, 1);
        final long a3 = place("alice", null, ETH, Side.SELL, OrderType.LIMIT, TimeInForce.GTC, false, 60, 1);
        long s = engine.lastEventSequence();
        cancelAll("alice", ETH, RejectReason.CANCEL_ALL);
        assertEquals(List.of(
                updatedIn(ETH, s + 1, a1, "alice", Side.BUY, 50, 3, 0, 0, OrderStatus.CANCELED, RejectReason.CANCEL_ALL),
                updatedIn(ETH, s + 2, a3, "alice", Side.SELL, 60, 1, 0, 0, OrderStatus.CANCELED, RejectReason.CANCEL_ALL),
                completed(CommandResult.CANCELED_ALL, 0)), events.events());
        assertEquals(List.of(), ethBids());
        assertEquals(List.of(), ethAsks());
        assertEquals(List.of(level(99, 1, 1)), bids());
        s = engine.lastEventSequence();
        cancelAll("alice", BTC, RejectReason.CANCEL_ALL);
        assertEquals(List.of(
                updated(s + 1, a2, "alice", Side.BUY, 99, 1, 0, 0, OrderStatus.CANCELED, RejectReason.CANCEL_ALL),
                completed(CommandResult.CANCELED_ALL, 0)), events.events());
    }

    @Test
    void cancelAllWithNothingToCancelOnlyCompletes() {
        buy(99, 1);
        sell(101, 1);
        final long s = engine.lastEventSequence();
        cancelAll("carol", -1, RejectReason.CANCEL_ALL);
        assertRefused(CommandResult.CANCELED_ALL, 0, s);
        cancelAll("alice", ETH, RejectReason.CANCEL_ALL);
        assertRefused(CommandResult.CANCELED_ALL, 0, s);
        cancelAll("nobody", BTC, RejectReason.CANCEL_ALL_AFTER);
        assertRefused(CommandResult.CANCELED_ALL, 0, s);
        assertEquals(2, engine.restingOrderCount());
    }

    @Test
    void cancelAllFiredByTheDeadMansSwitchCarriesItsOwnReason() {
        final long a = buy(99, 1);
        final long b = gtc("alice", Side.SELL, 101, 2);
        final long s = engine.lastEventSequence();
        cancelAll("alice", -1, RejectReason.CANCEL_ALL_AFTER);
        assertEquals(List.of(
                updated(s + 1, a, "alice", Side.BUY, 99, 1, 0, 0, OrderStatus.CANCELED, RejectReason.CANCEL_ALL_AFTER),
                updated(s + 2, b, "alice", Side.SELL, 101, 2, 0, 0, OrderStatus.CANCELED,
                        RejectReason.CANCEL_ALL_AFTER),
                completed(CommandResult.CANCELED_ALL, 0)), events.events());
    }

    @Test
    void cancelAllLeavesOtherAccountsOrdersAndTheirPriorityUntouched() {
        final long x = sell(101, 2);
        gtc("alice", Side.SELL, 101, 3);
        final long y = sell(101, 4);
        final long z = gtc("carol", Side.BUY, 99, 1);
        cancelAll("alice", -1, RejectReason.CANCEL_ALL);
        assertEquals(List.of(level(101, 6, 2)), asks());
        assertEquals(List.of(level(99, 1, 1)), bids());
        gtc("dave", Side.BUY, 101, 6);
        assertEquals(List.of(new Fill(101, 2, x), new Fill(101, 4, y)), fills());
        cancel(z);
        assertEquals(CommandResult.CANCELED, events.completion().result());
    }

    @Test
    void cancelAllFreesTheAccountsOpenOrderCount() {
        start(new EngineConfig(1_000, 2, 100, 100));
        buy(98, 1);
        buy(99, 1);
        buy(97, 1);
        assertRejected(RejectReason.TOO_MANY_OPEN_ORDERS);
        cancelAll("alice", -1, RejectReason.CANCEL_ALL);
        buy(97, 1);
        assertOutcome(OrderStatus.NEW, 0, 1);
        buy(96, 1);
        assertOutcome(OrderStatus.NEW, 0, 1);
    }

    // ---- cancel on disconnect ----

    @Test
    void cancelOnDisconnectCancelsExactlyTheSessionsRestingOrdersOfTheAccountInAscendingIdOrder() {
        final long a1 = through(7, "alice", Side.BUY, 98, 2);
        final long other = through(8, "alice", Side.BUY, 97, 1);        // alice's other connection
        final long rest = buy(96, 1);                                   // alice over REST: no session
        final long a2 = through(7, "alice", Side.SELL, 105, 3);
        final long bobs = through(7, "bob", Side.SELL, 106, 1);         // the same number, another account
        final long s = engine.lastEventSequence();
        cancelOnDisconnect("alice", 7);
        assertEquals(List.of(
                updated(s + 1, a1, "alice", Side.BUY, 98, 2, 0, 0, OrderStatus.CANCELED,
                        RejectReason.CANCEL_ON_DISCONNECT),
                updated(s + 2, a2, "alice", Side.SELL, 105, 3, 0, 0, OrderStatus.CANCELED,
                        RejectReason.CANCEL_ON_DISCONNECT),
                completed(CommandResult.CANCELED_ALL, 0)), events.events());
        assertEquals(List.of(level(97, 1, 1), level(96, 1, 1)), bids());
        assertEquals(List.of(level(106, 1, 1)), asks());
        cancel(other);
        assertEquals(CommandResult.CANCELED, events.completion().result());
        cancel(rest);
        assertEquals(CommandResult.CANCELED, events.completion().result());
        cancel(bobs);
        assertEquals(CommandResult.CANCELED, events.completion().result());
    }

    @Test
    void cancelOnDisconnectLeavesWhatTheSessionsOrdersFilledAndCancelsWhatRestsOfThem() {
        final long partly = through(3, "alice", Side.SELL, 101, 5);
        through(3, "alice", Side.SELL, 100, 1);                          // filled whole below
        gtc("carol", Side.BUY, 101, 3);                                  // 1 at 100, then 2 of partly at 101
        final long s = engine.lastEventSequence();
        cancelOnDisconnect("alice", 3);
        assertEquals(List.of(
                updated(s + 1, partly, "alice", Side.SELL, 101, 5, 2, 0, OrderStatus.CANCELED,
                        RejectReason.CANCEL_ON_DISCONNECT),
                completed(CommandResult.CANCELED_ALL, 0)), events.events());
        assertEquals(List.of(), asks());
    }

    @Test
    void anAmendedOrderKeepsItsSessionAndIsCanceledOnDisconnect() {
        final long order = through(5, "alice", Side.BUY, 90, 1);
        amend(order, 91, 2);                                             // back of a new level, same node
        final long s = engine.lastEventSequence();
        cancelOnDisconnect("alice", 5);
        assertEquals(List.of(
                updated(s + 1, order, "alice", Side.BUY, 91, 2, 0, 0, OrderStatus.CANCELED,
                        RejectReason.CANCEL_ON_DISCONNECT),
                completed(CommandResult.CANCELED_ALL, 0)), events.events());
    }

    @Test
    void cancelOnDisconnectWithNothingOfTheSessionRestingOnlyCompletes() {
        buy(99, 1);
        through(4, "alice", Side.SELL, 120, 1);
        final long s = engine.lastEventSequence();
        cancelOnDisconnect("alice", 9);
        assertRefused(CommandResult.CANCELED_ALL, 0, s);
        cancelOnDisconnect("nobody", 4);
        assertRefused(CommandResult.CANCELED_ALL, 0, s);
        assertEquals(2, engine.restingOrderCount());
    }

    // ---- self-trade prevention ----

    @Test
    void selfTradePreventionNoneTradesWithTheSameAccountAsThePlaceWithoutAModeDoes() {
        final long m1 = gtc("alice", Side.SELL, 100, 2);
        long s = engine.lastEventSequence();
        long t = engine.lastTradeId();
        final long id = withStp("alice", Side.BUY, TimeInForce.GTC, SelfTradePrevention.NONE, 100, 2);
        assertEquals(List.of(
                accepted(s + 1, id, "alice", Side.BUY, OrderType.LIMIT, TimeInForce.GTC, false, 100, 2),
                trade(s + 2, t + 1, 100, 2, Side.BUY, id, "alice", 2, m1, "alice", 2, OrderStatus.FILLED),
                updated(s + 3, id, "alice", Side.BUY, 100, 2, 2, 0, OrderStatus.FILLED, RejectReason.NONE),
                completed(CommandResult.PLACED, id)), events.events());
        final long m2 = gtc("alice", Side.SELL, 100, 2);
        s = engine.lastEventSequence();
        t = engine.lastTradeId();
        final long id2 = gtc("alice", Side.BUY, 100, 2);
        assertEquals(List.of(
                accepted(s + 1, id2, "alice", Side.BUY, OrderType.LIMIT, TimeInForce.GTC, false, 100, 2),
                trade(s + 2, t + 1, 100, 2, Side.BUY, id2, "alice", 2, m2, "alice", 2, OrderStatus.FILLED),
                updated(s + 3, id2, "alice", Side.BUY, 100, 2, 2, 0, OrderStatus.FILLED, RejectReason.NONE),
                completed(CommandResult.PLACED, id2)), events.events());
    }

    @Test
    void expireMakerCancelsEachOwnRestingOrderItMeetsAndContinuesWithTheNextMaker() {
        final long own1 = gtc("alice", Side.SELL, 100, 2);
        final long m2 = sell(100, 3);
        final long own3 = gtc("alice", Side.SELL, 101, 1);
        final long m4 = sell(101, 4);
        limit("carol", Side.BUY, TimeInForce.IOC, 100, 1);
        final long s = engine.lastEventSequence();
        final long t = engine.lastTradeId();
        final long id = withStp("alice", Side.BUY, TimeInForce.GTC, SelfTradePrevention.EXPIRE_MAKER, 101, 9);
        assertEquals(List.of(
                accepted(s + 1, id, "alice", Side.BUY, OrderType.LIMIT, TimeInForce.GTC, false, 101, 9),
                updated(s + 2, own1, "alice", Side.SELL, 100, 2, 1, 0, OrderStatus.CANCELED,
                        RejectReason.SELF_TRADE_PREVENTED),
                trade(s + 3, t + 1, 100, 3, Side.BUY, id, "alice", 3, m2, "bob", 3, OrderStatus.FILLED),
                updated(s + 4, own3, "alice", Side.SELL, 101, 1, 0, 0, OrderStatus.CANCELED,
                        RejectReason.SELF_TRADE_PREVENTED),
                trade(s + 5, t + 2, 101, 4, Side.BUY, id, "alice", 7, m4, "bob", 4, OrderStatus.FILLED),
                updated(s + 6, id, "alice", Side.BUY, 101, 9, 7, 2, OrderStatus.PARTIALLY_FILLED, RejectReason.NONE),
                completed(CommandResult.PLACED, id)), events.events());
        assertEquals(List.of(level(101, 2, 1)), bids());
        assertEquals(List.of(), asks());
    }

    @Test
    void expireTakerStopsAtTheOwnOrderAndTheTakerExpiresKeepingItsFillsEvenWhenGtc() {
        final long m1 = sell(100, 2);
        final long own = gtc("alice", Side.SELL, 100, 3);
        sell(100, 4);
        final long s = engine.lastEventSequence();
        final long t = engine.lastTradeId();
        final long id = withStp("alice", Side.BUY, TimeInForce.GTC, SelfTradePrevention.EXPIRE_TAKER, 100, 10);
        assertEquals(List.of(
                accepted(s + 1, id, "alice", Side.BUY, OrderType.LIMIT, TimeInForce.GTC, false, 100, 10),
                trade(s + 2, t + 1, 100, 2, Side.BUY, id, "alice", 2, m1, "bob", 2, OrderStatus.FILLED),
                updated(s + 3, id, "alice", Side.BUY, 100, 10, 2, 0, OrderStatus.EXPIRED,
                        RejectReason.SELF_TRADE_PREVENTED),
                completed(CommandResult.PLACED, id)), events.events());
        assertEquals(List.of(), bids(), "the GTC remainder does not rest");
        assertEquals(List.of(level(100, 7, 2)), asks());
        market(Side.BUY, 3);
        assertEquals(List.of(new Fill(100, 3, own)), fills(), "the own order stays first");
    }

    @Test
    void expireTakerExpiresTakersOfEveryTimeInForceBeforeAnyFill() {
        gtc("alice", Side.SELL, 100, 3);
        for (final TimeInForce tif : new TimeInForce[] {TimeInForce.GTC, TimeInForce.IOC}) {
            final long s = engine.lastEventSequence();
            final long id = withStp("alice", Side.BUY, tif, SelfTradePrevention.EXPIRE_TAKER, 100, 1);
            assertEquals(List.of(
                    accepted(s + 1, id, "alice", Side.BUY, OrderType.LIMIT, tif, false, 100, 1),
                    updated(s + 2, id, "alice", Side.BUY, 100, 1, 0, 0, OrderStatus.EXPIRED,
                            RejectReason.SELF_TRADE_PREVENTED),
                    completed(CommandResult.PLACED, id)), events.events());
        }
        final long s = engine.lastEventSequence();
        final long id = marketWithStp("alice", Side.BUY, SelfTradePrevention.EXPIRE_TAKER, 1);
        assertEquals(List.of(
                accepted(s + 1, id, "alice", Side.BUY, OrderType.MARKET, TimeInForce.IOC, false, 0, 1),
                updated(s + 2, id, "alice", Side.BUY, 0, 1, 0, 0, OrderStatus.EXPIRED,
                        RejectReason.SELF_TRADE_PREVENTED),
                completed(CommandResult.PLACED, id)), events.events());
        assertEquals(List.of(level(100, 3, 1)), asks());
        assertEquals(List.of(), bids());
    }

    @Test
    void expireBothCancelsTheOwnOrderAndExpiresTheTaker() {
        final long m1 = sell(100, 2);
        final long own = gtc("alice", Side.SELL, 100, 3);
        sell(100, 4);
        final long s = engine.lastEventSequence();
        final long t = engine.lastTradeId();
        final long id = withStp("alice", Side.BUY, TimeInForce.GTC, SelfTradePrevention.EXPIRE_BOTH, 100, 10);
        assertEquals(List.of(
                accepted(s + 1, id, "alice", Side.BUY, OrderType.LIMIT, TimeInForce.GTC, false, 100, 10),
                trade(s + 2, t + 1, 100, 2, Side.BUY, id, "alice", 2, m1, "bob", 2, OrderStatus.FILLED),
                updated(s + 3, own, "alice", Side.SELL, 100, 3, 0, 0, OrderStatus.CANCELED,
                        RejectReason.SELF_TRADE_PREVENTED),
                updated(s + 4, id, "alice", Side.BUY, 100, 10, 2, 0, OrderStatus.EXPIRED,
                        RejectReason.SELF_TRADE_PREVENTED),
                completed(CommandResult.PLACED, id)), events.events());
        assertEquals(List.of(), bids());
        assertEquals(List.of(level(100, 4, 1)), asks());
    }

    @Test
    void theTakersModeDecidesNotTheMakers() {
        final long maker = withStp("alice", Side.SELL, TimeInForce.GTC, SelfTradePrevention.EXPIRE_BOTH, 100, 2);
        gtc("alice", Side.BUY, 100, 2);
        assertEquals(List.of(new Fill(100, 2, maker)), fills());
        assertOutcome(OrderStatus.FILLED, 2, 0);
    }

    @Test
    void fokWithExpireTakerCountsOnlyTheLiquidityBeforeItsOwnOrder() {
        final long m1 = sell(100, 2);
        gtc("alice", Side.SELL, 100, 3);
        sell(101, 5);
        final long s = engine.lastEventSequence();
        final long id = withStp("alice", Side.BUY, TimeInForce.FOK, SelfTradePrevention.EXPIRE_TAKER, 101, 4);
        assertEquals(List.of(
                accepted(s + 1, id, "alice", Side.BUY, OrderType.LIMIT, TimeInForce.FOK, false, 101, 4),
                updated(s + 2, id, "alice", Side.BUY, 101, 4, 0, 0, OrderStatus.EXPIRED, RejectReason.NONE),
                completed(CommandResult.PLACED, id)), events.events());
        assertEquals(List.of(level(100, 5, 2), level(101, 5, 1)), asks());
        withStp("alice", Side.BUY, TimeInForce.FOK, SelfTradePrevention.EXPIRE_TAKER, 101, 2);
        assertEquals(List.of(new Fill(100, 2, m1)), fills());
        assertOutcome(OrderStatus.FILLED, 2, 0);
        assertEquals(List.of(level(100, 3, 1), level(101, 5, 1)), asks());
    }

    @Test
    void fokWithExpireMakerSkipsItsOwnOrdersWhenCountingAndCancelsThemWhenFilling() {
        final long m1 = sell(100, 2);
        final long own = gtc("alice", Side.SELL, 100, 3);
        final long m3 = sell(101, 5);
        long s = engine.lastEventSequence();
        final long tooBig = withStp("alice", Side.BUY, TimeInForce.FOK, SelfTradePrevention.EXPIRE_MAKER, 101, 8);
        assertEquals(List.of(
                accepted(s + 1, tooBig, "alice", Side.BUY, OrderType.LIMIT, TimeInForce.FOK, false, 101, 8),
                updated(s + 2, tooBig, "alice", Side.BUY, 101, 8, 0, 0, OrderStatus.EXPIRED, RejectReason.NONE),
                completed(CommandResult.PLACED, tooBig)), events.events());
        assertEquals(List.of(level(100, 5, 2), level(101, 5, 1)), asks(), "nothing canceled");
        s = engine.lastEventSequence();
        final long t = engine.lastTradeId();
        final long id = withStp("alice", Side.BUY, TimeInForce.FOK, SelfTradePrevention.EXPIRE_MAKER, 101, 7);
        assertEquals(List.of(
                accepted(s + 1, id, "alice", Side.BUY, OrderType.LIMIT, TimeInForce.FOK, false, 101, 7),
                trade(s + 2, t + 1, 100, 2, Side.BUY, id, "alice", 2, m1, "bob", 2, OrderStatus.FILLED),
                updated(s + 3, own, "alice", Side.SELL, 100, 3, 0, 0, OrderStatus.CANCELED,
                        RejectReason.SELF_TRADE_PREVENTED),
                trade(s + 4, t + 2, 101, 5, Side.BUY, id, "alice", 7, m3, "bob", 5, OrderStatus.FILLED),
                updated(s + 5, id, "alice", Side.BUY, 101, 7, 7, 0, OrderStatus.FILLED, RejectReason.NONE),
                completed(CommandResult.PLACED, id)), events.events());
        assertEquals(List.of(), asks());
    }

    @Test
    void fokWithExpireBothStopsCountingAtItsOwnOrder() {
        final long m1 = sell(100, 2);
        gtc("alice", Side.SELL, 100, 3);
        sell(101, 5);
        withStp("alice", Side.BUY, TimeInForce.FOK, SelfTradePrevention.EXPIRE_BOTH, 101, 3);
        assertOutcome(OrderStatus.EXPIRED, 0, 0);
        assertEquals(RejectReason.NONE, events.update().rejectReason());
        assertEquals(List.of(level(100, 5, 2), level(101, 5, 1)), asks());
        withStp("alice", Side.BUY, TimeInForce.FOK, SelfTradePrevention.EXPIRE_BOTH, 101, 2);
        assertEquals(List.of(new Fill(100, 2, m1)), fills());
        assertOutcome(OrderStatus.FILLED, 2, 0);
        assertEquals(List.of(level(100, 3, 1), level(101, 5, 1)), asks());
    }

    @Test
    void gtcRestingLimitsAreCheckedAgainstWhatSelfTradePreventionLetsTheOrderFill() {
        start(new EngineConfig(1_000, 100, 1, 100));
        gtc("carol", Side.BUY, 95, 1);
        gtc("alice", Side.SELL, 100, 3);
        withStp("alice", Side.BUY, TimeInForce.GTC, SelfTradePrevention.EXPIRE_MAKER, 100, 3);
        assertRejected(RejectReason.TOO_MANY_PRICE_LEVELS);
        assertEquals(List.of(level(100, 3, 1)), asks(), "nothing canceled");
        withStp("alice", Side.BUY, TimeInForce.GTC, SelfTradePrevention.NONE, 100, 3);
        assertOutcome(OrderStatus.FILLED, 3, 0);
    }

    @Test
    void postOnlyIsRejectedWhenItWouldCrossEvenIfOnlyItsOwnOrder() {
        gtc("alice", Side.SELL, 100, 1);
        for (final SelfTradePrevention stp : SelfTradePrevention.values()) {
            postOnly("alice", Side.BUY, stp, 100, 1);
            assertRejected(RejectReason.POST_ONLY_WOULD_CROSS);
        }
        assertEquals(List.of(level(100, 1, 1)), asks());
    }

    @Test
    void retryWithAnotherSelfTradePreventionModeIsAMismatch() {
        final long id = place("alice", "c-1", BTC, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, false,
                SelfTradePrevention.EXPIRE_TAKER, 100, 5);
        for (final SelfTradePrevention other : new SelfTradePrevention[] {SelfTradePrevention.NONE,
                SelfTradePrevention.EXPIRE_MAKER, SelfTradePrevention.EXPIRE_BOTH}) {
            place("alice", "c-1", BTC, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, false, other, 100, 5);
            assertCompletedOnly(CommandResult.DUPLICATE_MISMATCH, id);
        }
        place("alice", "c-1", BTC, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, false, SelfTradePrevention.EXPIRE_TAKER,
                100, 5);
        assertCompletedOnly(CommandResult.DUPLICATE, id);
        final long id2 = place("alice", "c-2", BTC, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, false, 100, 5);
        place("alice", "c-2", BTC, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, false, SelfTradePrevention.NONE, 100, 5);
        assertCompletedOnly(CommandResult.DUPLICATE, id2);
        place("alice", "c-2", BTC, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, false, SelfTradePrevention.EXPIRE_BOTH,
                100, 5);
        assertCompletedOnly(CommandResult.DUPLICATE_MISMATCH, id2);
    }

    // ---- price bands ----

    @Test
    void limitOrderOutsideTheBandAroundTheLastTradeIsRejectedOnBothSidesAndTheEdgeIsAccepted() {
        startWithBands(500, 0);
        tradeAt(1001);
        // 2p must be within floor(2002 * 500 / 10000) = 100 of 2002: 951 <= p <= 1051
        final long s = engine.lastEventSequence();
        final long id = buy(1052, 1);
        assertEquals(List.of(
                accepted(s + 1, id, "alice", Side.BUY, OrderType.LIMIT, TimeInForce.GTC, false, 1052, 1),
                updated(s + 2, id, "alice", Side.BUY, 1052, 1, 0, 0, OrderStatus.REJECTED,
                        RejectReason.PRICE_OUTSIDE_BAND),
                completed(CommandResult.PLACED, id)), events.events());
        buy(950, 1);
        assertRejected(RejectReason.PRICE_OUTSIDE_BAND);
        sell(950, 1);
        assertRejected(RejectReason.PRICE_OUTSIDE_BAND);
        sell(1052, 1);
        assertRejected(RejectReason.PRICE_OUTSIDE_BAND);
        assertEquals(List.of(), bids());
        assertEquals(List.of(), asks());
        buy(951, 1);
        assertOutcome(OrderStatus.NEW, 0, 1);
        sell(1051, 1);
        assertOutcome(OrderStatus.NEW, 0, 1);
        assertEquals(List.of(level(951, 1, 1)), bids());
        assertEquals(List.of(level(1051, 1, 1)), asks());
    }

    @Test
    void bandIsCheckedBeforeEverythingElseForLimitOrdersOfAnyTimeInForce() {
        startWithBands(new EngineConfig(1_000, 2, 100, 100), 500, 0);
        tradeAt(1000);
        sell(1040, 5);
        buy(990, 1);
        buy(991, 1);
        limit("alice", Side.BUY, TimeInForce.IOC, 1051, 1);
        assertRejected(RejectReason.PRICE_OUTSIDE_BAND);
        limit("alice", Side.BUY, TimeInForce.FOK, 1051, 1);
        assertRejected(RejectReason.PRICE_OUTSIDE_BAND);
        postOnly("alice", Side.BUY, SelfTradePrevention.NONE, 1051, 1);
        assertRejected(RejectReason.PRICE_OUTSIDE_BAND);
        buy(949, 1);
        assertRejected(RejectReason.PRICE_OUTSIDE_BAND);
        buy(989, 1);
        assertRejected(RejectReason.TOO_MANY_OPEN_ORDERS);
        assertEquals(List.of(level(1040, 5, 1)), asks());
    }

    @Test
    void bandReferenceIsBestBidPlusBestAskWhenNothingHasTraded() {
        startWithBands(500, 0);
        buy(990, 1);
        sell(1011, 1);
        // 2p must be within floor(2001 * 500 / 10000) = 100 of 2001: 950.5 <= p <= 1050.5
        buy(950, 1);
        assertRejected(RejectReason.PRICE_OUTSIDE_BAND);
        buy(951, 1);
        assertOutcome(OrderStatus.NEW, 0, 1);
        sell(1051, 1);
        assertRejected(RejectReason.PRICE_OUTSIDE_BAND);
        sell(1050, 1);
        assertOutcome(OrderStatus.NEW, 0, 1);
    }

    @Test
    void noBandWhileNothingHasTradedAndASideIsEmpty() {
        startWithBands(500, 0);
        buy(10, 1);
        assertOutcome(OrderStatus.NEW, 0, 1);
        buy(1000, 1);
        assertOutcome(OrderStatus.NEW, 0, 1);
        sell(5000, 1);
        assertOutcome(OrderStatus.NEW, 0, 1);
        // now both sides have a level: reference 1000 + 5000, 2p within 300 of 6000
        sell(3151, 1);
        assertRejected(RejectReason.PRICE_OUTSIDE_BAND);
        sell(3150, 1);
        assertOutcome(OrderStatus.NEW, 0, 1);
    }

    @Test
    void marketOrderTradesOnlyWithinTheBandAroundTheReferenceAtItsArrival() {
        startWithBands(500, 0);
        final long a1 = sell(1000, 1);
        final long a2 = sell(1040, 2);
        final long a3 = sell(1050, 3);
        sell(1051, 4);
        sell(1100, 5);
        market(Side.BUY, 1);
        assertEquals(List.of(new Fill(1000, 1, a1)), fills(), "no reference yet: no band");
        // reference 1000: a BUY may trade up to 1050; the trades at 1050 do not widen it for this order
        final long s = engine.lastEventSequence();
        final long t = engine.lastTradeId();
        final long id = market(Side.BUY, 20);
        assertEquals(List.of(
                accepted(s + 1, id, "carol", Side.BUY, OrderType.MARKET, TimeInForce.IOC, false, 0, 20),
                trade(s + 2, t + 1, 1040, 2, Side.BUY, id, "carol", 2, a2, "bob", 2, OrderStatus.FILLED),
                trade(s + 3, t + 2, 1050, 3, Side.BUY, id, "carol", 5, a3, "bob", 3, OrderStatus.FILLED),
                updated(s + 4, id, "carol", Side.BUY, 0, 20, 5, 0, OrderStatus.EXPIRED,
                        RejectReason.PRICE_OUTSIDE_BAND),
                completed(CommandResult.PLACED, id)), events.events());
        assertEquals(List.of(level(1051, 4, 1), level(1100, 5, 1)), asks());
    }

    @Test
    void marketOrderThatEmptiesTheOppositeSideExpiresWithoutAReasonAndTheBandFollowsTheLastTrade() {
        startWithBands(500, 0);
        sell(1000, 1);
        sell(1050, 3);
        final long a3 = sell(1051, 4);
        final long a4 = sell(1100, 5);
        market(Side.BUY, 1);
        market(Side.BUY, 3);
        assertOutcome(OrderStatus.FILLED, 3, 0);
        // the last trade is now 1050: a BUY may trade up to 1102
        final long id = market(Side.BUY, 20);
        assertEquals(List.of(new Fill(1051, 4, a3), new Fill(1100, 5, a4)), fills());
        assertEquals(updated(engine.lastEventSequence(), id, "carol", Side.BUY, 0, 20, 9, 0, OrderStatus.EXPIRED,
                RejectReason.NONE), events.update());
    }

    @Test
    void sellMarketOrderStopsAtTheBandBelowTheReference() {
        startWithBands(500, 0);
        buy(1000, 1);
        final long b2 = buy(960, 2);
        final long b3 = buy(950, 3);
        buy(949, 4);
        market(Side.SELL, 1);
        market(Side.SELL, 20);
        assertEquals(List.of(new Fill(960, 2, b2), new Fill(950, 3, b3)), fills());
        assertOutcome(OrderStatus.EXPIRED, 5, 0);
        assertEquals(RejectReason.PRICE_OUTSIDE_BAND, events.update().rejectReason());
        assertEquals(List.of(level(949, 4, 1)), bids());
    }

    @Test
    void marketOrderWithNothingWithinTheBandExpiresUnfilled() {
        startWithBands(500, 0);
        sell(1000, 1);
        sell(1100, 5);
        market(Side.BUY, 1);
        final long s = engine.lastEventSequence();
        final long id = market(Side.BUY, 3);
        assertEquals(List.of(
                accepted(s + 1, id, "carol", Side.BUY, OrderType.MARKET, TimeInForce.IOC, false, 0, 3),
                updated(s + 2, id, "carol", Side.BUY, 0, 3, 0, 0, OrderStatus.EXPIRED, RejectReason.PRICE_OUTSIDE_BAND),
                completed(CommandResult.PLACED, id)), events.events());
        assertEquals(List.of(level(1100, 5, 1)), asks());
    }

    @Test
    void marketOrderStoppedBySelfTradePreventionWithinTheBandSaysSo() {
        startWithBands(500, 0);
        sell(1000, 1);
        final long m = sell(1020, 1);
        gtc("alice", Side.SELL, 1040, 2);
        sell(1100, 5);
        market(Side.BUY, 1);
        marketWithStp("alice", Side.BUY, SelfTradePrevention.EXPIRE_TAKER, 10);
        assertEquals(List.of(new Fill(1020, 1, m)), fills());
        assertOutcome(OrderStatus.EXPIRED, 1, 0);
        assertEquals(RejectReason.SELF_TRADE_PREVENTED, events.update().rejectReason());
        assertEquals(List.of(level(1040, 2, 1), level(1100, 5, 1)), asks());
    }

    @Test
    void marketOrderDoesNotCancelOwnOrdersBeyondTheBand() {
        startWithBands(500, 0);
        sell(1000, 1);
        final long m = sell(1020, 1);
        gtc("alice", Side.SELL, 1060, 2);
        market(Side.BUY, 1);
        marketWithStp("alice", Side.BUY, SelfTradePrevention.EXPIRE_MAKER, 10);
        assertEquals(List.of(new Fill(1020, 1, m)), fills());
        assertEquals(List.of(), events.updates().stream()
                .filter(u -> u.rejectReason() == RejectReason.SELF_TRADE_PREVENTED).toList(), "nothing canceled");
        assertOutcome(OrderStatus.EXPIRED, 1, 0);
        assertEquals(RejectReason.PRICE_OUTSIDE_BAND, events.update().rejectReason());
        assertEquals(List.of(level(1060, 2, 1)), asks());
    }

    @Test
    void bandFollowsTradesMadeByAnAmendedOrder() {
        startWithBands(500, 0);
        tradeAt(1000);
        final long a = buy(990, 5);
        final long m = sell(1040, 2);
        buy(1060, 1);
        assertRejected(RejectReason.PRICE_OUTSIDE_BAND);
        amend(a, 1040, 0);
        assertEquals(List.of(new Fill(1040, 2, m)), fills());
        // the last trade is now 1040: 2p within 104 of 2080, 988 <= p <= 1092
        buy(1092, 1);
        assertOutcome(OrderStatus.NEW, 0, 1);
        buy(1093, 1);
        assertRejected(RejectReason.PRICE_OUTSIDE_BAND);
    }

    @Test
    void bandZeroAndTheConstructorWithoutBandsMeanNoBand() {
        startWithBands(500, 0);
        place("bob", null, ETH, Side.SELL, OrderType.LIMIT, TimeInForce.GTC, false, 1000, 1);
        place("alice", null, ETH, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, false, 1000, 1);
        place("alice", null, ETH, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, false, 10, 1);
        assertOutcome(OrderStatus.NEW, 0, 1);
        place("bob", null, ETH, Side.SELL, OrderType.LIMIT, TimeInForce.GTC, false, 5000, 1);
        assertOutcome(OrderStatus.NEW, 0, 1);
        place("carol", null, ETH, Side.BUY, OrderType.MARKET, TimeInForce.IOC, false, 0, 1);
        assertOutcome(OrderStatus.FILLED, 1, 0);

        start(ROOMY);
        tradeAt(1000);
        buy(10, 1);
        assertOutcome(OrderStatus.NEW, 0, 1);
        sell(5000, 1);
        assertOutcome(OrderStatus.NEW, 0, 1);
        market(Side.BUY, 1);
        assertOutcome(OrderStatus.FILLED, 1, 0);
    }

    @Test
    void bandArithmeticHoldsWhereReferenceTimesBandOverflowsALong() {
        startWithBands(1_000, 0);
        tradeAt(P);
        // 10% of 1e18: 9e17 <= p <= 1.1e18, although 2e18 * 1000 does not fit in a long
        buy(P / 10 * 9, 1);
        assertOutcome(OrderStatus.NEW, 0, 1);
        buy(P / 10 * 9 - 1, 1);
        assertRejected(RejectReason.PRICE_OUTSIDE_BAND);
        sell(P / 10 * 11, 1);
        assertOutcome(OrderStatus.NEW, 0, 1);
        sell(P / 10 * 11 + 1, 1);
        assertRejected(RejectReason.PRICE_OUTSIDE_BAND);
    }
}
