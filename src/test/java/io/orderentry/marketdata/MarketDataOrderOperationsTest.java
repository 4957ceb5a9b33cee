package io.orderentry.marketdata;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.orderentry.engine.EngineConfig;
import io.orderentry.engine.RejectReason;
import io.orderentry.engine.SelfTradePrevention;
import io.orderentry.engine.Side;
import io.orderentry.engine.TimeInForce;
import io.orderentry.pipeline.EngineEvent;
import io.orderentry.pipeline.EventType;
import io.orderentry.testing.TestEngine;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The book the market data stage derives from amends, cancel-alls and self-trade prevention, against a real engine
 * ({@link TestEngine}), with the batch ends a test chooses: the levels must be the engine's, and each book update
 * must list what really changed.
 */
class MarketDataOrderOperationsTest {

    private final TestEngine engine = new TestEngine(2, EngineConfig.DEFAULTS);
    private final MarketDataStage stage = new MarketDataStage(2, 1,
            new MarketDataConfig(50, 100, 10, 10, 100, 65_536, 1_000, 1_000, 1 << 20, 1 << 24, 50, 20));
    private final List<StreamUpdate> delivered = new ArrayList<>();
    private int applied;

    MarketDataOrderOperationsTest() {
        RecordingTarget.attach(stage, 2, delivered);
    }

    @Test
    void aReductionInPlaceIsOneChangeOfItsLevelEvenWhenABatchEndsBetweenTheAmendAndItsUpdate() {
        final long order = engine.limit("A", Side.SELL, 1_000, 10);
        engine.limit("B", Side.SELL, 1_000, 5);
        applyAll();
        delivered.clear();

        engine.amend(order, 0, 6);
        assertEquals(EventType.ORDER_AMENDED, engine.events().get(applied).type);
        apply(1, true);              // the batch ends right after ORDER_AMENDED
        applyAll();                  // ORDER_UPDATED and COMMAND_COMPLETED in the next one

        assertEquals(List.of("1:SELL 1000=11"), bookUpdates(), "one change of the level, to its new total");
        assertLevels(0);

        delivered.clear();
        engine.amend(order, 1_000, 6);                         // the same terms
        applyEachInABatchOfItsOwn();
        assertEquals(List.of(), bookUpdates(), "an amend that changes nothing changes no level");
        assertLevels(0);
    }

    @Test
    void anAmendToANewPriceMovesTheRemainderAndTakesWhatItTradesFromTheMakersLevels() {
        final long order = engine.limit("A", Side.SELL, 1_000, 10);
        engine.limit("B", Side.BUY, 1_000, 4);                 // fills 4: 6 rest at 1,000
        engine.limit("C", Side.BUY, 990, 3);
        engine.limit("C", Side.BUY, 980, 1);
        applyAll();
        delivered.clear();

        engine.amend(order, 990, 0);                           // leaves 1,000, sells 3 to C at 990, rests 3 at 990
        applyAll();
        assertEquals(List.of("1:BUY 990=0, SELL 990=3, SELL 1000=0"), bookUpdates());
        assertLevels(0);

        delivered.clear();
        engine.amend(order, 0, 12);                            // a larger total (7 filled): to the back of its level
        applyAll();
        assertEquals(List.of("1:SELL 990=5"), bookUpdates(), "the order left and rejoined its level: one change");
        assertLevels(0);
    }

