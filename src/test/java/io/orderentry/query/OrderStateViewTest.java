package io.orderentry.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.orderentry.engine.EngineConfig;
import io.orderentry.engine.OrderStatus;
import io.orderentry.engine.OrderType;
import io.orderentry.engine.RejectReason;
import io.orderentry.engine.SelfTradePrevention;
import io.orderentry.engine.Side;
import io.orderentry.engine.TimeInForce;
import io.orderentry.persistence.GeneratedEvents;
import io.orderentry.pipeline.EngineEvent;
import io.orderentry.pipeline.EventType;
import io.orderentry.testing.TestEngine;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The view keeps orders in primitive storage and reuses the slots and fill entries of forgotten orders; it must
 * answer exactly what the object view it replaced answered, and a reader on another thread must never see an
 * order half written.
 */
class OrderStateViewTest {

    private static final int RETAINED = 300;

    @Test
    void shouldAnswerEveryOrderAndEveryOpenListExactlyAsTheObjectViewDid() {
        for (final long seed : new long[] {1, 2, 3}) {
            assertAnswersAsTheObjectView(GeneratedEvents.generate(seed, 30_000), seed);
        }
    }

    @Test
    void shouldAnswerExactlyAsTheObjectViewThroughAmendsCancelAllsAndSelfTradePrevention() {
        for (final long seed : new long[] {4, 5}) {
            final List<EngineEvent> events = GeneratedEvents.generateWithOperations(seed, 30_000);
            assertCoversTheOrderOperations(events);
            assertAnswersAsTheObjectView(events, seed);
        }
    }

    @Test
    void shouldShowAnAmendsNewTermsAtOnceAndItsStatusWithTheUpdateThatEndsIt() {
        final TestEngine engine = new TestEngine(1, EngineConfig.DEFAULTS);
        final long maker = engine.place("A", 0, Side.SELL, TimeInForce.GTC, false, SelfTradePrevention.EXPIRE_MAKER,
                1_000, 10);
        engine.limit("B", Side.BUY, 1_000, 4);                 // fills 4 of the maker
        final long createdAt = engine.events().get(0).timestampMicros;
        final OrderStateView view = new OrderStateView(RETAINED);
        final int placed = engine.events().size();
        apply(view, engine.events(), 0, placed);

        final long amendedAt = engine.nextMicros();
        engine.amend(maker, 0, 7);                             // a reduction in place: keeps its priority
        final EngineEvent amended = engine.events().get(placed);
        assertEquals(EventType.ORDER_AMENDED, amended.type);
        view.apply(amended, placed);
        final OrderState terms = view.get(maker);
        assertEquals(1_000, terms.price());
        assertEquals(7, terms.quantity(), "the new total");
        assertEquals(4, terms.filledQuantity());
        assertEquals(3, terms.remainingQuantity(), "the new total less what was filled");
        assertEquals(OrderStatus.PARTIALLY_FILLED, terms.status(), "the status comes with the update that follows");
        assertEquals(amended.eventSequence, terms.sequence());
        assertEquals(amendedAt, terms.updatedAtMicros());
        assertEquals(createdAt, terms.createdAtMicros());
        assertEquals(SelfTradePrevention.EXPIRE_MAKER, terms.selfTradePrevention());
        assertEquals(1, terms.fillCount());

        apply(view, engine.events(), placed + 1, engine.events().size());
        assertEquals(List.of(maker), view.openOrders("A", 0, 10).stream().map(OrderState::orderId).toList(),
                "still open, listed once");
        assertEquals(engine.sequenced().get(engine.sequenced().size() - 1).eventSequence, view.get(maker).sequence());

        final int before = engine.events().size();
        engine.limit("C", Side.BUY, 990, 5);
        engine.amend(maker, 990, 0);                           // crosses: trades 3 as a taker and is FILLED
        apply(view, engine.events(), before, engine.events().size());
        final OrderState filled = view.get(maker);
        assertEquals(OrderStatus.FILLED, filled.status());
        assertEquals(990, filled.price());
        assertEquals(7, filled.filledQuantity());
        assertEquals(0, filled.remainingQuantity());
        assertEquals(List.of(false, true), filled.fills().stream().map(Fill::taker).toList(),
                "its maker fill, then its fill as an amended taker");
        assertTrue(view.openOrders("A", 0, 10).isEmpty());
    }

