package io.orderentry.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Where a price band lets an order trade, on both of its edges (issue 31): a MARKET order trades only at prices inside
 * the band, also when the best maker sits beyond the band's near edge because trades moved the reference away from
 * it; a LIMIT order (new or amended) priced inside the band trades with every maker its price reaches, at the maker's
 * price; and a band set under {@link MarketBandRule#FAR_EDGE_ONLY} keeps the older rule, for replaying what older
 * builds journaled. Proven for both engines, so that the differential test's reference agrees with the contract.
 *
 * <p>Most tests start from the book of the issue: a SELL at 45,000 and a BUY of 2 at 50,000 that trades 1 at 45,000 and
 * rests its remainder at 50,000; with a 10% band the reference is then 45,000 and the band [40,500, 49,500], so the
 * resting bid is above the band's top.
 */
abstract class PriceBandContractTest extends ContractTestSupport {

    private static final int TEN_PERCENT = 1_000;

    abstract OrderEngine newEngine(int symbolCount, EngineConfig limits, int[] priceBandBasisPoints, EventSink sink);

    private void startWithBand(final int basisPoints) {
        start(ROOMY, newEngine(SYMBOLS, ROOMY, new int[] {basisPoints, 0}, events));
    }

    private long gtc(final String account, final Side side, final long price, final long quantity) {
        return limit(account, side, TimeInForce.GTC, price, quantity);
    }

    private long market(final String account, final Side side, final SelfTradePrevention stp, final long quantity) {
        return place(account, null, BTC, side, OrderType.MARKET, TimeInForce.IOC, false, stp, 0, quantity);
    }

    /** The book: reference 45,000 after one trade, b's remaining bid of 1 at 50,000, above the band. @return it */
    private long bidLeftAboveTheBand() {
        gtc("a", Side.SELL, 45_000, 1);
        final long bid = gtc("b", Side.BUY, 50_000, 2);
        assertEquals(List.of(new Fill(45_000, 1, bid - 1)), fills());
        assertOutcome(OrderStatus.PARTIALLY_FILLED, 1, 1);
        return bid;
    }

    /** The mirror: reference 45,000 after one trade, b's remaining ask of 1 at 40,000, below the band's bottom. */
    private long askLeftBelowTheBand() {
        gtc("a", Side.BUY, 45_000, 1);
        final long ask = gtc("b", Side.SELL, 40_000, 2);
        assertEquals(List.of(new Fill(45_000, 1, ask - 1)), fills());
        assertOutcome(OrderStatus.PARTIALLY_FILLED, 1, 1);
        return ask;
    }

    /** Asserts that the last MARKET order traded nothing, changed nothing and expired with PRICE_OUTSIDE_BAND. */
    private void assertStoppedByTheBandUntouched(final long orderId, final Side side, final long quantity) {
        final long s = engine.lastEventSequence();
        assertEquals(List.of(
                new RecordedEvent.Accepted(s - 1, now(), orderId, events.update().accountId(), null, BTC, side,
                        OrderType.MARKET, TimeInForce.IOC, false, 0, quantity),
                new RecordedEvent.Updated(s, now(), orderId, events.update().accountId(), BTC, side, 0, quantity, 0, 0,
                        OrderStatus.EXPIRED, RejectReason.PRICE_OUTSIDE_BAND),
                new RecordedEvent.Completed(CommandResult.PLACED, orderId)), events.events());
    }

    @Test
    void marketSellTradesNothingWhenTheBestBidIsAboveTheBand() {
        startWithBand(TEN_PERCENT);
        bidLeftAboveTheBand();
        final long trades = engine.lastTradeId();
        final long id = market(Side.SELL, 1);
        assertStoppedByTheBandUntouched(id, Side.SELL, 1);
        assertEquals(trades, engine.lastTradeId());
        assertEquals(List.of(level(50_000, 1, 1)), bids());
    }

    @Test
    void marketBuyTradesNothingWhenTheBestAskIsBelowTheBand() {
        startWithBand(TEN_PERCENT);
        askLeftBelowTheBand();
        final long id = market(Side.BUY, 1);
        assertStoppedByTheBandUntouched(id, Side.BUY, 1);
        assertEquals(List.of(level(40_000, 1, 1)), asks());
    }

    @Test
    void marketSellStopsBeforeABidAboveTheBandEvenWithBidsInsideItBehind() {
        startWithBand(TEN_PERCENT);
        bidLeftAboveTheBand();
        gtc("d", Side.BUY, 45_000, 3);
        final long id = market(Side.SELL, 2);
        assertStoppedByTheBandUntouched(id, Side.SELL, 2);
        assertEquals(List.of(level(50_000, 1, 1), level(45_000, 3, 1)), bids(), "no maker skipped, none traded");
    }

    @Test
    void marketSellTradesWithABidOnTheBandsTopEdgeButNotOneTickAboveIt() {
        startWithBand(TEN_PERCENT);
        gtc("a", Side.SELL, 45_000, 1);
        final long edge = gtc("b", Side.BUY, 49_500, 2);
        market(Side.SELL, 1);
        assertEquals(List.of(new Fill(49_500, 1, edge)), fills(), "the edge is inside");
        assertOutcome(OrderStatus.FILLED, 1, 0);

        startWithBand(TEN_PERCENT);
        gtc("a", Side.SELL, 45_000, 1);
        gtc("b", Side.BUY, 49_501, 2);
        final long id = market(Side.SELL, 1);
        assertStoppedByTheBandUntouched(id, Side.SELL, 1);
    }

    @Test
    void marketBuyTradesWithAnAskOnTheBandsBottomEdgeButNotOneTickBelowIt() {
        startWithBand(TEN_PERCENT);
        gtc("a", Side.BUY, 45_000, 1);
        final long edge = gtc("b", Side.SELL, 40_500, 2);
        market(Side.BUY, 1);
        assertEquals(List.of(new Fill(40_500, 1, edge)), fills(), "the edge is inside");
        assertOutcome(OrderStatus.FILLED, 1, 0);

        startWithBand(TEN_PERCENT);
        gtc("a", Side.BUY, 45_000, 1);
        gtc("b", Side.SELL, 40_499, 2);
        final long id = market(Side.BUY, 1);
        assertStoppedByTheBandUntouched(id, Side.BUY, 1);
    }

    @Test
    void marketOrderStartingOnTheNearEdgeSweepsTheBandToItsFarEdge() {
        startWithBand(TEN_PERCENT);
        gtc("a", Side.SELL, 45_000, 1);
        final long top = gtc("b", Side.BUY, 49_500, 2);
        final long mid = gtc("c", Side.BUY, 45_000, 1);
        final long bottom = gtc("c", Side.BUY, 40_500, 1);
        final long id = market(Side.SELL, 10);
        assertEquals(List.of(new Fill(49_500, 1, top), new Fill(45_000, 1, mid), new Fill(40_500, 1, bottom)), fills());
        assertEquals(new RecordedEvent.Updated(engine.lastEventSequence(), now(), id, "carol", BTC, Side.SELL, 0, 10, 3,
                0, OrderStatus.EXPIRED, RejectReason.NONE), events.update());
    }

    @ParameterizedTest
    @EnumSource(SelfTradePrevention.class)
    void marketSellMeetingItsOwnBidAboveTheBandCancelsNothingAndSaysPriceOutsideBand(final SelfTradePrevention stp) {
        startWithBand(TEN_PERCENT);
        bidLeftAboveTheBand();
        final long id = market("b", Side.SELL, stp, 1);
        assertStoppedByTheBandUntouched(id, Side.SELL, 1);
        assertEquals(List.of(level(50_000, 1, 1)), bids(), "b's bid still rests");
    }

    @ParameterizedTest
    @EnumSource(SelfTradePrevention.class)
    void marketBuyMeetingItsOwnAskBelowTheBandCancelsNothingAndSaysPriceOutsideBand(final SelfTradePrevention stp) {
        startWithBand(TEN_PERCENT);
        askLeftBelowTheBand();
        final long id = market("b", Side.BUY, stp, 1);
        assertStoppedByTheBandUntouched(id, Side.BUY, 1);
        assertEquals(List.of(level(40_000, 1, 1)), asks(), "b's ask still rests");
    }

    @Test
    void selfTradePreventionStillAppliesToOwnMakersInsideTheBand() {
        startWithBand(TEN_PERCENT);
        gtc("a", Side.SELL, 45_000, 1);
        gtc("b", Side.BUY, 49_000, 2);
        final long other = gtc("d", Side.BUY, 48_000, 1);
        market("b", Side.SELL, SelfTradePrevention.EXPIRE_MAKER, 1);
        assertEquals(List.of(new Fill(48_000, 1, other)), fills());
        assertEquals(1, events.updates().stream()
                .filter(u -> u.rejectReason() == RejectReason.SELF_TRADE_PREVENTED).count(), "b's own bid canceled");
        assertEquals(OrderStatus.FILLED, events.updates().get(events.updates().size() - 1).status());
    }

    @Test
    void limitSellInsideTheBandTradesWithABidAboveTheBandAtTheBidsPrice() {
        startWithBand(TEN_PERCENT);
        final long bid = bidLeftAboveTheBand();
        limit("c", Side.SELL, TimeInForce.IOC, 49_500, 1);
        assertEquals(List.of(new Fill(50_000, 1, bid)), fills(), "at the maker's price, better than its own");
        assertOutcome(OrderStatus.FILLED, 1, 0);
        // that trade is the reference now: the band is [45,000, 55,000] and a MARKET order trades as usual
        final long next = gtc("d", Side.BUY, 46_000, 1);
        market(Side.SELL, 1);
        assertEquals(List.of(new Fill(46_000, 1, next)), fills());
    }

    @Test
    void limitBuyInsideTheBandTradesWithAnAskBelowTheBandAtTheAsksPrice() {
        startWithBand(TEN_PERCENT);
        final long ask = askLeftBelowTheBand();
        limit("c", Side.BUY, TimeInForce.GTC, 40_500, 3);
        assertEquals(List.of(new Fill(40_000, 1, ask)), fills());
        assertOutcome(OrderStatus.PARTIALLY_FILLED, 1, 2);
    }

    @Test
    void limitOrderPricedOutsideTheBandIsStillRejectedWhateverItWouldMeet() {
        startWithBand(TEN_PERCENT);
        bidLeftAboveTheBand();
        limit("c", Side.SELL, TimeInForce.IOC, 49_501, 1);
        assertRejected(RejectReason.PRICE_OUTSIDE_BAND);
        assertEquals(List.of(level(50_000, 1, 1)), bids());
    }

    @Test
    void amendedAskRepricedInsideTheBandTradesWithABidAboveTheBandAtTheBidsPrice() {
        startWithBand(TEN_PERCENT);
        final long ask = gtc("c", Side.SELL, 52_000, 1);     // no reference yet: no band
        final long bid = bidLeftAboveTheBand();
        assertEquals(List.of(level(52_000, 1, 1)), asks());
        amend(ask, 49_000, 0);
        assertEquals(List.of(new Fill(50_000, 1, bid)), fills());
        assertEquals(OrderStatus.FILLED, events.update().status());
        assertEquals(new RecordedEvent.Completed(CommandResult.AMENDED, ask), events.completion());
        assertEquals(List.of(), bids());
    }

    @Test
    void amendedAskRepricedOutsideTheBandIsRefusedEvenWhereItWouldMeetABidAboveTheBand() {
        startWithBand(TEN_PERCENT);
        final long ask = gtc("c", Side.SELL, 52_000, 1);
        bidLeftAboveTheBand();
        final long sequence = engine.lastEventSequence();
        amend(ask, 50_000, 0);
        assertCompletedOnly(CommandResult.PRICE_OUTSIDE_BAND, ask);
        assertEquals(sequence, engine.lastEventSequence());
        assertEquals(List.of(level(52_000, 1, 1)), asks());
    }

    @Test
    void marketOrderMeetsAnOrderThatAnAmendLeftBeyondTheBandsNearEdge() {
        startWithBand(100);   // 1%
        gtc("a", Side.SELL, 1_000, 1);
        gtc("b", Side.BUY, 1_000, 1);                          // reference 1,000: band [990, 1,010]
        final long ask = gtc("a", Side.SELL, 991, 1);          // inside the band
        final long bid = gtc("b", Side.BUY, 990, 2);           // on its bottom edge
        amend(bid, 1_010, 0);                                  // trades at 991: the reference drops to 991
        assertEquals(List.of(new Fill(991, 1, ask)), fills());
        assertEquals(OrderStatus.PARTIALLY_FILLED, events.update().status());
        // band around 991: [981.5, 1,000.5] (the half width is floored on the doubled scale); the remaining bid at
        // 1,010 is above its top
        final long id = market(Side.SELL, 1);
        assertStoppedByTheBandUntouched(id, Side.SELL, 1);
        assertEquals(List.of(level(1_010, 1, 1)), bids());
    }

    @Test
    void bandSetUnderTheFarEdgeOnlyRuleStillTradesBeyondTheNearEdgeForReplay() {
        startWithBand(0);
        engine.setPriceBand(now(), BTC, TEN_PERCENT, MarketBandRule.FAR_EDGE_ONLY);
        final long bid = bidLeftAboveTheBand();
        market(Side.SELL, 1);
        assertEquals(List.of(new Fill(50_000, 1, bid)), fills(), "what a build before issue 31 did and journaled");
        assertOutcome(OrderStatus.FILLED, 1, 0);
    }

    @Test
    void bandSetUnderTheFarEdgeOnlyRuleReplaysItsSelfTradePreventionBeyondTheNearEdge() {
        startWithBand(0);
        engine.setPriceBand(now(), BTC, TEN_PERCENT, MarketBandRule.FAR_EDGE_ONLY);
        bidLeftAboveTheBand();
        market("b", Side.SELL, SelfTradePrevention.EXPIRE_MAKER, 1);
        assertEquals(1, events.updates().stream()
                .filter(u -> u.rejectReason() == RejectReason.SELF_TRADE_PREVENTED).count());
        assertEquals(List.of(), bids());
    }

    @Test
    void bandSetAgainUnderTheCurrentRuleAppliesItFromTheNextOrderOn() {
        startWithBand(0);
        engine.setPriceBand(now(), BTC, TEN_PERCENT, MarketBandRule.FAR_EDGE_ONLY);
        bidLeftAboveTheBand();
        engine.setPriceBand(now(), BTC, TEN_PERCENT);
        final long id = market("b", Side.SELL, SelfTradePrevention.EXPIRE_MAKER, 1);
        assertStoppedByTheBandUntouched(id, Side.SELL, 1);
    }
}