    @Test
    void anAmendedOrderThatEndsFilledExpiredOrRejectedLeavesNothingAtItsOldOrNewPrice() {
        final long filled = engine.limit("A", Side.SELL, 1_010, 2);
        final long postOnly = engine.place("A", 0, Side.SELL, TimeInForce.GTC, true, SelfTradePrevention.NONE,
                1_020, 2);
        final long stopped = engine.place("A", 0, Side.SELL, TimeInForce.GTC, false,
                SelfTradePrevention.EXPIRE_TAKER, 1_030, 2);
        engine.limit("B", Side.BUY, 1_000, 2);
        engine.limit("A", Side.BUY, 995, 1);
        applyAll();

        engine.amend(filled, 1_000, 0);                        // crosses B's 2 at 1,000: FILLED
        engine.amend(postOnly, 995, 0);                        // would cross: REJECTED
        engine.amend(stopped, 995, 0);                         // meets its own account's bid: EXPIRED
        applyEachInABatchOfItsOwn();
        assertLevels(0);
        assertEquals(List.of(995L), prices(Side.BUY));
        assertEquals(List.of(), prices(Side.SELL));
    }

    @Test
    void ordersCanceledBySelfTradePreventionOrACancelAllLeaveTheirLevels() {
        engine.limit("A", Side.SELL, 1_000, 3);
        engine.limit("A", Side.SELL, 1_001, 4);
        engine.place("A", 1, Side.SELL, TimeInForce.GTC, false, SelfTradePrevention.NONE, 1_000, 5);
        engine.limit("B", Side.SELL, 1_001, 1);
        applyAll();

        engine.place("A", 0, Side.BUY, TimeInForce.GTC, false, SelfTradePrevention.EXPIRE_MAKER, 1_001, 2);
        applyAll();                                            // cancels 3 at 1,000 and 4 at 1,001; buys B's 1
        assertLevels(0);
        assertEquals(List.of(1_001L), prices(Side.BUY), "its remainder rests");

        engine.cancelAll("A", -1, RejectReason.CANCEL_ALL);
        applyAll();
        for (int symbol = 0; symbol < 2; symbol++) {
            assertLevels(symbol);
        }
        assertEquals(List.of(), prices(Side.BUY));
        assertTrue(stage.view().currentBook(1).levelCount(Side.SELL) == 0, "the other instrument's order too");
    }

    private void apply(final int count, final boolean endBatchAfter) {
        for (int k = 0; k < count; k++) {
            final EngineEvent event = engine.events().get(applied);
            stage.onEvent(event, applied, endBatchAfter && k == count - 1);
            applied++;
        }
    }

    private void applyAll() {
        apply(engine.events().size() - applied, true);
    }

    private void applyEachInABatchOfItsOwn() {
        while (applied < engine.events().size()) {
            apply(1, true);
        }
    }

    /** @return the book updates of instrument 0 delivered so far, as "sequence:side price=quantity, ..." */
    private List<String> bookUpdates() {
        final List<String> updates = new ArrayList<>();
        long first = -1;
        for (final StreamUpdate update : delivered) {
            if (update instanceof BookUpdate book && book.symbol() == 0) {
                first = first < 0 ? book.sequence() : first;
                final List<String> changes = new ArrayList<>();
                for (int i = 0; i < book.size(); i++) {
                    changes.add(book.side(i) + " " + book.price(i) + "=" + book.quantity(i));
                }
                updates.add(book.sequence() - first + 1 + ":" + String.join(", ", changes));
            }
        }
        return updates;
    }

    private List<Long> prices(final Side side) {
        final BookSnapshot book = stage.view().currentBook(0);
        final List<Long> prices = new ArrayList<>();
        for (int i = 0; i < book.levelCount(side); i++) {
            prices.add(book.price(side, i));
        }
        return prices;
    }

    /** The published book of {@code symbol} is the engine's, level for level. */
    private void assertLevels(final int symbol) {
        final BookSnapshot book = stage.view().currentBook(symbol);
        for (final Side side : Side.values()) {
            final List<String> expected = new ArrayList<>();
            engine.matcher().forEachLevel(symbol, side, (price, total, count) -> expected.add(price + "x" + total));
            final List<String> published = new ArrayList<>();
            for (int i = 0; i < book.levelCount(side); i++) {
                published.add(book.price(side, i) + "x" + book.quantity(side, i));
            }
            assertEquals(expected, published, symbol + " " + side);
        }
    }
}
