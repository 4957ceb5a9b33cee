package io.orderentry.marketdata;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.lmax.disruptor.BlockingWaitStrategy;
import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.dsl.Disruptor;
import com.lmax.disruptor.dsl.ProducerType;
import com.lmax.disruptor.util.DaemonThreadFactory;
import io.orderentry.engine.EngineConfig;
import io.orderentry.engine.Matcher;
import io.orderentry.engine.Side;
import io.orderentry.pipeline.EngineEvent;
import io.orderentry.pipeline.MatcherMetrics;
import io.orderentry.pipeline.MatcherStage;
import io.orderentry.pipeline.OrderCommand;
import io.orderentry.testing.RandomCommands;
import io.orderentry.testing.RandomOperations;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.LinkedBlockingQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The market data consumer against the engine it follows: random commands go through a real
 * {@link Matcher} and {@link MatcherStage} into an output ring, and at checkpoints the consumer's L2
 * books must equal {@link Matcher#forEachLevel}, its trades the engine's, and a client that applies
 * the stream updates to an empty book must hold the same book, with no gap in any sequence.
 */
class MarketDataMatchesEngineTest {

    private static final int SYMBOLS = 2;
    private static final int COMMANDS = 20_000;
    private static final int CHECK_EVERY = 500;

    private final Disruptor<EngineEvent> output = new Disruptor<>(EngineEvent::new, 1024,
            DaemonThreadFactory.INSTANCE, ProducerType.SINGLE, new BlockingWaitStrategy());
    private final LinkedBlockingQueue<StreamUpdate> delivered = new LinkedBlockingQueue<>();

    @AfterEach
    void stop() {
        output.halt();
    }

    @Test
    void booksTradesAndStreamUpdatesFollowTheEngineThroughRandomCommands() {
        assertFollowsTheEngine(RandomCommands::fill);
    }

    @Test
    void booksTradesAndStreamUpdatesFollowTheEngineThroughAmendsCancelAllsSelfTradesAndBands() {
        assertFollowsTheEngine(RandomOperations::fill);
    }

    /** How a test fills its next command (RandomCommands::fill or RandomOperations::fill). */
    private interface CommandSource {
        void fill(Random random, OrderCommand command, int symbols, long lastOrderId);
    }

    private void assertFollowsTheEngine(final CommandSource commands) {
        final MarketDataStage stage = new MarketDataStage(SYMBOLS, 1,
                new MarketDataConfig(50, 100, 10, 10, 100, 65_536, 1_000, 1_000, 1 << 20, 1 << 24, 50, 20));
        RecordingTarget.attach(stage, SYMBOLS, delivered);
        output.handleEventsWith(stage);
        final RingBuffer<EngineEvent> ring = output.start();
        final MatcherStage matcherStage = new MatcherStage(
                sink -> new Matcher(SYMBOLS, new EngineConfig(100_000, 10_000, 200, 1_000), sink), ring,
                new MatcherMetrics());
        final Matcher matcher = matcherStage.matcher();
        final StreamFollower follower = new StreamFollower(SYMBOLS);
        final Random random = new Random(42);
        final OrderCommand command = new OrderCommand();
        for (int i = 1; i <= COMMANDS; i++) {
            command.sequence = i;
            command.timestampMicros = 1_800_000_000_000_000L + i * 1_000_000L;
            commands.fill(random, command, SYMBOLS, matcher.lastOrderId());
            matcherStage.replay(command);
            if (i % CHECK_EVERY == 0) {
                awaitConsumer(stage.view(), matcher.lastEventSequence());
                follower.apply(drain());
                for (int symbol = 0; symbol < SYMBOLS; symbol++) {
                    assertBookEqualsEngine(matcher, stage.view().currentBook(symbol), "consumer at command " + i);
                    assertBookEqualsEngine(matcher, follower.book(symbol), "stream follower at command " + i);
                    assertTickerMatchesTopOfBook(stage.view().ticker(symbol), stage.view().currentBook(symbol));
                    assertEquals(follower.recentTrades(symbol, 50), stage.view().trades(symbol).recent(50));
                }
                assertEquals(matcher.lastTradeId(), follower.tradeCount(), "every trade streamed once");
            }
        }
        assertTrue(matcher.lastTradeId() > 1_000, "the commands traded: " + matcher.lastTradeId());
        assertTrue(follower.maxLevels() > 100, "the books got deep: " + follower.maxLevels());
    }

    private List<StreamUpdate> drain() {
        final List<StreamUpdate> updates = new ArrayList<>();
        delivered.drainTo(updates);
        return updates;
    }

    private static void awaitConsumer(final MarketDataView view, final long eventSequence) {
        while (view.lastEventSequence() < eventSequence) {
            Thread.onSpinWait();
        }
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

    private static void assertTickerMatchesTopOfBook(final Ticker ticker, final BookSnapshot book) {
        assertEquals(book.levelCount(Side.BUY) == 0 ? 0 : book.price(Side.BUY, 0), ticker.bestBid());
        assertEquals(book.levelCount(Side.BUY) == 0 ? 0 : book.quantity(Side.BUY, 0), ticker.bestBidQuantity());
        assertEquals(book.levelCount(Side.SELL) == 0 ? 0 : book.price(Side.SELL, 0), ticker.bestAsk());
        assertEquals(book.levelCount(Side.SELL) == 0 ? 0 : book.quantity(Side.SELL, 0), ticker.bestAskQuantity());
    }
}
