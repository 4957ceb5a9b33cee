package io.orderentry.marketdata;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.lmax.disruptor.RingBuffer;
import io.orderentry.engine.EngineConfig;
import io.orderentry.engine.Matcher;
import io.orderentry.engine.OrderStatus;
import io.orderentry.engine.Side;
import io.orderentry.pipeline.EngineEvent;
import io.orderentry.pipeline.EventType;
import io.orderentry.pipeline.MatcherMetrics;
import io.orderentry.pipeline.MatcherStage;
import io.orderentry.pipeline.OrderCommand;
import io.orderentry.testing.RandomCommands;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Market data snapshots: a stage restored from a snapshot must follow every later engine event exactly as the
 * stage that wrote it (books level for level, trades, ticker with its 24 h volume, the view and the stream
 * updates), and a damaged snapshot must be refused with an {@link IOException}.
 *
 * <p>The engine is a real {@link Matcher} behind a {@link MatcherStage}; the test reads the output ring itself and
 * hands every event to each stage with the same, randomly chosen, batch ends, so the stages see identical batches.
 */
class MarketDataSnapshotTest {

    private static final int SYMBOLS = 2;
    private static final int HISTORY = 50;
    private static final long START_MICROS = 1_800_000_000_000_000L;

    // ---------------------------------------------------------------------------------------------------------
    // 1. Round trip against the engine

    @Test
    void aRestoredStageFollowsLaterEventsExactlyAsTheStageThatWroteTheSnapshot() throws IOException {
        final EngineFeed engine = new EngineFeed(SYMBOLS, 42);
        final Recorded original = new Recorded(SYMBOLS, HISTORY);
        engine.run(6_000, SYMBOLS, original.stage);

        final byte[] snapshot = snapshot(original.stage);
        final Recorded restored = new Recorded(SYMBOLS, HISTORY);
        restored.stage.restoreSnapshot(input(snapshot));
        assertSameView(original.stage.view(), restored.stage.view(), "right after the restore");
        assertTrue(deepestBook(restored.stage.view()) > 100, "the snapshot holds deep books");
        assertEquals(HISTORY, restored.stage.view().trades(0).recent(HISTORY).size(), "and a full trade history");
        final long[] allTimeVolume = allTimeVolume(original.updates);
        assertTrue(original.stage.view().ticker(0).volume24h() < allTimeVolume[0],
                "the 24 h window has dropped early trades before the snapshot");

        for (int checkpoint = 1; checkpoint <= 6; checkpoint++) {
            original.updates.clear();
            engine.run(1_000, SYMBOLS, original.stage, restored.stage);
            final String what = "checkpoint " + checkpoint + " after the restore";
            assertSameView(original.stage.view(), restored.stage.view(), what);
            assertSameUpdates(original.updates, restored.updates, what);
            restored.updates.clear();
            for (int symbol = 0; symbol < SYMBOLS; symbol++) {
                assertBookEqualsEngine(engine.matcher, restored.stage.view().currentBook(symbol), what);
            }
        }
        assertArrayEquals(snapshot(original.stage), snapshot(restored.stage),
                "after the same events both stages write the same snapshot, volume window and sequences included");
    }

    // ---------------------------------------------------------------------------------------------------------
    // 2. Empty state

    @Test
    void anEmptyStageRoundTripsAndItsRestoredCopyFollowsTheEngineFromTheStart() throws IOException {
        final Recorded original = new Recorded(SYMBOLS, HISTORY);
        final byte[] snapshot = snapshot(original.stage);
        final Recorded restored = new Recorded(SYMBOLS, HISTORY);
        restored.stage.restoreSnapshot(input(snapshot));
        for (int symbol = 0; symbol < SYMBOLS; symbol++) {
            assertEmpty(restored.stage.view(), symbol);
        }
        assertEquals(0, restored.stage.view().lastEventSequence());
        assertArrayEquals(snapshot, snapshot(restored.stage));

        final EngineFeed engine = new EngineFeed(SYMBOLS, 7);
        engine.run(2_000, SYMBOLS, original.stage, restored.stage);
        assertSameView(original.stage.view(), restored.stage.view(), "after 2,000 commands");
        assertSameUpdates(original.updates, restored.updates, "after 2,000 commands");
    }

    // ---------------------------------------------------------------------------------------------------------
    // 3. Fewer symbols in the snapshot than configured

