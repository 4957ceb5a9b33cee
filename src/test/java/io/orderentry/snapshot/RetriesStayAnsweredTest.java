package io.orderentry.snapshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.orderentry.engine.EngineConfig;
import io.orderentry.marketdata.MarketDataConfig;
import io.orderentry.pipeline.OrderCommand;
import io.orderentry.testing.RandomCommands;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A retry the engine's dedup window still recognises is answered with the order (API.md promises 200), so the
 * order view must still hold it, even when more final orders without a clientOrderId came after it than the view
 * retains (issue 13, item 4). Driven through the engine and the view as the service wires them (a {@link Replica}).
 */
class RetriesStayAnsweredTest {

    private static final EngineConfig LIMITS = new EngineConfig(5_000, 400, 200, 50);
    private static final int RETAINED = 50;
    private static final MarketDataConfig MARKET_DATA = new MarketDataConfig(50, 100, 10, 10, 100, 65_536, 1_000,
            1_000, 1 << 20, 1 << 24, 50, 20);

    @TempDir
    Path dir;

    @Test
    void aFinalOrderWhoseClientOrderIdTheEngineRemembersOutlivesTheRetainedCount() {
        final Replica replica = new Replica(2, LIMITS, RETAINED, MARKET_DATA);
        final OrderCommand c = new OrderCommand();
        long sequence = 0;
        // one IOC order with a clientOrderId against an empty book: final at once (expired)
        sequence = place(replica, c, sequence, "kept-1");
        final long kept = replica.state().matcher().rememberedOrderIds()[0];
        // then 10 x RETAINED final orders without one
        for (int i = 0; i < 10 * RETAINED; i++) {
            sequence = place(replica, c, sequence, null);
        }
        assertNotNull(replica.state().view().get(kept), "the engine still remembers it, so a retry names it");
        // once RETAINED orders with a clientOrderId came after it, the engine forgets it and so may the view
        for (int i = 0; i < LIMITS.dedupWindow(); i++) {
            sequence = place(replica, c, sequence, "later-" + i);
        }
        for (int i = 0; i < 2 * RETAINED; i++) {
            sequence = place(replica, c, sequence, null);
        }
        assertNull(replica.state().view().get(kept), "forgotten by both, as retention says");
    }

    @Test
    void underRandomCommandsEveryOrderTheDedupWindowNamesIsInTheViewAlsoAfterARestoredSnapshot() throws IOException {
        final Random random = new Random(13);
        final Replica replica = new Replica(2, LIMITS, RETAINED, MARKET_DATA);
        final OrderCommand c = new OrderCommand();
        long lastOrderId = 0;
        Replica restored = null;
        final SnapshotStore store = new SnapshotStore(dir, 3);
        for (long s = 1; s <= 20_000; s++) {
            c.sequence = s;
            c.timestampMicros = s;
            RandomCommands.fill(random, c, 2, lastOrderId);
            if (c.accountId != null && random.nextInt(100) < 30) {
                c.clientOrderId = "c" + random.nextInt(200);   // some repeat: retries and reuses of an id
            }
            replica.onRecord(c);
            replica.endOfBatch();
            if (restored != null) {
                restored.onRecord(c);
                restored.endOfBatch();
            }
            lastOrderId = replica.state().matcher().lastOrderId();
            if (s == 7_000) {
                final Path file = store.write(new SnapshotHeader(new io.orderentry.journal.JournalPosition(1, 16, s, s),
                        replica.state().matcher().lastEventSequence(), -1, 0, java.util.List.of("BTCUSD", "ETHUSD"),
                        Map.of()), replica.state());
                restored = new Replica(2, LIMITS, RETAINED, MARKET_DATA);
                store.read(file, restored.state());
            }
            if (s % 97 == 0) {
                for (final Replica r : restored == null ? new Replica[] {replica} : new Replica[] {replica, restored}) {
                    for (final long id : r.state().matcher().rememberedOrderIds()) {
                        assertNotNull(r.state().view().get(id), "command " + s + ": order " + id
                                + " is in the dedup window but not in the view");
                    }
                }
            }
        }
        assertTrue(replica.state().view().size() > RETAINED, "retries kept more than the retained count at times");
        assertEquals(null, StateComparison.firstDifference(replica.state(), restored.state(),
                java.util.List.of("BTCUSD", "ETHUSD")), "the restored view keeps and forgets as the live one");
    }

    private static long place(final Replica replica, final OrderCommand c, final long sequence, final String cid) {
        c.reset();
        c.sequence = sequence + 1;
        c.timestampMicros = sequence + 1;
        c.type = io.orderentry.pipeline.CommandType.PLACE;
        c.accountId = "acct-1";
        c.clientOrderId = cid;
        c.symbol = 0;
        c.side = io.orderentry.engine.Side.BUY;
        c.orderType = io.orderentry.engine.OrderType.LIMIT;
        c.timeInForce = io.orderentry.engine.TimeInForce.IOC;
        c.price = 100;
        c.quantity = 1;
        replica.onRecord(c);
        replica.endOfBatch();
        return sequence + 1;
    }
}
