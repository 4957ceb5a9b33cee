package io.orderentry.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.orderentry.engine.EngineConfig;
import io.orderentry.engine.Matcher;
import io.orderentry.engine.OrderStatus;
import io.orderentry.engine.OrderType;
import io.orderentry.engine.RejectReason;
import io.orderentry.engine.SelfTradePrevention;
import io.orderentry.engine.Side;
import io.orderentry.engine.TimeInForce;
import io.orderentry.persistence.GeneratedEvents;
import io.orderentry.pipeline.CommandType;
import io.orderentry.pipeline.EngineEvent;
import io.orderentry.pipeline.EventType;
import io.orderentry.pipeline.MatcherMetrics;
import io.orderentry.pipeline.MatcherStage;
import io.orderentry.pipeline.OrderCommand;
import io.orderentry.testing.CollectingOutput;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * A view restored from a snapshot must be indistinguishable from the view that wrote it: the same answer for every
 * order id and every account's open orders, and the same answers again after both apply the same later events
 * (which exercises the eviction ring, the open-order index and the fill chains it restored).
 */
class OrderStateViewSnapshotTest {

    private static final int RETAINED = 200;

    @Test
    void restoredViewAnswersAndEvolvesExactlyLikeTheViewThatWroteTheSnapshot() throws IOException {
        for (final long seed : new long[] {5, 6}) {
            final List<EngineEvent> events = GeneratedEvents.generate(seed, 40_000);
            final int split = 25_000;
            final OrderStateView original = new OrderStateView(RETAINED);
            apply(original, events, 0, split);
            assertCoversEveryKindOfOrder(original, maxOrderId(events, split));

            final OrderStateView restored = restore(snapshot(original), RETAINED);
            assertSameAnswers(original, restored, events, split, "after restore, seed " + seed);
            assertEquals(original.lastEventSequence(), restored.lastEventSequence());

            followTogether(original, restored, events, split, events.size(), "seed " + seed);
            assertTrue(maxOrderId(events, events.size()) > 10L * RETAINED, "the run must evict final orders");
            assertEquals(original.lastEventSequence(), restored.lastEventSequence());
        }
    }

    @Test
    void snapshotBytesOfAFixedHistoryAreThoseTheFormatHasAlwaysWritten() throws Exception {
        // the bytes of version 2 as written before the format moved into OrderStateViewSnapshot (7642e3f): a change of
        // the format, or of the order the writer visits the state in, must be a deliberate one (a new version). Since
        // issue 35 the table of reject reason names the snapshot carries ends with CANCEL_ON_DISCONNECT: the same
        // layout, one more name (a restore maps the names it reads to this build's reasons, so older snapshots, whose
        // table lacks it, restore as before); since issue 36 with INSUFFICIENT_BALANCE after it, the same way
        final List<EngineEvent> events = GeneratedEvents.generate(5, 20_000);
        final OrderStateView view = new OrderStateView(RETAINED);
        apply(view, events, 0, events.size());
        final byte[] digest = java.security.MessageDigest.getInstance("SHA-256").digest(snapshot(view));
        assertEquals("f87e6041c4dd5854cc6c0268a130e37cb873f7ffb7f2b2e3a25a025259f7f35c", java.util.HexFormat.of().formatHex(digest));
    }

    @Test
    void restoredViewKeepsAmendedTermsSelfTradePreventionAndReasonsAndEvolvesLikeTheOriginal() throws IOException {
        final List<EngineEvent> events = GeneratedEvents.generateWithOperations(8, 30_000);
        final int split = 18_000;
        final OrderStateView original = new OrderStateView(RETAINED);
        apply(original, events, 0, split);
        final Set<SelfTradePrevention> modes = EnumSet.noneOf(SelfTradePrevention.class);
        final Set<RejectReason> reasons = EnumSet.noneOf(RejectReason.class);
        for (long id = 1; id <= maxOrderId(events, split); id++) {
            final OrderState order = original.get(id);
            if (order != null) {
                modes.add(order.selfTradePrevention());
                reasons.add(order.rejectReason());
            }
        }
        assertEquals(EnumSet.allOf(SelfTradePrevention.class), modes, "the snapshot must hold every mode");
        assertTrue(reasons.containsAll(EnumSet.of(RejectReason.SELF_TRADE_PREVENTED, RejectReason.CANCEL_ALL,
                RejectReason.CANCEL_ALL_AFTER, RejectReason.PRICE_OUTSIDE_BAND)), reasons.toString());

        final OrderStateView restored = restore(snapshot(original), RETAINED);
        assertSameAnswers(original, restored, events, split, "after restore");
        followTogether(original, restored, events, split, events.size(), "with order operations");
    }

