package io.orderentry.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The balances' contract ({@link Funds}; the matcher's class documentation, "Balances"): funding, what each order
 * holds, how a trade settles and where its fees go, and how every way an order leaves the book gives back what it
 * held. Proven for the {@link Matcher} and the {@link ReferenceMatcher}, which the differential test then compares on
 * random commands. After every test the engine's invariants hold, balances included: nothing negative, held equal to
 * what the resting orders need, every asset adding up to what was funded.
 *
 * <p>Instruments: BTC (index 0) trades asset BTC against USD with a lot worth 1 unit of BTC and a price unit x lot
 * worth 1 unit of USD; ETH (index 1) trades ETH against USD with a lot worth 10 units of ETH and a price unit x lot
 * worth 2 units of USD.
 */
abstract class BalanceContractTest extends ContractTestSupport {

    static final int A_BTC = 0;
    static final int A_USD = 1;
    static final int A_ETH = 2;
    static final String FEES = "fees";

    private long references;

    abstract OrderEngine newEngine(int symbolCount, EngineConfig limits, RiskRules risk, EventSink sink);

    static RiskRules rules(final int makerFee, final int takerFee) {
        return new RiskRules(new String[] {"BTC", "USD", "ETH"}, new int[] {8, 2, 8}, new int[] {A_BTC, A_ETH}, new int[] {A_USD, A_USD},
                new long[] {1, 10}, new long[] {1, 2}, new int[] {makerFee, 0}, new int[] {takerFee, 0}, FEES);
    }

    @BeforeEach
    void startWithBalances() {
        startWith(rules(0, 0));
    }

    void startWith(final RiskRules risk) {
        start(ROOMY, newEngine(SYMBOLS, ROOMY, risk, events));
    }

    /** Funds with a fresh reference; the recorded events are this command's only. */
    void fund(final String account, final int asset, final long amount) {
        fund(account, asset, amount, "ref-" + ++references);
    }

    void fund(final String account, final int asset, final long amount, final String reference) {
        events.clear();
        engine.fund(now() + 1, account, asset, amount, reference);
    }

    void assertBalance(final String account, final int asset, final long available, final long held) {
        assertEquals(List.of(available, held), List.of(engine.available(account, asset), engine.held(account, asset)),
                account + " asset " + asset + " available, held");
    }

    List<BalanceCause> causes() {
        return events.balances().stream().map(RecordedEvent.Balance::cause).toList();
    }

    // ---- funding

    @Test
    void aDepositAddsToAvailableAndAnswersWithTheNewBalanceAndItsSequence() {
        fund("alice", A_USD, 1_000);
        final RecordedEvent.Balance deposit = events.balances().get(0);
        assertEquals(List.of(BalanceCause.DEPOSIT, 1_000L, 0L, 1_000L, "ref-1"), List.of(deposit.cause(),
                deposit.available(), deposit.held(), deposit.availableChange(), deposit.reference()));
        assertEquals(new RecordedEvent.Funded(CommandResult.FUNDED, "alice", A_USD, 1_000, 0, deposit.sequence()),
                events.funded());
        assertEquals(engine.lastEventSequence(), deposit.sequence());
        assertBalance("alice", A_USD, 1_000, 0);
        assertEquals(1_000, engine.supply(A_USD));
    }

    @Test
    void aRetryOfAFundingWithTheSameReferenceChangesNothingAndAnswersWhatTheFirstAnswered() {
        fund("alice", A_USD, 1_000, "dep-1");
        final RecordedEvent.Funded first = events.funded();
        fund("alice", A_USD, 500, "dep-2");
        fund("alice", A_USD, 1_000, "dep-1");
        assertEquals(List.of(), events.balances());
        assertEquals(new RecordedEvent.Funded(CommandResult.FUNDING_DUPLICATE, "alice", A_USD, first.available(),
                first.held(), first.sequence()), events.funded());
        assertBalance("alice", A_USD, 1_500, 0);
    }