    @Test
    void aSnapshotWithFewerSymbolsLeavesTheNewSymbolEmptyAndTheOthersEqual() throws IOException {
        final EngineFeed engine = new EngineFeed(SYMBOLS + 1, 11);
        final Recorded original = new Recorded(SYMBOLS, HISTORY);
        engine.run(3_000, SYMBOLS, original.stage);

        final Recorded restored = new Recorded(SYMBOLS + 1, HISTORY);
        restored.stage.restoreSnapshot(input(snapshot(original.stage)));
        assertEmpty(restored.stage.view(), SYMBOLS);
        assertEquals(original.stage.view().lastEventSequence(), restored.stage.view().lastEventSequence());
        for (int symbol = 0; symbol < SYMBOLS; symbol++) {
            assertSameSymbol(original.stage.view(), restored.stage.view(), symbol, "restored symbol " + symbol);
        }

        final StreamFollower follower = new StreamFollower(SYMBOLS + 1);
        follower.subscribe(restored.stage.view());
        engine.run(3_000, SYMBOLS + 1, restored.stage);
        follower.apply(restored.updates);   // the new symbol's channels count from 1, the others on
        for (int symbol = 0; symbol <= SYMBOLS; symbol++) {
            assertBookEqualsEngine(engine.matcher, restored.stage.view().currentBook(symbol), "symbol " + symbol);
            BookStateTest.assertSame(restored.stage.view().currentBook(symbol), follower.book(symbol));
        }
        assertTrue(restored.stage.view().trades(SYMBOLS).sequence() > 0, "the new symbol traded");
    }

    // ---------------------------------------------------------------------------------------------------------
    // 4. Damaged input

    @Test
    void aTruncatedSnapshotIsRefusedWhereverItIsCut() throws IOException {
        final EngineFeed engine = new EngineFeed(SYMBOLS, 5);
        final Recorded original = new Recorded(SYMBOLS, HISTORY);
        engine.run(2_000, SYMBOLS, original.stage);
        final byte[] snapshot = snapshot(original.stage);
        final int n = snapshot.length;
        for (final int cut : new int[] {0, 1, 3, 4, 11, 12, 15, 16, 17, 20, 23, 24, 31, n / 7, n / 3, n / 2, 2 * n / 3,
                n - 40, n - 9, n - 5, n - 4, n - 1}) {
            final MarketDataStage stage = new Recorded(SYMBOLS, HISTORY).stage;
            assertThrows(IOException.class, () -> stage.restoreSnapshot(input(Arrays.copyOf(snapshot, cut))),
                    "cut at " + cut + " of " + n);
            for (int symbol = 0; symbol < SYMBOLS; symbol++) {
                assertEmpty(stage.view(), symbol);
            }
        }
    }

    @Test
    void aMalformedSnapshotIsRefusedWithAMessageSayingWhatIsWrong() throws IOException {
        final Recorded original = new Recorded(1, HISTORY);
        original.stage.onEvent(rest(1, Side.BUY, 100, 5), 0, false);
        original.stage.onEvent(rest(2, Side.BUY, 101, 3), 1, true);
        final byte[] snapshot = snapshot(original.stage);
        // version int, last event long, symbols int, symbol int, book sequence long, bid count int, first bid price
        final int bidCount = 4 + 8 + 4 + 4 + 8;
        final int firstBidPrice = bidCount + 4;

        assertRefused(patchInt(snapshot, 0, 2), "version 2");
        assertRefused(patchInt(snapshot, 12, 2), "2 symbols but this stage has 1");
        assertRefused(patchInt(snapshot, 12, -1), "-1 symbols");
        assertRefused(patchInt(snapshot, 16, 1), "expected the state of symbol 0, found symbol 1");
        assertRefused(patchInt(snapshot, bidCount, -3), "level count -3");
        assertRefused(patchLong(snapshot, firstBidPrice, 99), "is not worse than the level before it");
        assertRefused(patchLong(snapshot, firstBidPrice + 8, 0), "must be > 0");
        assertRefused(patchInt(snapshot, snapshot.length - 4, 0), "does not end after its 1 symbols");
    }

    @Test
    void aSnapshotWithMoreSymbolsThanTheStageIsRefused() throws IOException {
        final byte[] snapshot = snapshot(new Recorded(SYMBOLS + 1, HISTORY).stage);
        final MarketDataStage stage = new Recorded(SYMBOLS, HISTORY).stage;
        final IOException refused = assertThrows(IOException.class, () -> stage.restoreSnapshot(input(snapshot)));
        assertTrue(refused.getMessage().contains("holds 3 symbols but this stage has 2"), refused.getMessage());
    }

    // ---------------------------------------------------------------------------------------------------------
    // 5. Stream sequences continue