    @Test
    void versionOneSnapshotRestoresEveryOrderAsItWasWithoutSelfTradePrevention() throws IOException {
        final List<EngineEvent> events = GeneratedEvents.generate(10, 20_000);
        final OrderStateView original = new OrderStateView(RETAINED);
        apply(original, events, 0, events.size());
        assertTrue(original.size() > 2 * SnapshotCodec.FRAME, "several frames: " + original.size());

        final OrderStateView restored = restore(asVersionOne(snapshot(original)), RETAINED);
        assertSameAnswers(original, restored, events, events.size(), "restored from version 1");
        final OrderState any = restored.get(maxOrderId(events, events.size()));
        assertEquals(SelfTradePrevention.NONE, any.selfTradePrevention());
    }

    @Test
    void emptyViewRoundTripsToAnEmptyViewThatThenAppliesEventsNormally() throws IOException {
        final OrderStateView restored = restore(snapshot(new OrderStateView(RETAINED)), RETAINED);
        assertEquals(0, restored.size());
        assertEquals(0, restored.lastEventSequence());
        assertNull(restored.get(1));
        assertTrue(restored.openOrders("acct-1", 0, 100).isEmpty());

        final List<EngineEvent> events = GeneratedEvents.generate(9, 5_000);
        final OrderStateView fresh = new OrderStateView(RETAINED);
        apply(fresh, events, 0, events.size());
        apply(restored, events, 0, events.size());
        assertSameAnswers(fresh, restored, events, events.size(), "after the events");
    }

    @Test
    void partiallyFilledOrdersAndOrdersWithManyMakerAndTakerFillsKeepEveryFillInOrder() throws IOException {
        final Engine engine = new Engine(new EngineConfig(10_000, 1_000, 1_000, 10_000));
        final long bigMaker = engine.place("maker", "big", Side.SELL, TimeInForce.GTC, 100, 1_000);
        for (int n = 0; n < 40; n++) {
            engine.place("taker-" + (n % 7), null, Side.BUY, TimeInForce.IOC, 100, 7);
        }
        for (int n = 0; n < 30; n++) {
            engine.place("seller-" + (n % 5), "s" + n, Side.SELL, TimeInForce.GTC, 101 + n, 5);
        }
        // takes the big maker's rest and the 30 small sells, then rests its remainder
        final long sweeper = engine.place("sweeper", "sweep", Side.BUY, TimeInForce.GTC, 130, 1_000);
        for (int n = 0; n < 10; n++) {
            engine.place("hitter", null, Side.SELL, TimeInForce.IOC, 130, 3);   // fills the sweeper as maker
        }
        final long postOnly = engine.place("sweeper", "po", Side.SELL, TimeInForce.GTC, 130, 1, true);

        final OrderStateView original = new OrderStateView(RETAINED);
        apply(original, engine.events, 0, engine.events.size());
        final OrderStateView restored = restore(snapshot(original), RETAINED);
        assertSameAnswers(original, restored, engine.events, engine.events.size(), "after restore");

        final OrderState maker = restored.get(bigMaker);
        assertEquals(OrderStatus.FILLED, maker.status());
        assertEquals(41, maker.fills().size());
        assertTrue(maker.fills().stream().noneMatch(Fill::taker));
        final OrderState sweep = restored.get(sweeper);
        assertEquals(OrderStatus.PARTIALLY_FILLED, sweep.status());
        assertEquals(41, sweep.fills().size());
        assertEquals(31, sweep.fills().stream().filter(Fill::taker).count(), "taker fills first, then maker fills");
        assertTrue(sweep.fills().subList(0, 31).stream().allMatch(Fill::taker));
        assertEquals(1_000 - 720 - 150 - 30, sweep.remainingQuantity());
        assertEquals(List.of(sweep), restored.openOrders("sweeper", 0, 10));
        assertEquals(RejectReason.POST_ONLY_WOULD_CROSS, restored.get(postOnly).rejectReason());

        // both keep filling the partially filled order, then cancel it
        final int before = engine.events.size();
        engine.place("hitter", null, Side.SELL, TimeInForce.IOC, 130, 20);
        engine.cancel(sweeper);
        apply(original, engine.events, before, engine.events.size());
        apply(restored, engine.events, before, engine.events.size());
        assertSameAnswers(original, restored, engine.events, engine.events.size(), "after more fills and a cancel");
        assertEquals(OrderStatus.CANCELED, restored.get(sweeper).status());
        assertEquals(42, restored.get(sweeper).fills().size());
        assertTrue(restored.openOrders("sweeper", 0, 10).isEmpty());
    }