    @Test
    void aReferenceReusedForAnotherAccountAssetOrAmountIsAMismatchThatChangesNothing() {
        fund("alice", A_USD, 1_000, "dep-1");
        for (final Runnable retry : List.<Runnable>of(() -> fund("bob", A_USD, 1_000, "dep-1"),
                () -> fund("alice", A_BTC, 1_000, "dep-1"), () -> fund("alice", A_USD, 999, "dep-1"))) {
            retry.run();
            assertEquals(CommandResult.FUNDING_MISMATCH, events.funded().result());
            assertEquals(List.of(), events.balances());
        }
        assertBalance("alice", A_USD, 1_000, 0);
        assertBalance("bob", A_USD, 0, 0);
    }

    @Test
    void aWithdrawalBeyondAvailableIsRefusedAndItsReferenceStaysFree() {
        fund("alice", A_USD, 1_000);
        buy(600, 1);   // holds 600
        fund("alice", A_USD, -401, "wd-1");
        assertEquals(new RecordedEvent.Funded(CommandResult.INSUFFICIENT_BALANCE, "alice", A_USD, 400, 600, 0),
                events.funded());
        assertEquals(List.of(), events.balances());
        fund("alice", A_USD, -400, "wd-1");
        assertEquals(CommandResult.FUNDED, events.funded().result());
        assertEquals(List.of(BalanceCause.WITHDRAWAL), causes());
        assertBalance("alice", A_USD, 0, 600);
        assertEquals(600, engine.supply(A_USD));
    }

    @Test
    void aWithdrawalFromAnAccountThatNeverHadBalancesIsRefused() {
        fund("nobody", A_USD, -1);
        assertEquals(new RecordedEvent.Funded(CommandResult.INSUFFICIENT_BALANCE, "nobody", A_USD, 0, 0, 0),
                events.funded());
    }

    @Test
    void aDepositThatWouldTakeTheAssetsSupplyPastItsMaximumIsRefused() {
        fund("alice", A_USD, RiskRules.MAX_SUPPLY - 10);
        fund("bob", A_USD, 11);
        assertEquals(CommandResult.BALANCE_LIMIT_EXCEEDED, events.funded().result());
        fund("bob", A_USD, 10);
        assertEquals(CommandResult.FUNDED, events.funded().result());
        assertEquals(RiskRules.MAX_SUPPLY, engine.supply(A_USD));
    }

    // ---- what a place holds

    @Test
    void aLimitBuyHoldsPriceTimesQuantityOfTheQuoteBeforeAnythingTrades() {
        fund("alice", A_USD, 1_000);
        final long id = buy(100, 7);
        assertOutcome(OrderStatus.NEW, 0, 7);
        final RecordedEvent.Balance hold = events.balances().get(0);
        assertEquals(List.of(BalanceCause.HOLD, A_USD, -700L, 700L, id), List.of(hold.cause(), hold.asset(),
                hold.availableChange(), hold.heldChange(), hold.orderId()));
        assertBalance("alice", A_USD, 300, 700);
    }

    @Test
    void aBuyOnAnInstrumentWithLargerUnitsHoldsPriceTimesQuantityTimesTheQuoteUnits() {
        fund("alice", A_USD, 1_000);
        place("alice", null, ETH, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, false, 50, 3);
        assertBalance("alice", A_USD, 700, 300);
        fund("bob", A_ETH, 100);
        place("bob", null, ETH, Side.SELL, OrderType.LIMIT, TimeInForce.GTC, false, 60, 4);
        assertBalance("bob", A_ETH, 60, 40);
    }

    @Test
    void aSellHoldsItsQuantityOfTheBase() {
        fund("bob", A_BTC, 10);
        sell(100, 4);
        assertBalance("bob", A_BTC, 6, 4);
        assertEquals(List.of(BalanceCause.HOLD), causes());
    }

    @Test
    void anOrderItsAvailableBalanceDoesNotCoverIsRejectedAndChangesNothing() {
        fund("alice", A_USD, 699);
        buy(100, 7);
        assertRejected(RejectReason.INSUFFICIENT_BALANCE);
        assertEquals(List.of(), events.balances());
        assertBalance("alice", A_USD, 699, 0);
        assertEquals(List.of(), bids());
        fund("bob", A_BTC, 3);
        sell(100, 4);
        assertRejected(RejectReason.INSUFFICIENT_BALANCE);
        assertBalance("bob", A_BTC, 3, 0);
    }