    @Test
    void afterARestoreASubscribersSnapshotAndTheNextUpdatesAreConsecutive() throws IOException {
        final EngineFeed engine = new EngineFeed(SYMBOLS, 3);
        final Recorded original = new Recorded(SYMBOLS, HISTORY);
        engine.run(3_000, SYMBOLS, original.stage);
        final Recorded restored = new Recorded(SYMBOLS, HISTORY);
        restored.stage.restoreSnapshot(input(snapshot(original.stage)));
        for (int symbol = 0; symbol < SYMBOLS; symbol++) {
            assertTrue(restored.stage.view().currentBook(symbol).sequence() > 0, "the book sequence was restored");
            assertTrue(restored.stage.view().trades(symbol).sequence() > 0, "the trades sequence was restored");
            assertTrue(restored.stage.view().ticker(symbol).sequence() > 0, "the ticker sequence was restored");
        }

        final StreamFollower follower = new StreamFollower(SYMBOLS);
        follower.subscribe(restored.stage.view());
        for (int round = 0; round < 4; round++) {
            engine.run(500, SYMBOLS, restored.stage);
            follower.apply(restored.updates);   // fails on any gap after the subscription's snapshot
            restored.updates.clear();
            for (int symbol = 0; symbol < SYMBOLS; symbol++) {
                BookStateTest.assertSame(restored.stage.view().currentBook(symbol), follower.book(symbol));
                assertEquals(restored.stage.view().trades(symbol).recent(HISTORY), follower.recentTrades(symbol, HISTORY));
            }
        }
    }

    // ---------------------------------------------------------------------------------------------------------
    // Beyond the brief's list: deep books, a smaller history, misuse

    @Test
    void aBookOf10000LevelsASideRoundTripsLevelForLevel() throws IOException {
        final Recorded original = new Recorded(1, HISTORY);
        long event = 0;
        for (int i = 0; i < 10_000; i++) {
            original.stage.onEvent(rest(++event, Side.BUY, 100_000 - 1 - 3L * i, 1 + i % 7), event, false);
            original.stage.onEvent(rest(++event, Side.SELL, 100_000 + 1 + 3L * i, 1 + i % 5), event, i % 1000 == 999);
        }
        final byte[] snapshot = snapshot(original.stage);
        final Recorded restored = new Recorded(1, HISTORY);
        restored.stage.restoreSnapshot(input(snapshot));
        assertEquals(10_000, restored.stage.view().currentBook(0).levelCount(Side.BUY));
        assertEquals(10_000, restored.stage.view().currentBook(0).levelCount(Side.SELL));
        assertSameView(original.stage.view(), restored.stage.view(), "deep book");
        assertArrayEquals(snapshot, snapshot(restored.stage));
    }

    @Test
    void aStageKeepingFewerTradesRestoresTheNewestOnes() throws IOException {
        final EngineFeed engine = new EngineFeed(SYMBOLS, 9);
        final Recorded original = new Recorded(SYMBOLS, HISTORY);
        engine.run(2_000, SYMBOLS, original.stage);
        final Recorded restored = new Recorded(SYMBOLS, 10);
        restored.stage.restoreSnapshot(input(snapshot(original.stage)));
        for (int symbol = 0; symbol < SYMBOLS; symbol++) {
            assertEquals(original.stage.view().trades(symbol).recent(10), restored.stage.view().trades(symbol).recent(100));
        }
    }

    @Test
    void onlyAFreshStageCanBeRestoredAndOnlyBetweenBatchesCanOneBeWritten() throws IOException {
        final Recorded original = new Recorded(1, HISTORY);
        original.stage.onEvent(rest(1, Side.BUY, 100, 5), 0, false);
        assertThrows(IllegalStateException.class, () -> snapshot(original.stage), "in the middle of a batch");
        original.stage.onEvent(rest(2, Side.SELL, 105, 5), 1, true);
        final byte[] snapshot = snapshot(original.stage);
        assertThrows(IllegalStateException.class, () -> original.stage.restoreSnapshot(input(snapshot)));
        final Recorded restored = new Recorded(1, HISTORY);
        restored.stage.restoreSnapshot(input(snapshot));
        assertThrows(IllegalStateException.class, () -> restored.stage.restoreSnapshot(input(snapshot)));
    }

    // ---------------------------------------------------------------------------------------------------------
    // Harness

    /** A stage with every channel of every symbol subscribed, recording the stream updates it hands over. */
    private static final class Recorded {