    @Test
    void accountsAndClientOrderIdsOfAnyCharactersRoundTripExactly() throws IOException {
        final Engine engine = new Engine(EngineConfig.DEFAULTS);
        final String[] accounts = {"acct-1", "ß-konto", "账户", "\u0000nul", "\ud834\udd1e-clef", "\ud800-lone"};
        final String[] clientOrderIds = {"", "€", "\u0000", "𝄞", "\udc00", "x".repeat(10_000), null};
        final List<Long> placed = new ArrayList<>();
        for (int n = 0; n < accounts.length * clientOrderIds.length; n++) {
            placed.add(engine.place(accounts[n % accounts.length], clientOrderIds[n % clientOrderIds.length],
                    n % 2 == 0 ? Side.BUY : Side.SELL, TimeInForce.GTC, n % 2 == 0 ? 90 : 110, 1 + n));
        }
        final OrderStateView original = new OrderStateView(RETAINED);
        apply(original, engine.events, 0, engine.events.size());
        final OrderStateView restored = restore(snapshot(original), RETAINED);
        assertSameAnswers(original, restored, engine.events, engine.events.size(), "after restore");
        for (int n = 0; n < placed.size(); n++) {
            assertEquals(accounts[n % accounts.length], restored.get(placed.get(n)).accountId());
            assertEquals(clientOrderIds[n % clientOrderIds.length], restored.get(placed.get(n)).clientOrderId());
        }
    }

    @Test
    void viewRestoredWithASmallerRetentionKeepsOnlyTheNewestFinalOrdersAsEvictionWould() throws IOException {
        final int smaller = 40;
        final List<EngineEvent> events = GeneratedEvents.generate(12, 30_000);
        final int split = 20_000;
        final OrderStateView original = new OrderStateView(RETAINED);
        apply(original, events, 0, split);
        final byte[] snapshot = snapshot(original);

        // what a view bounded to 40 from the start holds: the same open orders, only the newest 40 final ones
        final OrderStateView boundedFromStart = new OrderStateView(smaller);
        apply(boundedFromStart, events, 0, split);
        final OrderStateView restored = restore(snapshot, smaller);
        assertTrue(restored.size() < original.size(), "the restore must have dropped final orders");
        assertSameAnswers(boundedFromStart, restored, events, split, "after restore");

        followTogether(boundedFromStart, restored, events, split, events.size(), "bounded to " + smaller);

        // a larger bound keeps everything the snapshot has
        assertSameAnswers(original, restore(snapshot, 5 * RETAINED), events, split, "restored with a larger bound");
    }