    @Test
    void anAccountThatWasNeverFundedCannotPlace() {
        limit("dave", Side.SELL, TimeInForce.GTC, 100, 1);
        assertRejected(RejectReason.INSUFFICIENT_BALANCE);
        place("dave", null, BTC, Side.SELL, OrderType.MARKET, TimeInForce.IOC, false, 0, 1);
        assertRejected(RejectReason.INSUFFICIENT_BALANCE);
    }

    @Test
    void theOtherChecksComeBeforeTheBalance() {
        fund("bob", A_BTC, 10);
        sell(100, 1);
        place("alice", null, BTC, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, true, 100, 1);
        assertRejected(RejectReason.POST_ONLY_WOULD_CROSS);
    }

    @Test
    void anOrderThatCannotCoverItsWholeQuantityIsRejectedEvenWhenItWouldTradeAtABetterPrice() {
        fund("bob", A_BTC, 10);
        sell(50, 2);
        fund("alice", A_USD, 150);
        buy(100, 2);   // would pay 100 at 50, but holds 200 at its own price
        assertRejected(RejectReason.INSUFFICIENT_BALANCE);
    }

    // ---- trades

    @Test
    void aTradeSettlesAtTheMakersPriceAndGivesTheBuyerBackWhatItHeldAboveIt() {
        fund("bob", A_BTC, 10);
        final long ask = sell(90, 4);
        fund("alice", A_USD, 1_000);
        final long bid = buy(100, 4);
        assertOutcome(OrderStatus.FILLED, 4, 0);
        final long tradeId = events.trades().get(0).tradeId();
        assertEquals(List.of(BalanceCause.HOLD, BalanceCause.TRADE, BalanceCause.TRADE, BalanceCause.TRADE,
                BalanceCause.TRADE), causes());
        final List<RecordedEvent.Balance> b = events.balances();
        // the taker's paid asset: 400 held at its price leave, 40 of them back to available
        assertEquals(List.of("alice", A_USD, 40L, -400L, bid, tradeId), List.of(b.get(1).accountId(), b.get(1).asset(),
                b.get(1).availableChange(), b.get(1).heldChange(), b.get(1).orderId(), b.get(1).tradeId()));
        // its received asset, the maker's paid asset, then the maker's received asset
        assertEquals(List.of("alice", A_BTC, 4L), List.of(b.get(2).accountId(), b.get(2).asset(),
                b.get(2).availableChange()));
        assertEquals(List.of("bob", A_BTC, -4L, ask), List.of(b.get(3).accountId(), b.get(3).asset(),
                b.get(3).heldChange(), b.get(3).orderId()));
        assertEquals(List.of("bob", A_USD, 360L), List.of(b.get(4).accountId(), b.get(4).asset(),
                b.get(4).availableChange()));
        assertTrue(b.get(1).sequence() > events.trades().get(0).sequence(), "settled after its trade event");
        assertBalance("alice", A_USD, 640, 0);
        assertBalance("alice", A_BTC, 4, 0);
        assertBalance("bob", A_BTC, 6, 0);
        assertBalance("bob", A_USD, 360, 0);
    }

    @Test
    void aSellTakerReceivesTheBidsPriceAndTheBidPaysFromWhatItHeld() {
        fund("alice", A_USD, 1_000);
        buy(100, 5);
        fund("bob", A_BTC, 10);
        limit("bob", Side.SELL, TimeInForce.GTC, 95, 3);
        assertOutcome(OrderStatus.FILLED, 3, 0);
        assertBalance("alice", A_USD, 500, 200);
        assertBalance("alice", A_BTC, 3, 0);
        assertBalance("bob", A_BTC, 7, 0);
        assertBalance("bob", A_USD, 300, 0);
    }

    @Test
    void aRestingRemainderKeepsHoldingWhatItNeedsAtItsOwnPrice() {
        fund("bob", A_BTC, 10);
        sell(90, 2);
        fund("alice", A_USD, 1_000);
        buy(100, 5);
        assertOutcome(OrderStatus.PARTIALLY_FILLED, 2, 3);
        assertBalance("alice", A_USD, 520, 300);
    }