        final MarketDataStage stage;
        final List<StreamUpdate> updates = new ArrayList<>();

        Recorded(final int symbols, final int tradesHistory) {
            stage = new MarketDataStage(symbols, 1, new MarketDataConfig(tradesHistory, 100, 10, 10, 100, 65_536,
                    1_000, 1_000, 1 << 20, 1 << 24, 50, 20));
            RecordingTarget.attach(stage, symbols, updates);
        }
    }

    /**
     * A real matcher publishing into an output ring that this feed reads itself, on the test thread: every event
     * goes to each stage given, in order, with batches of 1 to 8 commands. The ring has no gating sequence; one
     * command's events always fit in it, and they are consumed before the next command.
     */
    private static final class EngineFeed {

        private final RingBuffer<EngineEvent> ring = RingBuffer.createSingleProducer(EngineEvent::new, 4096);
        private final MatcherStage matcherStage;
        final Matcher matcher;
        private final Random random;
        private final OrderCommand command = new OrderCommand();
        private long commandSequence;
        private long consumed = -1;
        private long clockMicros = START_MICROS;

        EngineFeed(final int symbols, final long seed) {
            matcherStage = new MatcherStage(sink -> new Matcher(symbols, new EngineConfig(100_000, 10_000, 200, 1_000),
                    sink), ring, new MatcherMetrics());
            matcher = matcherStage.matcher();
            random = new Random(seed);
        }

        /** Runs {@code commands} random commands on symbols below {@code symbols}; ends with a batch end. */
        void run(final int commands, final int symbols, final MarketDataStage... stages) {
            int batchLeft = 1 + random.nextInt(8);
            for (int i = 1; i <= commands; i++) {
                // 0 to 30 s between commands: the 24 h volume window rolls every ~5,800 commands
                clockMicros += random.nextInt(30_000_001);
                randomCommand(symbols);
                matcherStage.replay(command);
                final boolean endOfBatch = --batchLeft == 0 || i == commands;
                if (batchLeft == 0) {
                    batchLeft = 1 + random.nextInt(8);
                }
                final long cursor = ring.getCursor();
                assertTrue(cursor - consumed <= ring.getBufferSize(), "one command's events fit in the ring");
                for (long sequence = consumed + 1; sequence <= cursor; sequence++) {
                    final EngineEvent event = ring.get(sequence);
                    for (final MarketDataStage stage : stages) {
                        stage.onEvent(event, sequence, endOfBatch && sequence == cursor);
                    }
                }
                consumed = cursor;
            }
        }

        private void randomCommand(final int symbols) {
            command.sequence = ++commandSequence;
            command.timestampMicros = clockMicros;
            RandomCommands.fill(random, command, symbols, matcher.lastOrderId());
        }
    }

    private static EngineEvent rest(final long eventSequence, final Side side, final long price, final long quantity) {
        final EngineEvent event = new EngineEvent();
        event.reset();
        event.type = EventType.ORDER_UPDATED;
        event.eventSequence = eventSequence;
        event.timestampMicros = START_MICROS;
        event.orderId = eventSequence;
        event.symbol = 0;
        event.side = side;
        event.price = price;
        event.quantity = quantity;
        event.remainingQuantity = quantity;
        event.status = OrderStatus.NEW;
        return event;
    }