    @Test
    void truncatedSnapshotThrowsIOExceptionAtEveryCut() throws IOException {
        final Engine engine = new Engine(EngineConfig.DEFAULTS);
        engine.place("a", "a1", Side.SELL, TimeInForce.GTC, 100, 10);
        engine.place("b", null, Side.BUY, TimeInForce.GTC, 100, 4);       // fills a1 partially
        engine.place("a", "a2", Side.SELL, TimeInForce.GTC, 101, 3);
        engine.place("c", "c1", Side.BUY, TimeInForce.IOC, 101, 20);      // fills a1 and a2, expires
        engine.place("b", "b2", Side.BUY, TimeInForce.GTC, 90, 5);
        engine.place("c", null, Side.SELL, TimeInForce.FOK, 80, 50);      // expires
        final OrderStateView view = new OrderStateView(3);
        apply(view, engine.events, 0, engine.events.size());
        final byte[] snapshot = snapshot(view);
        restore(snapshot, 3);     // the whole snapshot restores

        for (int cut = 0; cut < snapshot.length; cut++) {
            final byte[] truncated = Arrays.copyOf(snapshot, cut);
            final int at = cut;
            assertThrows(IOException.class, () -> restore(truncated, 3), "cut at " + at + " of " + snapshot.length);
        }

        // a snapshot of many frames, cut at 300 points through it and in its last bytes
        final List<EngineEvent> events = GeneratedEvents.generate(4, 20_000);
        final OrderStateView large = new OrderStateView(RETAINED);
        apply(large, events, 0, events.size());
        final byte[] many = snapshot(large);
        assertTrue(large.size() > 4 * 256, "the snapshot must hold several frames: " + large.size());
        for (int n = 1; n <= 300; n++) {
            final int cut = n < 290 ? (int) ((long) many.length * n / 290) - 1 : many.length - (301 - n);
            final byte[] truncated = Arrays.copyOf(many, cut);
            assertThrows(IOException.class, () -> restore(truncated, RETAINED), "cut at " + cut + " of " + many.length);
        }
    }

    @Test
    void unknownVersionAndAbsurdCountsAreRefusedWithAnIOException() throws IOException {
        final byte[] empty = snapshot(new OrderStateView(RETAINED));
        // ... int orders, int accounts with open orders, long ever final, int retained
        final int orderCount = empty.length - 20;

        final byte[] version = empty.clone();
        ByteBuffer.wrap(version).putInt(0, 3);
        assertTrue(assertThrows(IOException.class, () -> restore(version, RETAINED)).getMessage().contains("version"));

        for (final int absurd : new int[] {-1, Integer.MAX_VALUE}) {
            final byte[] orders = empty.clone();
            ByteBuffer.wrap(orders).putInt(orderCount, absurd);
            final String message = assertThrows(IOException.class, () -> restore(orders, RETAINED)).getMessage();
            assertTrue(message.contains(absurd + " orders"), message);
        }
        final byte[] retained = empty.clone();
        ByteBuffer.wrap(retained).putInt(empty.length - 4, -5);
        assertThrows(IOException.class, () -> restore(retained, RETAINED));
    }

    @Test
    void snapshotTakenMidBatchPublishesItsAppliedSequenceOnRestore() throws IOException {
        final List<EngineEvent> events = GeneratedEvents.generate(3, 1_000);
        final OrderStateView original = new OrderStateView(RETAINED);
        for (int n = 0; n < events.size(); n++) {
            new OrderViewStage(original).onEvent(events.get(n), n, n == 499);     // the batch after event 499 never ends
        }
        assertEquals(events.get(499).eventSequence, original.lastEventSequence());
        final OrderStateView restored = restore(snapshot(original), RETAINED);
        assertEquals(events.get(events.size() - 1).eventSequence, restored.lastEventSequence());
        original.endOfBatch();
        assertSameAnswers(original, restored, events, events.size(), "after restore");
    }

    @Test
    void restoreIntoAViewThatAlreadyHoldsStateIsRefused() throws IOException {
        final byte[] snapshot = snapshot(new OrderStateView(RETAINED));
        final OrderStateView used = new OrderStateView(RETAINED);
        apply(used, GeneratedEvents.generate(1, 10), 0, 10);
        assertThrows(IllegalStateException.class,
                () -> used.restoreSnapshot(new DataInputStream(new ByteArrayInputStream(snapshot))));
    }

