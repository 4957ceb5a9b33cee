package io.orderentry.account;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.orderentry.engine.OrderStatus;
import io.orderentry.engine.OrderType;
import io.orderentry.engine.RejectReason;
import io.orderentry.engine.SelfTradePrevention;
import io.orderentry.engine.Side;
import io.orderentry.engine.TimeInForce;
import io.orderentry.pipeline.CommandType;
import io.orderentry.pipeline.OrderCommand;
import io.orderentry.query.Fill;
import io.orderentry.query.OrderState;
import io.orderentry.testing.RandomCommands;
import io.orderentry.testing.RandomOperations;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The private feeds against a real engine ({@link FeedDriver}): what a subscriber is sent, in which order and with
 * which sequence, and that a subscription taken between any two events of a batch misses and repeats nothing.
 */
class AccountFeedStageTest {

    private final FeedDriver driver = new FeedDriver();
    private final AccountFeedStage feeds = driver.feeds;

    @Test
    void shouldSendTheOpenOrdersAsTheSnapshotThenEachChangeWithTheNextSequence() {
        driver.rest("A", Side.SELL, 1_010, 5);
        driver.rest("A", Side.SELL, 1_020, 5);
        driver.limit("A", Side.BUY, 900, 3, TimeInForce.IOC);  // expires: final before anyone subscribed
        driver.endBatch();
        final RecordingSubscriber a = subscribe("A");

        assertEquals(0, a.snapshotSequence, "the account's first subscriber in this process starts at 0");
        assertEquals(List.of(1L, 2L), a.snapshot.stream().map(OrderState::orderId).toList(), "open orders, oldest first");

        driver.rest("A", Side.SELL, 1_030, 5);      // order 4: accepted, then rests (no update of its own)
        driver.cancel(1);
        driver.limit("A", Side.BUY, 900, 3, TimeInForce.FOK);   // order 5: nothing to fill it, expires
        driver.endBatch();

        assertEquals(List.of(1L, 2L, 3L, 4L), a.sequences());
        assertEquals(List.of(OrderEvent.ACCEPTED, OrderEvent.CANCELED, OrderEvent.ACCEPTED, OrderEvent.EXPIRED),
                a.events());
        assertEquals(4, a.updates.get(0).order().orderId());
        assertEquals(OrderStatus.NEW, a.updates.get(0).order().status());
        assertEquals(1, a.updates.get(1).order().orderId());
        assertEquals(OrderStatus.CANCELED, a.updates.get(1).order().status());
        assertEquals(5, a.updates.get(3).order().orderId());
        assertEquals(OrderStatus.EXPIRED, a.updates.get(3).order().status());
        assertEquals("A:1:ACCEPTED", new String(a.rendered.get(0), StandardCharsets.US_ASCII),
                "each update comes with its rendering");
    }

    @Test
    void shouldSendARestingOrdersOwnerItsAcceptanceThenEachMakerFillAndTheTakerOnlyItsOwnOrders() {
        final RecordingSubscriber a = subscribe("A");
        final RecordingSubscriber b = subscribe("B");

        driver.rest("A", Side.SELL, 1_000, 10);     // order 1
        driver.endBatch();
        driver.limit("B", Side.BUY, 1_000, 4, TimeInForce.GTC);     // order 2, trade 1
        driver.endBatch();
        driver.limit("B", Side.BUY, 1_005, 6, TimeInForce.IOC);     // order 3, trade 2 at the maker's price
        driver.endBatch();

        assertEquals(List.of(1L, 2L, 3L), a.sequences());
        assertEquals(List.of(OrderEvent.ACCEPTED, OrderEvent.FILL, OrderEvent.FILL), a.events());
        assertFill(a.updates.get(1), 1, 1_000, 4, false, OrderStatus.PARTIALLY_FILLED, 4);
        assertFill(a.updates.get(2), 2, 1_000, 6, false, OrderStatus.FILLED, 10);
        assertNull(a.updates.get(0).fill(), "only a FILL carries a fill");

        assertEquals(List.of(1L, 2L, 3L, 4L), b.sequences());
        assertEquals(List.of(OrderEvent.ACCEPTED, OrderEvent.FILL, OrderEvent.ACCEPTED, OrderEvent.FILL), b.events());
        assertFill(b.updates.get(1), 1, 1_000, 4, true, OrderStatus.FILLED, 4);
        assertFill(b.updates.get(3), 2, 1_000, 6, true, OrderStatus.FILLED, 6);
        assertTrue(b.updates.stream().allMatch(u -> u.order().accountId().equals("B")), "B sees only its own orders");
        assertTrue(a.updates.stream().allMatch(u -> u.order().accountId().equals("A")), "A sees only its own orders");
    }