    @Test
    void shouldCloseOrdersCanceledBySelfTradePreventionAndByACancelAllWithTheirReason() {
        final TestEngine engine = new TestEngine(2, EngineConfig.DEFAULTS);
        final long resting = engine.limit("A", Side.SELL, 1_000, 5);
        final long taker = engine.place("A", 0, Side.BUY, TimeInForce.GTC, false, SelfTradePrevention.EXPIRE_BOTH,
                1_000, 5);
        final long first = engine.limit("B", Side.BUY, 900, 1);
        final long other = engine.place("B", 1, Side.BUY, TimeInForce.GTC, false, SelfTradePrevention.NONE, 900, 1);
        final long second = engine.limit("B", Side.BUY, 901, 1);
        engine.cancelAll("B", 0, RejectReason.CANCEL_ALL_AFTER);
        final OrderStateView view = new OrderStateView(RETAINED);
        apply(view, engine.events(), 0, engine.events().size());

        assertEquals(RejectReason.SELF_TRADE_PREVENTED, view.get(resting).rejectReason());
        assertEquals(OrderStatus.CANCELED, view.get(resting).status());
        assertEquals(OrderStatus.EXPIRED, view.get(taker).status(), "EXPIRE_BOTH: the GTC taker does not rest");
        assertEquals(RejectReason.SELF_TRADE_PREVENTED, view.get(taker).rejectReason());
        assertEquals(SelfTradePrevention.EXPIRE_BOTH, view.get(taker).selfTradePrevention());
        assertTrue(view.openOrders("A", 0, 10).isEmpty());
        for (final long canceled : new long[] {first, second}) {
            assertEquals(OrderStatus.CANCELED, view.get(canceled).status());
            assertEquals(RejectReason.CANCEL_ALL_AFTER, view.get(canceled).rejectReason());
        }
        assertEquals(List.of(other), view.openOrders("B", 0, 10).stream().map(OrderState::orderId).toList(),
                "the other instrument's order stays");
    }

    @Test
    void shouldGiveBackEveryClientOrderIdWholeAndNoneForASlotReusedByAnOrderWithout() {
        final OrderStateView view = new OrderStateView(1);
        final String longest = "a".repeat(EngineEvent.CLIENT_ORDER_ID_CAPACITY);
        final String oversized = "b".repeat(EngineEvent.CLIENT_ORDER_ID_CAPACITY + 1);   // none the API accepts
        final String[] ids = {"c-1", longest, oversized, "caf\u00e9", null};
        long sequence = 0;
        for (int k = 0; k < ids.length; k++) {
            final long orderId = k + 1;
            view.apply(accepted(++sequence, orderId, ids[k]), sequence);
            view.endOfBatch();
            assertEquals(ids[k], view.get(orderId).clientOrderId(), "order " + orderId);
            view.apply(canceled(++sequence, orderId), sequence);   // final: the next order's eviction frees its slot
            view.endOfBatch();
        }
        // one retained final order: every slot but the last order's was reused, the later ones by orders without an id
        for (int k = 0; k < 6; k++) {
            final long orderId = 100 + k;
            view.apply(accepted(++sequence, orderId, null), sequence);
            view.endOfBatch();
            assertNull(view.get(orderId).clientOrderId(), "order " + orderId);
        }
    }

    private static EngineEvent accepted(final long sequence, final long orderId, final String clientOrderId) {
        final EngineEvent e = orderEvent(EventType.ORDER_ACCEPTED, sequence, orderId, OrderStatus.NEW);
        e.clientOrderId.set(clientOrderId);
        e.orderType = OrderType.LIMIT;
        e.timeInForce = TimeInForce.GTC;
        e.selfTradePrevention = SelfTradePrevention.NONE;
        return e;
    }

    private static EngineEvent canceled(final long sequence, final long orderId) {
        return orderEvent(EventType.ORDER_UPDATED, sequence, orderId, OrderStatus.CANCELED);
    }

    /** An event about a BUY of 5 at 1,000 of account A on instrument 0, with what every order event carries. */
    private static EngineEvent orderEvent(final EventType type, final long sequence, final long orderId,
                                          final OrderStatus status) {
        final EngineEvent e = new EngineEvent();
        e.reset();
        e.type = type;
        e.eventSequence = sequence;
        e.timestampMicros = sequence;
        e.orderId = orderId;
        e.accountId = "A";
        e.symbol = 0;
        e.side = Side.BUY;
        e.price = 1_000;
        e.quantity = 5;
        e.status = status;
        e.rejectReason = RejectReason.NONE;
        return e;
    }