    // ------------------------------------------------------------------------------------------------ helpers

    /**
     * Rewrites a version 2 snapshot whose orders all have self-trade prevention NONE as the version 1 a build before
     * it wrote: no self-trade prevention names, rows without their last byte; everything else byte for byte.
     */
    private static byte[] asVersionOne(final byte[] snapshot) throws IOException {
        final DataInputStream in = new DataInputStream(new ByteArrayInputStream(snapshot));
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final DataOutputStream out = new DataOutputStream(bytes);
        assertEquals(2, in.readInt());
        out.writeInt(1);
        for (int list = 0; list < 6; list++) {
            final int count = in.readInt();
            final List<String> names = new ArrayList<>();
            for (int n = 0; n < count; n++) {
                names.add(in.readUTF());
            }
            if (list < 5) {
                out.writeInt(count);
                for (final String name : names) {
                    out.writeUTF(name);
                }
            } else {
                assertEquals("NONE", names.get(0));
            }
        }
        out.writeLong(in.readLong());
        out.writeLong(in.readLong());
        final int accounts = in.readInt();
        out.writeInt(accounts);
        for (int a = 0; a < accounts; a++) {
            out.writeUTF(in.readUTF());
        }
        final int orders = in.readInt();
        out.writeInt(orders);
        for (int done = 0; done < orders; done += SnapshotCodec.FRAME) {
            final int framed = Math.min(SnapshotCodec.FRAME, orders - done);
            int strings = 0;
            int fills = 0;
            for (int f = 0; f < framed; f++) {
                final byte[] row = in.readNBytes(SnapshotCodec.ROW_BYTES);
                assertEquals(0, row[SnapshotCodec.ROW_BYTES_V1], "self-trade prevention NONE");
                out.write(row, 0, SnapshotCodec.ROW_BYTES_V1);
                strings += Math.max(0, ByteBuffer.wrap(row).getInt(22));
                fills += ByteBuffer.wrap(row).getInt(26);
            }
            out.write(in.readNBytes(strings + fills * SnapshotCodec.FILL_BYTES));
        }
        out.write(in.readAllBytes());
        out.flush();
        return bytes.toByteArray();
    }