    private static byte[] snapshot(final MarketDataStage stage) throws IOException {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            stage.writeSnapshot(out);
        }
        return bytes.toByteArray();
    }

    private static DataInputStream input(final byte[] snapshot) {
        return new DataInputStream(new ByteArrayInputStream(snapshot));
    }

    private static byte[] patchInt(final byte[] snapshot, final int offset, final int value) {
        final byte[] copy = snapshot.clone();
        ByteBuffer.wrap(copy).putInt(offset, value);
        return copy;
    }

    private static byte[] patchLong(final byte[] snapshot, final int offset, final long value) {
        final byte[] copy = snapshot.clone();
        ByteBuffer.wrap(copy).putLong(offset, value);
        return copy;
    }

    private static void assertRefused(final byte[] snapshot, final String message) {
        final MarketDataStage stage = new Recorded(1, HISTORY).stage;
        final IOException refused = assertThrows(IOException.class, () -> stage.restoreSnapshot(input(snapshot)),
                message);
        assertTrue(refused.getMessage().contains(message), "'" + refused.getMessage() + "' says " + message);
    }

    /** Every level of both books, the recent trades and their sequence, the ticker and the last event sequence. */
    private static void assertSameView(final MarketDataView expected, final MarketDataView actual, final String what) {
        assertEquals(expected.symbols(), actual.symbols(), what + ": symbols");
        assertEquals(expected.lastEventSequence(), actual.lastEventSequence(), what + ": last event sequence");
        for (int symbol = 0; symbol < expected.symbols(); symbol++) {
            assertSameSymbol(expected, actual, symbol, what);
        }
    }

    private static void assertSameSymbol(final MarketDataView expected, final MarketDataView actual, final int symbol,
                                         final String what) {
        BookStateTest.assertSame(expected.currentBook(symbol), actual.currentBook(symbol));
        BookStateTest.assertSame(expected.recentBook(symbol), actual.recentBook(symbol));
        assertEquals(expected.trades(symbol).sequence(), actual.trades(symbol).sequence(), what + ": trades sequence");
        assertEquals(expected.trades(symbol).recent(1_000), actual.trades(symbol).recent(1_000), what + ": trades");
        assertEquals(expected.ticker(symbol), actual.ticker(symbol), what + ": ticker of symbol " + symbol);
    }

    private static void assertEmpty(final MarketDataView view, final int symbol) {
        final BookSnapshot book = view.currentBook(symbol);
        assertEquals(0, book.sequence());
        assertEquals(0, book.levelCount(Side.BUY));
        assertEquals(0, book.levelCount(Side.SELL));
        assertEquals(0, view.trades(symbol).sequence());
        assertEquals(List.of(), view.trades(symbol).recent(1_000));
        assertEquals(Ticker.empty(symbol), view.ticker(symbol));
        assertNull(view.ticker(symbol).lastTrade());
    }

    private static void assertSameUpdates(final List<StreamUpdate> expected, final List<StreamUpdate> actual,
                                          final String what) {
        assertEquals(expected.size(), actual.size(), what + ": stream updates");
        for (int i = 0; i < expected.size(); i++) {
            final StreamUpdate e = expected.get(i);
            final StreamUpdate a = actual.get(i);
            final String which = what + ": update " + i;
            assertEquals(e.symbol(), a.symbol(), which);
            assertEquals(e.channel(), a.channel(), which);
            assertEquals(e.sequence(), a.sequence(), which);
            if (e instanceof BookUpdate eb && a instanceof BookUpdate ab) {
                assertEquals(eb.size(), ab.size(), which);
                for (int j = 0; j < eb.size(); j++) {
                    assertEquals(eb.side(j), ab.side(j), which);
                    assertEquals(eb.price(j), ab.price(j), which);
                    assertEquals(eb.quantity(j), ab.quantity(j), which);
                }
                for (final Side side : Side.values()) {
                    assertEquals(eb.top().levelCount(side), ab.top().levelCount(side), which);
                    for (int j = 0; j < eb.top().levelCount(side); j++) {
                        assertEquals(eb.top().price(side, j), ab.top().price(side, j), which);
                        assertEquals(eb.top().quantity(side, j), ab.top().quantity(side, j), which);
                    }
                }
            } else if (e instanceof TradeBatch et && a instanceof TradeBatch at) {
                assertEquals(et.trades(), at.trades(), which);
            } else {
                assertEquals(e, a, which);
            }
        }
    }

    private static int deepestBook(final MarketDataView view) {
        int deepest = 0;
        for (int symbol = 0; symbol < view.symbols(); symbol++) {
            for (final Side side : Side.values()) {
                deepest = Math.max(deepest, view.currentBook(symbol).levelCount(side));
            }
        }
        return deepest;
    }

    private static long[] allTimeVolume(final List<StreamUpdate> updates) {
        final long[] volume = new long[SYMBOLS];
        for (final StreamUpdate update : updates) {
            if (update instanceof TradeBatch batch) {
                for (final Trade trade : batch.trades()) {
                    volume[batch.symbol()] += trade.quantity();
                }
            }
        }
        return volume;
    }

    private static void assertBookEqualsEngine(final Matcher matcher, final BookSnapshot book, final String what) {
        for (final Side side : Side.values()) {
            final List<long[]> engine = new ArrayList<>();
            matcher.forEachLevel(book.symbol(), side, (price, total, count) -> engine.add(new long[] {price, total}));
            assertEquals(engine.size(), book.levelCount(side), what + ": " + side + " level count");
            for (int i = 0; i < engine.size(); i++) {
                assertEquals(engine.get(i)[0], book.price(side, i), what + ": " + side + " price " + i);
                assertEquals(engine.get(i)[1], book.quantity(side, i), what + ": " + side + " quantity " + i);
            }
        }
    }
}