    /** Applies events {@code [from, to)} as one batch. */
    private static void apply(final OrderStateView view, final List<EngineEvent> events, final int from,
                              final int to) {
        for (int n = from; n < to; n++) {
            new OrderViewStage(view).onEvent(events.get(n), n, n == to - 1);
        }
    }

    /** The generated events must hold every kind of change the order operations bring. */
    private static void assertCoversTheOrderOperations(final List<EngineEvent> events) {
        final Set<String> seen = new TreeSet<>();
        for (final EngineEvent e : events) {
            if (e.type == EventType.ORDER_AMENDED) {
                seen.add("amended, kept priority " + e.keptPriority);
            } else if (e.type == EventType.ORDER_UPDATED && e.rejectReason != RejectReason.NONE) {
                seen.add(e.status + " " + e.rejectReason);
            } else if (e.type == EventType.ORDER_ACCEPTED) {
                seen.add("accepted " + e.selfTradePrevention);
            }
        }
        for (final String expected : new String[] {"amended, kept priority true", "amended, kept priority false",
            "CANCELED SELF_TRADE_PREVENTED", "EXPIRED SELF_TRADE_PREVENTED", "CANCELED CANCEL_ALL",
            "CANCELED CANCEL_ALL_AFTER", "REJECTED PRICE_OUTSIDE_BAND", "REJECTED POST_ONLY_WOULD_CROSS",
            "accepted NONE", "accepted EXPIRE_TAKER", "accepted EXPIRE_MAKER", "accepted EXPIRE_BOTH"}) {
            assertTrue(seen.contains(expected), "the events must include " + expected + ": " + seen);
        }
    }

    private static void assertAnswersAsTheObjectView(final List<EngineEvent> events, final long seed) {
        final OrderStateView view = new OrderStateView(RETAINED);
        final ReferenceOrderView reference = new ReferenceOrderView(RETAINED);
        final Set<String> accounts = new TreeSet<>();
        long maxOrderId = 0;
        for (int n = 0; n < events.size(); n++) {
            final EngineEvent event = events.get(n);
            new OrderViewStage(view).onEvent(event, n, true);
            reference.onEvent(event, n, true);
            if (event.type == EventType.ORDER_ACCEPTED) {
                maxOrderId = Math.max(maxOrderId, event.orderId);
                accounts.add(event.accountId);
            }
            if (n % 2_000 == 1_999 || n == events.size() - 1) {
                for (long id = 1; id <= maxOrderId + 1; id++) {
                    assertEquals(reference.get(id), view.get(id), "order " + id + " after event " + n
                            + ", seed " + seed);
                }
                for (final String account : accounts) {
                    assertEquals(reference.openOrders(account, 0, 1000), view.openOrders(account, 0, 1000),
                            account);
                    assertEquals(reference.openOrders(account, 50, 3), view.openOrders(account, 50, 3), account);
                    final List<OrderState> all = reference.openOrders(account, 0, 1000);
                    if (!all.isEmpty()) {
                        // paging from an open order starts right after its slot; from a final one, at the head
                        final long open = all.get(all.size() / 2).orderId();
                        assertEquals(reference.openOrders(account, open, 4), view.openOrders(account, open, 4));
                        assertEquals(reference.openOrders(account, open - 1, 4),
                                view.openOrders(account, open - 1, 4));
                    }
                }
                assertEquals(reference.size(), view.size(), "orders held after event " + n);
            }
        }
        assertTrue(maxOrderId > 3 * RETAINED, "the run must forget orders and reuse their slots");
        assertEquals(reference.lastEventSequence(), view.lastEventSequence());
    }

    @Test
    void shouldAnswerNothingForAnOrderItNeverHadOrHasForgotten() {
        final List<EngineEvent> events = GeneratedEvents.generate(7, 5_000);
        final OrderStateView view = new OrderStateView(10);
        final ReferenceOrderView reference = new ReferenceOrderView(10);
        for (int n = 0; n < events.size(); n++) {
            new OrderViewStage(view).onEvent(events.get(n), n, n == events.size() - 1);
            reference.onEvent(events.get(n), n, n == events.size() - 1);
        }
        assertNull(view.get(0));
        assertNull(view.get(Long.MAX_VALUE));
        int forgotten = 0;
        for (long id = 1; id < 1_000; id++) {
            if (reference.get(id) == null) {
                forgotten++;
                assertNull(view.get(id), "order " + id + " was forgotten");
            }
        }
        assertTrue(forgotten > 100, "the run must forget orders: " + forgotten);
    }