    private static byte[] snapshot(final OrderStateView view) throws IOException {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            view.writeSnapshot(out);
        }
        return bytes.toByteArray();
    }

    private static OrderStateView restore(final byte[] snapshot, final int retained) throws IOException {
        final OrderStateView view = new OrderStateView(retained);
        final DataInputStream in = new DataInputStream(new ByteArrayInputStream(snapshot));
        view.restoreSnapshot(in);
        assertEquals(-1, in.read(), "the restore must read the whole snapshot");
        return view;
    }

    /** Applies events {@code [from, to)} as one batch. */
    private static void apply(final OrderStateView view, final List<EngineEvent> events, final int from,
                              final int to) {
        for (int n = from; n < to; n++) {
            new OrderViewStage(view).onEvent(events.get(n), n, n == to - 1);
        }
    }

    /**
     * Applies events {@code [from, to)} to both views and compares them: every 10 events at first, while the final
     * orders the snapshot retained are evicted (so that their order in the ring matters), then every 1,000.
     */
    private static void followTogether(final OrderStateView expected, final OrderStateView actual,
                                       final List<EngineEvent> events, final int from, final int to,
                                       final String when) {
        for (int n = from; n < to; ) {
            final int next = Math.min(to, n + (n - from < 1_500 ? 10 : 1_000));
            apply(expected, events, n, next);
            apply(actual, events, n, next);
            assertSameAnswers(expected, actual, events, next, "after event " + next + ", " + when);
            n = next;
        }
        assertEquals(expected.lastEventSequence(), actual.lastEventSequence());
    }

    private static long maxOrderId(final List<EngineEvent> events, final int to) {
        long max = 0;
        for (int n = 0; n < to; n++) {
            max = Math.max(max, events.get(n).orderId);
        }
        return max;
    }

    /** Every order id ever assigned (and one beyond), every account's open orders, size and sequence. */
    private static void assertSameAnswers(final OrderStateView expected, final OrderStateView actual,
                                          final List<EngineEvent> events, final int to, final String when) {
        final Set<String> accounts = new TreeSet<>();
        for (int n = 0; n < to; n++) {
            if (events.get(n).type == EventType.ORDER_ACCEPTED) {
                accounts.add(events.get(n).accountId);
            }
        }
        final long maxOrderId = maxOrderId(events, to);
        for (long id = 0; id <= maxOrderId + 1; id++) {
            assertEquals(expected.get(id), actual.get(id), "order " + id + " " + when);
        }
        for (final String account : accounts) {
            assertEquals(expected.openOrders(account, 0, Integer.MAX_VALUE),
                    actual.openOrders(account, 0, Integer.MAX_VALUE), account + " " + when);
            assertEquals(expected.openOrders(account, maxOrderId / 2, 3), actual.openOrders(account, maxOrderId / 2, 3),
                    account + " " + when);
        }
        assertEquals(expected.size(), actual.size(), "orders held " + when);
    }

    /** The snapshot under test must hold open, partially filled and every kind of final order, with fills. */
    private static void assertCoversEveryKindOfOrder(final OrderStateView view, final long maxOrderId) {
        final Set<OrderStatus> statuses = EnumSet.noneOf(OrderStatus.class);
        boolean takerFills = false;
        boolean makerFills = false;
        boolean clientOrderIds = false;
        boolean withoutClientOrderIds = false;
        for (long id = 1; id <= maxOrderId; id++) {
            final OrderState state = view.get(id);
            if (state != null) {
                statuses.add(state.status());
                for (final Fill fill : state.fills()) {
                    takerFills |= fill.taker();
                    makerFills |= !fill.taker();
                }
                clientOrderIds |= state.clientOrderId() != null;
                withoutClientOrderIds |= state.clientOrderId() == null;
            }
        }
        assertEquals(EnumSet.allOf(OrderStatus.class), statuses);
        assertTrue(takerFills && makerFills && clientOrderIds && withoutClientOrderIds);
        assertNull(view.get(1), "the first orders must have been evicted");
    }

    /** A real {@link Matcher} behind the real {@link MatcherStage}, whose events are kept as the output ring gets them. */
    private static final class Engine {

        final List<EngineEvent> events;
        private final MatcherStage stage;
        private final OrderCommand command = new OrderCommand();
        private long micros = 1_790_000_000_000_000L;

        Engine(final EngineConfig limits) {
            final CollectingOutput output = new CollectingOutput();
            events = output.events();
            stage = new MatcherStage(sink -> new Matcher(1, limits, sink), output, new MatcherMetrics());
        }

        long place(final String account, final String clientOrderId, final Side side, final TimeInForce tif,
                   final long price, final long quantity) {
            return place(account, clientOrderId, side, tif, price, quantity, false);
        }

        long place(final String account, final String clientOrderId, final Side side, final TimeInForce tif,
                   final long price, final long quantity, final boolean postOnly) {
            next(CommandType.PLACE);
            command.accountId = account;
            command.clientOrderId = clientOrderId;
            command.symbol = 0;
            command.side = side;
            command.orderType = OrderType.LIMIT;
            command.timeInForce = tif;
            command.postOnly = postOnly;
            command.price = price;
            command.quantity = quantity;
            stage.replay(command);
            return stage.matcher().lastOrderId();
        }

        void cancel(final long orderId) {
            next(CommandType.CANCEL);
            command.orderId = orderId;
            stage.replay(command);
        }

        private void next(final CommandType type) {
            final long sequence = command.sequence + 1;
            command.reset();
            command.sequence = sequence;
            command.timestampMicros = micros += 7;
            command.type = type;
        }
    }
}