    @Test
    void feesAreTheMakersAndTheTakersRateOfWhatEachReceivesRoundedDownAndGoToTheFeeAccount() {
        startWith(rules(1_000, 2_500));   // 0.1% maker, 0.25% taker
        fund("bob", A_BTC, 100_000);
        sell(3, 10_001);
        fund("alice", A_USD, 1_000_000);
        buy(3, 10_001);
        // alice, the taker, receives 10,001 BTC and pays floor(10,001 x 0.25%) = 25 of it; bob receives 30,003 USD
        // and pays floor(30,003 x 0.1%) = 30 of it
        assertBalance("alice", A_BTC, 10_001 - 25, 0);
        assertBalance("bob", A_USD, 30_003 - 30, 0);
        assertBalance(FEES, A_BTC, 25, 0);
        assertBalance(FEES, A_USD, 30, 0);
        final List<RecordedEvent.Balance> b = events.balances();
        assertEquals(25, b.get(2).fee());
        assertEquals(30, b.get(4).fee());
        assertEquals(List.of(BalanceCause.FEE, BalanceCause.FEE), causes().subList(5, 7));
        assertEquals(List.of(A_BTC, A_USD), List.of(b.get(5).asset(), b.get(6).asset()));
    }

    @Test
    void aFeeSmallerThanOneUnitIsNotCharged() {
        startWith(rules(1_000, 1_000));
        fund("bob", A_BTC, 10);
        sell(3, 5);
        fund("alice", A_USD, 100);
        buy(3, 5);
        assertBalance("alice", A_BTC, 5, 0);
        assertBalance(FEES, A_BTC, 0, 0);
        assertEquals(List.of(BalanceCause.HOLD, BalanceCause.TRADE, BalanceCause.TRADE, BalanceCause.TRADE,
                BalanceCause.TRADE), causes());
    }

    @Test
    void twoOrdersOfOneAccountThatTradeWithoutSelfTradePreventionMoveNothingButTheFees() {
        startWith(rules(0, 10_000));
        fund("alice", A_USD, 1_000);
        fund("alice", A_BTC, 500);
        limit("alice", Side.SELL, TimeInForce.GTC, 1, 200);
        limit("alice", Side.BUY, TimeInForce.GTC, 1, 200);
        assertOutcome(OrderStatus.FILLED, 200, 0);
        assertBalance("alice", A_USD, 1_000, 0);
        assertBalance("alice", A_BTC, 498, 0);
        assertBalance(FEES, A_BTC, 2, 0);
    }

    // ---- MARKET orders

    @Test
    void aMarketBuyHoldsNothingAndTradesAsFarAsTheAvailableQuotePaysForThenExpires() {
        fund("bob", A_BTC, 10);
        sell(100, 2);
        sell(110, 5);
        fund("carol", A_USD, 450);
        market(Side.BUY, 6);
        // 2 at 100 (200), then floor(250 / 110) = 2 at 110 (220); 30 left, which pays for no more
        assertEquals(List.of(new Fill(100, 2, 1), new Fill(110, 2, 2)), fills());
        assertOutcome(OrderStatus.EXPIRED, 4, 0);
        assertEquals(RejectReason.INSUFFICIENT_BALANCE, events.update().rejectReason());
        assertEquals(BalanceCause.TRADE, causes().get(0));
        assertEquals(-200, events.balances().get(0).availableChange());
        assertBalance("carol", A_USD, 30, 0);
        assertBalance("carol", A_BTC, 4, 0);
    }

    @Test
    void aMarketBuyWhoseQuoteCannotPayForOneLotExpiresUntradedWithInsufficientBalance() {
        fund("bob", A_BTC, 10);
        sell(100, 2);
        fund("carol", A_USD, 99);
        market(Side.BUY, 1);
        assertOutcome(OrderStatus.EXPIRED, 0, 0);
        assertEquals(RejectReason.INSUFFICIENT_BALANCE, events.update().rejectReason());
        assertEquals(List.of(), events.balances());
    }

    @Test
    void aMarketBuyThatRunsOutOfLiquidityBeforeFundsExpiresWithoutAReason() {
        fund("bob", A_BTC, 10);
        sell(100, 2);
        fund("carol", A_USD, 10_000);
        market(Side.BUY, 5);
        assertOutcome(OrderStatus.EXPIRED, 2, 0);
        assertEquals(RejectReason.NONE, events.update().rejectReason());
    }