    @Test
    void shouldSendBothFillsOfATradeBetweenTwoOrdersOfOneAccountTakerFirst() {
        final RecordingSubscriber a = subscribe("A");
        driver.rest("A", Side.SELL, 1_000, 2);
        driver.limit("A", Side.BUY, 1_000, 2, TimeInForce.GTC);
        driver.endBatch();

        assertEquals(List.of(1L, 2L, 3L, 4L), a.sequences());
        assertEquals(List.of(OrderEvent.ACCEPTED, OrderEvent.ACCEPTED, OrderEvent.FILL, OrderEvent.FILL), a.events());
        assertFill(a.updates.get(2), 1, 1_000, 2, true, OrderStatus.FILLED, 2);
        assertFill(a.updates.get(3), 1, 1_000, 2, false, OrderStatus.FILLED, 2);
    }

    @Test
    void shouldSendARejectedOrderItsAcceptanceThenItsRejection() {
        final RecordingSubscriber a = subscribe("A");
        driver.rest("B", Side.SELL, 1_000, 2);
        final OrderCommand postOnly = new OrderCommand();
        postOnly.type = CommandType.PLACE;
        postOnly.accountId = "A";
        postOnly.symbol = 0;
        postOnly.side = Side.BUY;
        postOnly.orderType = OrderType.LIMIT;
        postOnly.timeInForce = TimeInForce.GTC;
        postOnly.postOnly = true;
        postOnly.price = 1_000;
        postOnly.quantity = 1;
        driver.run(postOnly);
        driver.endBatch();

        assertEquals(List.of(OrderEvent.ACCEPTED, OrderEvent.REJECTED), a.events());
        assertEquals(RejectReason.POST_ONLY_WOULD_CROSS, a.updates.get(1).order().rejectReason());
    }

    @Test
    void shouldSendAnAmendAsAmendedWithItsNewTermsAndNothingMoreWhileTheOrderStillRests() {
        driver.rest("A", Side.SELL, 1_000, 10);     // order 1
        driver.endBatch();
        final RecordingSubscriber a = subscribe("A");

        driver.amend(1, 0, 6);                      // a reduction: keeps its place
        driver.amend(1, 1_010, 0);                  // a new price: to the back of 1,010, nothing to trade with
        driver.endBatch();

        assertEquals(List.of(1L, 2L), a.sequences());
        assertEquals(List.of(OrderEvent.AMENDED, OrderEvent.AMENDED), a.events());
        final OrderState reduced = a.updates.get(0).order();
        assertEquals(1_000, reduced.price());
        assertEquals(6, reduced.quantity());
        assertEquals(6, reduced.remainingQuantity());
        assertEquals(OrderStatus.NEW, reduced.status());
        final OrderState moved = a.updates.get(1).order();
        assertEquals(1_010, moved.price());
        assertEquals(6, moved.quantity());
        assertTrue(moved.updatedAtMicros() > reduced.updatedAtMicros(), "each amend moves updatedAt");
        assertNull(a.updates.get(1).fill());
    }

