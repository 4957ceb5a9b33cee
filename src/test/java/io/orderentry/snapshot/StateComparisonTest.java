package io.orderentry.snapshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.orderentry.engine.MarketBandRule;
import io.orderentry.engine.EngineConfig;
import io.orderentry.engine.OrderType;
import io.orderentry.engine.SelfTradePrevention;
import io.orderentry.engine.Side;
import io.orderentry.engine.TimeInForce;
import io.orderentry.journal.JournalPosition;
import io.orderentry.marketdata.MarketDataConfig;
import io.orderentry.pipeline.CommandType;
import io.orderentry.pipeline.OrderCommand;
import io.orderentry.testing.RandomOperations;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@link StateComparison} (the comparison {@code verify-snapshot} prints) sees of the order operations: nothing
 * between a state and one restored from its snapshot that followed the same amends, cancel-alls, self-trades and
 * bands, and the difference when a band or an order's self-trade prevention is not the same.
 */
class StateComparisonTest {

    private static final List<String> SYMBOLS = List.of("BTCUSD", "ETHUSD");
    private static final EngineConfig LIMITS = new EngineConfig(5_000, 400, 200, 2_000);
    private static final MarketDataConfig MARKET_DATA = new MarketDataConfig(50, 100, 10, 10, 100, 65_536, 1_000,
            1_000, 1 << 20, 1 << 24, 50, 20);

    @TempDir
    Path dir;

    private long sequence;

    @Test
    void shouldFindNoDifferenceAfterASnapshotThroughAmendsCancelAllsSelfTradesAndBands() throws IOException {
        final Random random = new Random(5);
        final Replica live = replica();
        final OrderCommand command = new OrderCommand();
        Replica restored = null;
        final SnapshotStore store = new SnapshotStore(dir, 3);
        for (int n = 1; n <= 12_000; n++) {
            command.sequence = ++sequence;
            command.timestampMicros = 1_800_000_000_000_000L + sequence * 1_000_000L;
            RandomOperations.fill(random, command, SYMBOLS.size(), live.state().matcher().lastOrderId());
            live.onRecord(command);
            live.endOfBatch();
            if (restored != null) {
                restored.onRecord(command);
                restored.endOfBatch();
            }
            if (n == 5_000) {
                final Path file = store.write(new SnapshotHeader(new JournalPosition(1, 16, sequence, sequence),
                        live.state().matcher().lastEventSequence(), -1, 0, SYMBOLS, Map.of()), live.state());
                restored = replica();
                store.read(file, restored.state());
                assertEquals(null, StateComparison.firstDifference(live.state(), restored.state(), SYMBOLS));
            }
        }
        assertEquals(null, StateComparison.firstDifference(live.state(), restored.state(), SYMBOLS));
        assertTrue(live.state().matcher().lastTradeId() > 500, "the commands traded");
    }

    @Test
    void shouldTellAPriceBandOnlyOneStateWasGiven() throws IOException {
        final Replica replayed = replica();
        final Replica loaded = replica();
        for (final Replica replica : new Replica[] {replayed, loaded}) {
            sequence = 0;
            place(replica, "a", SelfTradePrevention.NONE);
        }
        final OrderCommand band = next(CommandType.SET_PRICE_BAND);
        band.symbol = 1;
        band.priceBandBasisPoints = 250;
        band.priceBandRule = MarketBandRule.CURRENT;
        loaded.onRecord(band);
        final String difference = StateComparison.firstDifference(replayed.state(), loaded.state(), SYMBOLS);
        assertNotNull(difference);
        assertTrue(difference.contains("ETHUSD price band"), difference);
    }

    @Test
    void shouldTellAnOrderWhoseSelfTradePreventionIsNotTheSame() throws IOException {
        final Replica replayed = replica();
        final Replica loaded = replica();
        sequence = 0;
        place(replayed, "a", SelfTradePrevention.NONE);
        sequence = 0;
        place(loaded, "a", SelfTradePrevention.EXPIRE_MAKER);
        final String difference = StateComparison.firstDifference(replayed.state(), loaded.state(), SYMBOLS);
        assertNotNull(difference, "the same resting order but for its self-trade prevention");
        assertTrue(difference.contains("self-trade prevention"), difference);
    }

    private static Replica replica() {
        return new Replica(SYMBOLS.size(), LIMITS, 1_000, MARKET_DATA);
    }

    /** Rests a BUY of instrument 0 at 1,000 ticks. */
    private void place(final Replica replica, final String account, final SelfTradePrevention stp) {
        final OrderCommand c = next(CommandType.PLACE);
        c.accountId = account;
        c.symbol = 0;
        c.side = Side.BUY;
        c.orderType = OrderType.LIMIT;
        c.timeInForce = TimeInForce.GTC;
        c.selfTradePrevention = stp;
        c.price = 1_000;
        c.quantity = 5;
        replica.onRecord(c);
        replica.endOfBatch();
    }

    private OrderCommand next(final CommandType type) {
        final OrderCommand c = new OrderCommand();
        c.reset();
        c.type = type;
        c.sequence = ++sequence;
        c.timestampMicros = 1_800_000_000_000_000L + sequence;
        return c;
    }
}