    @Test
    void aMarketSellHoldsItsQuantityAndReleasesWhatDidNotTrade() {
        fund("alice", A_USD, 1_000);
        buy(100, 2);
        fund("carol", A_BTC, 5);
        market(Side.SELL, 5);
        assertOutcome(OrderStatus.EXPIRED, 2, 0);
        assertEquals(BalanceCause.HOLD, causes().get(0));
        final RecordedEvent.Balance release = events.balances().get(events.balances().size() - 1);
        assertEquals(List.of(BalanceCause.RELEASE, A_BTC, 3L, -3L), List.of(release.cause(), release.asset(),
                release.availableChange(), release.heldChange()));
        assertTrue(release.sequence() < events.update().sequence(), "released before the final update");
        assertBalance("carol", A_BTC, 3, 0);
        assertBalance("carol", A_USD, 200, 0);
    }

    // ---- what ends an order gives back what it held

    @Test
    void anIocRemainderIsReleased() {
        fund("bob", A_BTC, 10);
        sell(100, 1);
        fund("alice", A_USD, 1_000);
        limit("alice", Side.BUY, TimeInForce.IOC, 100, 3);
        assertOutcome(OrderStatus.EXPIRED, 1, 0);
        assertBalance("alice", A_USD, 900, 0);
        assertEquals(BalanceCause.RELEASE, causes().get(causes().size() - 1));
    }

    @Test
    void aFokThatCannotFillExpiresWithoutHoldingAndStillNeedsCover() {
        fund("bob", A_BTC, 10);
        sell(100, 1);
        fund("alice", A_USD, 300);
        limit("alice", Side.BUY, TimeInForce.FOK, 100, 3);
        assertOutcome(OrderStatus.EXPIRED, 0, 0);
        assertEquals(List.of(), events.balances());
        limit("alice", Side.BUY, TimeInForce.FOK, 100, 4);
        assertRejected(RejectReason.INSUFFICIENT_BALANCE);
    }

    @Test
    void aCancelReleasesTheRemainderAfterTheCanceledUpdate() {
        fund("bob", A_BTC, 10);
        sell(100, 1);
        fund("alice", A_USD, 1_000);
        final long id = buy(100, 4);
        cancel(id);
        assertEquals(List.of(BalanceCause.RELEASE), causes());
        assertEquals(300, events.balances().get(0).availableChange());
        assertTrue(events.balances().get(0).sequence() > events.update().sequence());
        assertBalance("alice", A_USD, 900, 0);
    }

    @Test
    void aCancelAllTheDeadMansSwitchAndACancelOnDisconnectReleaseEveryOrderTheyCancel() {
        fund("alice", A_USD, 10_000);
        buy(100, 1);
        buy(99, 2);
        through(7, "alice", Side.BUY, 98, 3);
        place("alice", null, ETH, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, false, 50, 1);
        assertBalance("alice", A_USD, 10_000 - 100 - 198 - 294 - 100, 692);
        cancelOnDisconnect("alice", 7);
        assertBalance("alice", A_USD, 10_000 - 100 - 198 - 100, 398);
        cancelAll("alice", BTC, RejectReason.CANCEL_ALL);
        assertEquals(List.of(BalanceCause.RELEASE, BalanceCause.RELEASE), causes());
        assertBalance("alice", A_USD, 9_900, 100);
        cancelAll("alice", -1, RejectReason.CANCEL_ALL_AFTER);
        assertBalance("alice", A_USD, 10_000, 0);
    }

    @Test
    void selfTradePreventionReleasesTheMakerItCancelsAndTheTakerItStops() {
        fund("alice", A_USD, 1_000);
        fund("alice", A_BTC, 10);
        buy(100, 2);
        place("alice", null, BTC, Side.SELL, OrderType.LIMIT, TimeInForce.GTC, false, SelfTradePrevention.EXPIRE_BOTH,
                100, 3);
        assertEquals(List.of(BalanceCause.HOLD, BalanceCause.RELEASE, BalanceCause.RELEASE), causes());
        assertBalance("alice", A_USD, 1_000, 0);
        assertBalance("alice", A_BTC, 10, 0);
    }

    // ---- amend