    /** Readers check what a torn read would break: the fills add up to the filled quantity and notional. */
    @Test
    void shouldNeverShowAReaderAnOrderHalfWritten() throws Exception {
        final List<EngineEvent> events = GeneratedEvents.generate(11, 60_000);
        final OrderStateView view = new OrderStateView(RETAINED);
        final AtomicLong newest = new AtomicLong();
        final AtomicBoolean done = new AtomicBoolean();
        final AtomicReference<String> broken = new AtomicReference<>();
        final AtomicLong reads = new AtomicLong();
        final List<Thread> readers = new ArrayList<>();
        for (int r = 0; r < 2; r++) {
            final Thread reader = new Thread(() -> {
                long n = 0;
                while (!done.get() && broken.get() == null) {
                    final long high = newest.get();
                    if (high == 0) {
                        Thread.onSpinWait();
                        continue;
                    }
                    final long id = Math.max(1, high - (n++ % (2 * RETAINED)));
                    final OrderState state = view.get(id);
                    if (state == null) {
                        continue;
                    }
                    reads.incrementAndGet();
                    long quantity = 0;
                    long notional = 0;
                    for (final Fill fill : state.fills()) {
                        quantity += fill.quantity();
                        notional += fill.price() * fill.quantity();
                    }
                    if (state.orderId() != id || quantity != state.filledQuantity()
                            || notional != state.filledNotional()) {
                        broken.compareAndSet(null, "torn read of order " + id + ": " + state);
                    }
                }
            }, "reader-" + r);
            reader.start();
            readers.add(reader);
        }
        for (int n = 0; n < events.size(); n++) {
            final EngineEvent event = events.get(n);
            new OrderViewStage(view).onEvent(event, n, n % 16 == 15);
            if (event.type == EventType.ORDER_ACCEPTED) {
                newest.set(event.orderId);
            }
        }
        done.set(true);
        for (final Thread reader : readers) {
            reader.join(60_000);
        }
        assertNull(broken.get(), broken.get());
        assertTrue(reads.get() > 0, "the readers must have read orders");
    }

    /**
     * Readers page through each account's open orders while the writer opens, fills, closes and forgets orders and
     * reuses their slots: every page is ascending and holds only open orders of that account.
     */
    @Test
    void shouldListOnlyAnAccountsOpenOrdersToAReaderWhileTheWriterChangesThem() throws Exception {
        final List<EngineEvent> events = GeneratedEvents.generate(13, 60_000);
        final Set<String> accountSet = new TreeSet<>();
        for (final EngineEvent event : events) {
            if (event.type == EventType.ORDER_ACCEPTED) {
                accountSet.add(event.accountId);
            }
        }
        final String[] accounts = accountSet.toArray(new String[0]);
        final OrderStateView view = new OrderStateView(RETAINED);
        final AtomicBoolean done = new AtomicBoolean();
        final AtomicReference<String> broken = new AtomicReference<>();
        final AtomicLong pages = new AtomicLong();
        final List<Thread> readers = new ArrayList<>();
        for (int r = 0; r < 2; r++) {
            final int pageSize = r == 0 ? 1000 : 5;
            final Thread reader = new Thread(() -> {
                long n = 0;
                while (!done.get() && broken.get() == null) {
                    final String account = accounts[(int) (n++ % accounts.length)];
                    long after = 0;
                    while (true) {
                        final List<OrderState> page = view.openOrders(account, after, pageSize);
                        pages.incrementAndGet();
                        for (final OrderState order : page) {
                            if (order.orderId() <= after || !account.equals(order.accountId())
                                    || !order.status().isOpen()) {
                                broken.compareAndSet(null, "after " + after + " of " + account + ": " + order);
                            }
                            after = order.orderId();
                        }
                        if (page.size() < pageSize) {
                            break;
                        }
                    }
                }
            }, "open-orders-reader-" + r);
            reader.start();
            readers.add(reader);
        }
        for (int n = 0; n < events.size(); n++) {
            new OrderViewStage(view).onEvent(events.get(n), n, n % 16 == 15);
        }
        done.set(true);
        for (final Thread reader : readers) {
            reader.join(60_000);
        }
        assertNull(broken.get(), broken.get());
        assertTrue(pages.get() > 0, "the readers must have read pages");
    }
}