    @Test
    void shouldSendAnAmendedOrderThatCrossesItsTakerFillAndAPostOnlyAmendedAcrossItsRejection() {
        driver.rest("B", Side.BUY, 990, 3);         // order 1
        driver.rest("A", Side.SELL, 1_000, 5);      // order 2
        driver.place("A", 0, Side.SELL, 1_005, 1, TimeInForce.GTC, true, SelfTradePrevention.NONE);   // order 3
        driver.rest("B", Side.BUY, 980, 1);         // order 4
        driver.endBatch();
        final RecordingSubscriber a = subscribe("A");
        final RecordingSubscriber b = subscribe("B");

        driver.amend(2, 990, 0);                    // trades 3 with order 1 as the taker, rests 2 at 990
        driver.amend(3, 980, 0);                    // postOnly at a crossing price: rejected, gone from the book
        driver.endBatch();

        assertEquals(List.of(OrderEvent.AMENDED, OrderEvent.FILL, OrderEvent.AMENDED, OrderEvent.REJECTED),
                a.events());
        assertEquals(List.of(1L, 2L, 3L, 4L), a.sequences());
        assertFill(a.updates.get(1), 1, 990, 3, true, OrderStatus.PARTIALLY_FILLED, 3);
        assertEquals(990, a.updates.get(1).order().price());
        final OrderState rejected = a.updates.get(3).order();
        assertEquals(3, rejected.orderId());
        assertEquals(OrderStatus.REJECTED, rejected.status());
        assertEquals(RejectReason.POST_ONLY_WOULD_CROSS, rejected.rejectReason());
        assertEquals(980, rejected.price());
        assertEquals(List.of(OrderEvent.FILL), b.events(), "the maker's owner sees its fill only");
        assertFill(b.updates.get(0), 1, 990, 3, false, OrderStatus.FILLED, 3);
    }