    @Test
    void anAmendDownReleasesTheDifferenceAndKeepsItsPlace() {
        fund("alice", A_USD, 1_000);
        final long id = buy(100, 5);
        amend(id, 0, 3);
        assertEquals(List.of(BalanceCause.RELEASE), causes());
        assertTrue(events.balances().get(0).sequence() > events.amendments().get(0).sequence());
        assertBalance("alice", A_USD, 700, 300);
    }

    @Test
    void anAmendUpOrToAHigherPriceHoldsTheDifference() {
        fund("alice", A_USD, 1_000);
        final long id = buy(100, 5);
        amend(id, 120, 6);
        assertEquals(List.of(BalanceCause.HOLD), causes());
        assertBalance("alice", A_USD, 280, 720);
        amend(id, 90, 0);
        assertBalance("alice", A_USD, 460, 540);
    }

    @Test
    void anAmendThatWouldHoldMoreThanIsAvailableIsRefusedAndChangesNothing() {
        fund("alice", A_USD, 1_000);
        final long id = buy(100, 5);
        amend(id, 0, 11);
        assertCompletedOnly(CommandResult.INSUFFICIENT_BALANCE, id);
        amend(id, 201, 0);
        assertCompletedOnly(CommandResult.INSUFFICIENT_BALANCE, id);
        amend(id, 200, 0);
        assertEquals(CommandResult.AMENDED, events.completion().result());
        assertBalance("alice", A_USD, 0, 1_000);
    }

    @Test
    void anAmendOfAPartlyFilledOrderCountsOnlyItsRemainder() {
        fund("alice", A_USD, 1_000);
        final long id = buy(100, 5);
        fund("bob", A_BTC, 10);
        limit("bob", Side.SELL, TimeInForce.IOC, 100, 2);
        assertBalance("alice", A_USD, 500, 300);
        amend(id, 0, 10);   // remainder 8 at 100
        assertBalance("alice", A_USD, 0, 800);
    }

    @Test
    void anAmendedSellThatCrossesTradesAndSettlesAtTheBidsPrice() {
        fund("alice", A_USD, 1_000);
        buy(100, 2);
        fund("bob", A_BTC, 10);
        final long ask = sell(110, 4);
        amend(ask, 100, 0);
        assertBalance("bob", A_BTC, 6, 2);
        assertBalance("bob", A_USD, 200, 0);
        assertBalance("alice", A_BTC, 2, 0);
    }

    @Test
    void anAmendedBuyThatCrossesGetsBackWhatItHeldAboveTheTradePrice() {
        fund("bob", A_BTC, 10);
        sell(105, 2);
        fund("alice", A_USD, 1_000);
        final long bid = buy(100, 2);
        amend(bid, 110, 0);
        assertBalance("alice", A_USD, 790, 0);
        assertBalance("alice", A_BTC, 2, 0);
    }

    @Test
    void anAmendedPostOnlyOrderThatWouldCrossReleasesEverythingItHeld() {
        fund("bob", A_BTC, 10);
        sell(105, 2);
        fund("alice", A_USD, 1_000);
        final long bid = place("alice", null, BTC, Side.BUY, OrderType.LIMIT, TimeInForce.GTC, true, 100, 2);
        amend(bid, 105, 0);
        assertEquals(OrderStatus.REJECTED, events.update().status());
        assertBalance("alice", A_USD, 1_000, 0);
    }

    @Test
    void balanceEventsTakeTheEngineSequenceLikeEveryOtherEvent() {
        fund("bob", A_BTC, 10);
        sell(90, 4);
        fund("alice", A_USD, 1_000);
        buy(100, 4);
        long expected = events.accepted().get(0).sequence();
        for (final RecordedEvent event : events.events()) {
            if (!(event instanceof RecordedEvent.Completed)) {
                assertEquals(expected++, sequenceOf(event), event.toString());
            }
        }
    }

    private static long sequenceOf(final RecordedEvent event) {
        if (event instanceof RecordedEvent.Accepted e) {
            return e.sequence();
        } else if (event instanceof RecordedEvent.Trade e) {
            return e.sequence();
        } else if (event instanceof RecordedEvent.Updated e) {
            return e.sequence();
        } else if (event instanceof RecordedEvent.Amended e) {
            return e.sequence();
        } else if (event instanceof RecordedEvent.Balance e) {
            return e.sequence();
        }
        throw new AssertionError(event);
    }
}