    @Test
    void shouldSendOrdersCanceledByACancelAllOrBySelfTradePreventionAsCanceledWithTheirReason() {
        driver.rest("A", Side.SELL, 1_000, 1);      // order 1
        driver.rest("A", Side.SELL, 1_001, 1);      // order 2
        driver.place("A", 1, Side.SELL, 1_000, 1, TimeInForce.GTC, false, SelfTradePrevention.NONE);  // order 3
        driver.endBatch();
        final RecordingSubscriber a = subscribe("A");

        // order 4 meets order 1 of its own account: EXPIRE_MAKER cancels 1; 2 is beyond its limit, so 4 rests
        driver.place("A", 0, Side.BUY, 1_000, 1, TimeInForce.GTC, false, SelfTradePrevention.EXPIRE_MAKER);
        // order 5 meets order 4 of its own account: EXPIRE_TAKER expires 5 itself, GTC as it is, and 4 stays
        driver.place("A", 0, Side.SELL, 1_000, 1, TimeInForce.GTC, false, SelfTradePrevention.EXPIRE_TAKER);
        driver.cancelAll("A", -1, RejectReason.CANCEL_ALL_AFTER);     // 2, 3 and 4, lowest id first
        driver.endBatch();

        assertEquals(List.of(OrderEvent.ACCEPTED, OrderEvent.CANCELED, OrderEvent.ACCEPTED, OrderEvent.EXPIRED,
                OrderEvent.CANCELED, OrderEvent.CANCELED, OrderEvent.CANCELED), a.events());
        assertEquals(List.of(4L, 1L, 5L, 5L, 2L, 3L, 4L),
                a.updates.stream().map(u -> u.order().orderId()).toList());
        assertEquals(List.of(RejectReason.NONE, RejectReason.SELF_TRADE_PREVENTED, RejectReason.NONE,
                RejectReason.SELF_TRADE_PREVENTED, RejectReason.CANCEL_ALL_AFTER, RejectReason.CANCEL_ALL_AFTER,
                RejectReason.CANCEL_ALL_AFTER), a.updates.stream().map(u -> u.order().rejectReason()).toList());
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L), a.sequences());
        assertTrue(driver.view.openOrders("A", 0, 10).isEmpty());
    }

    @Test
    void shouldGiveASubscriptionTakenBetweenAnyTwoEventsEveryLaterChangeExactlyOnce() {
        assertSubscriptionsFollowTheView(RandomCommands::fill);
    }

    @Test
    void shouldGiveASubscriptionTakenBetweenAnyTwoEventsEveryChangeOnceThroughAmendsCancelAllsAndSelfTrades() {
        assertSubscriptionsFollowTheView(RandomOperations::fill);
    }

    /** How a random test fills its next command (RandomCommands::fill or RandomOperations::fill). */
    private interface CommandSource {
        void fill(Random random, OrderCommand command, int symbols, long lastOrderId);
    }

    private void assertSubscriptionsFollowTheView(final CommandSource commands) {
        final Random random = new Random(7);
        final OrderCommand command = new OrderCommand();
        final List<RecordingSubscriber> subscribers = new ArrayList<>();
        final Map<Integer, String> subscribeAt = new TreeMap<>();
        for (int k = 0; k < 12; k++) {
            subscribeAt.put(500 + random.nextInt(14_000), "acct-" + random.nextInt(20));
        }
        int event = 0;
        for (int i = 1; i <= 8_000; i++) {
            command.sequence = i;
            commands.fill(random, command, FeedDriver.SYMBOLS, driver.matcher().lastOrderId());
            driver.execute(command);
            // batches end at random points, in the middle of a command's events as often as not
            while (driver.unapplied() > 0) {
                event += driver.applyNew(1);
                final String account = subscribeAt.remove(event);
                if (account != null) {
                    final RecordingSubscriber subscriber = new RecordingSubscriber(driver, account);
                    subscriber.stepwise = true;     // reads its snapshot a chunk per event, as the stage goes on
                    feeds.subscribe(subscriber);    // arrives mid-batch: taken at the batch's end
                    subscribers.add(subscriber);
                }
                subscribers.forEach(RecordingSubscriber::step);
                if (random.nextInt(4) == 0) {
                    driver.endBatch();
                }
            }
        }
        driver.endBatch();
        while (!subscribers.stream().allMatch(RecordingSubscriber::step)) {
            driver.endBatch();
        }
        driver.endBatch();

        assertTrue(subscribers.size() >= 10, "subscriptions were taken: " + subscribers.size());
        for (final RecordingSubscriber subscriber : subscribers) {
            assertEquals(1, subscriber.snapshots, subscriber.accountId());
            assertFollowsTheView(subscriber);
        }
    }

    @Test
    void shouldBuildTheSnapshotInChunksOffTheStageAndMatchTheOpenOrdersAtTheMarkWhileOrdersChange() {
        for (int i = 0; i < 9; i++) {
            driver.rest("A", Side.SELL, 1_000 + i, 1);      // orders 1..9
        }
        driver.endBatch();
        final RecordingSubscriber a = new RecordingSubscriber(driver, "A");
        a.stepwise = true;
        feeds.subscribe(a);
        driver.endBatch();                                  // in the feed after update 9; nothing read yet
        assertFalse(a.step(), "the first chunk");           // orders 1, 2
        driver.cancel(1);                                   // behind the reading: only its update says so
        driver.cancel(7);                                   // ahead of it: the reading will not see it
        driver.endBatch();
        assertFalse(a.step());                              // orders 3, 4
        driver.rest("A", Side.SELL, 2_000, 1);              // order 10, opened ahead of the reading
        driver.amend(2, 0, 3);                              // behind it: its update carries the new quantity
        driver.endBatch();
        while (!a.step()) {
            driver.rest("B", Side.SELL, 3_000, 1);          // other accounts' events meanwhile
        }
        driver.cancel(4);                                   // after the reading, before the mark
        assertEquals(0, a.snapshots);
        driver.endBatch();                                  // the mark

        assertEquals(1, a.snapshots);
        assertEquals(5, a.snapshotSequence, "the feed began at the subscribe: 2 cancels, 1 accepted, 1 amend, 1 cancel");
        final List<OrderState> open = driver.view.openOrders("A", 0, Integer.MAX_VALUE);
        assertEquals(open.stream().map(OrderState::orderId).toList(),
                a.snapshot.stream().map(OrderState::orderId).toList(), "the open orders at the mark, oldest first");
        assertEquals(3, a.snapshot.get(0).quantity(), "order 2 as amended");
        driver.cancel(2);
        driver.endBatch();
        assertEquals(List.of(6L), a.sequences(), "updates go on after the mark");
    }

    @Test
    void shouldTakeAClosedSubscriberOutOfItsFeedAndSendItNothingMore() {
        final RecordingSubscriber a = subscribe("A");
        final RecordingSubscriber other = subscribe("A");
        assertEquals(2, feeds.subscribers());

        a.close();
        feeds.unsubscribe(a);
        driver.rest("A", Side.SELL, 1_000, 1);
        driver.endBatch();

        assertEquals(1, feeds.subscribers());
        assertTrue(a.updates.isEmpty(), "a closed subscriber gets nothing");
        assertEquals(List.of(1L), other.sequences(), "the other one goes on");
    }

    @Test
    void shouldNeverAddASubscriptionThatEndedBeforeTheStageTookIt() {
        final RecordingSubscriber early = new RecordingSubscriber(driver, "A");
        feeds.subscribe(early);
        early.close();
        feeds.unsubscribe(early);       // before the stage made A's feed: nothing to take it out of
        driver.endBatch();
        assertEquals(0, early.snapshots);
        assertEquals(0, feeds.subscribers());

        // ends while the stage adds it: after the snapshot, before it is in the feed (its unsubscribe found nothing)
        final RecordingSubscriber racing = new RecordingSubscriber(driver, "A");
        racing.onStart = () -> {
            racing.close();
            feeds.unsubscribe(racing);
        };
        feeds.subscribe(racing);
        driver.endBatch();
        driver.rest("A", Side.SELL, 1_000, 1);
        driver.endBatch();

        assertEquals(1, racing.starts);
        assertEquals(0, racing.snapshots, "nobody waits for the mark of an ended subscription");
        assertEquals(0, feeds.subscribers(), "the stage took it out again");
        assertTrue(racing.updates.isEmpty());
    }

    @Test
    void shouldSendAFreshSnapshotToASubscriberThatSubscribesAgainAndKeepItOnceInItsFeed() {
        final RecordingSubscriber a = subscribe("A");
        driver.rest("A", Side.SELL, 1_000, 1);
        driver.rest("A", Side.SELL, 1_001, 1);
        driver.endBatch();

        feeds.subscribe(a);     // fell behind: a fresh snapshot
        driver.endBatch();      // starts it again: it reads the open orders and asks for a mark
        driver.endBatch();      // the mark
        driver.cancel(1);
        driver.endBatch();

        assertEquals(2, a.snapshots);
        assertEquals(2, a.snapshotSequence);
        assertEquals(2, a.snapshot.size());
        assertEquals(List.of(3L), a.sequences(), "one update, not one per subscription");
        assertEquals(1, feeds.subscribers());
    }

    @Test
    void shouldMakeNoFeedForAccountsNobodySubscribedTo() {
        driver.rest("A", Side.SELL, 1_000, 1);
        driver.limit("B", Side.BUY, 1_000, 1, TimeInForce.IOC);
        driver.endBatch();
        assertEquals(0, feeds.feeds());
    }

    @Test
    void shouldForgetFeedsWithoutSubscribersOncePastTheBound() {
        for (int i = 0; i <= AccountFeedStage.IDLE_FEEDS_KEPT; i++) {
            final RecordingSubscriber subscriber = new RecordingSubscriber(driver, "acct-" + i);
            feeds.subscribe(subscriber);
            driver.endBatch();
            subscriber.close();
            feeds.unsubscribe(subscriber);
        }
        assertTrue(feeds.feeds() <= AccountFeedStage.IDLE_FEEDS_KEPT, "feeds: " + feeds.feeds());
        final RecordingSubscriber kept = subscribe("kept");
        for (int i = 0; i < AccountFeedStage.IDLE_FEEDS_KEPT; i++) {
            feeds.subscribe(new RecordingSubscriber(driver, "more-" + i));
        }
        driver.endBatch();
        driver.rest("kept", Side.SELL, 1_000, 1);
        driver.endBatch();
        assertEquals(List.of(1L), kept.sequences(), "a feed with a subscriber is never forgotten");
    }

    private RecordingSubscriber subscribe(final String account) {
        final RecordingSubscriber subscriber = new RecordingSubscriber(driver, account);
        feeds.subscribe(subscriber);
        driver.endBatch();
        driver.endBatch();
        assertEquals(1, subscriber.snapshots, "the snapshot is complete at the mark, taken at an end of batch");
        return subscriber;
    }

    private static void assertFill(final OrderUpdate update, final long tradeId, final long price, final long quantity,
                                   final boolean taker, final OrderStatus status, final long filled) {
        final Fill fill = update.fill();
        assertEquals(OrderEvent.FILL, update.event());
        assertEquals(tradeId, fill.tradeId());
        assertEquals(price, fill.price());
        assertEquals(quantity, fill.quantity());
        assertEquals(taker, fill.taker(), "liquidity");
        assertEquals(status, update.order().status());
        assertEquals(filled, update.order().filledQuantity());
    }

    /**
     * Applies the snapshot and the updates as a client would (an order's latest state replaces the earlier one; a
     * final order leaves the open set) and checks the sequences run on one by one from the snapshot's and that the
     * result is the view's open orders now, fill for fill.
     */
    private void assertFollowsTheView(final RecordingSubscriber subscriber) {
        final String account = subscriber.accountId();
        final Map<Long, OrderState> open = new TreeMap<>();
        subscriber.snapshot.forEach(order -> open.put(order.orderId(), order));
        long expected = subscriber.snapshotSequence;
        for (final OrderUpdate update : subscriber.updates) {
            assertEquals(++expected, update.sequence(), account + ": sequences are consecutive");
            assertEquals(account, update.order().accountId());
            if (update.event() == OrderEvent.FILL) {
                // the order was followed until just before this fill: in the snapshot, or accepted since
                final OrderState before = open.get(update.order().orderId());
                assertEquals(update.order().fillCount() - 1, before.fillCount(),
                        account + ": each fill once, none missed, order " + update.order().orderId());
                assertEquals(update.fill(), update.order().lastFill(), "the update's fill is the order's newest");
            }
            if (update.order().status().isOpen()) {
                open.put(update.order().orderId(), update.order());
            } else {
                open.remove(update.order().orderId());
            }
        }
        final List<OrderState> now = driver.view.openOrders(account, 0, Integer.MAX_VALUE);
        assertEquals(now.stream().map(OrderState::orderId).toList(), List.copyOf(open.keySet()),
                account + ": the open orders");
        for (final OrderState order : now) {
            final OrderState followed = open.get(order.orderId());
            assertEquals(order.status(), followed.status(), account + " order " + order.orderId());
            assertEquals(order.price(), followed.price(), account + " order " + order.orderId());
            assertEquals(order.quantity(), followed.quantity(), account + " order " + order.orderId());
            assertEquals(order.filledQuantity(), followed.filledQuantity());
            assertEquals(order.remainingQuantity(), followed.remainingQuantity());
            assertEquals(order.filledNotional(), followed.filledNotional());
            assertEquals(order.fills(), followed.fills());
        }
    }
}
