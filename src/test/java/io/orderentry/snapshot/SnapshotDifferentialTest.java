package io.orderentry.snapshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.orderentry.engine.EngineConfig;
import io.orderentry.engine.Matcher;
import io.orderentry.engine.Side;
import io.orderentry.journal.JournalConfig;
import io.orderentry.journal.JournalPosition;
import io.orderentry.journal.JournalReader;
import io.orderentry.journal.JournalSync;
import io.orderentry.journal.JournalTail;
import io.orderentry.journal.JournalWriter;
import io.orderentry.marketdata.BookSnapshot;
import io.orderentry.marketdata.MarketDataConfig;
import io.orderentry.marketdata.MarketDataView;
import io.orderentry.pipeline.CommandType;
import io.orderentry.pipeline.OrderCommand;
import io.orderentry.query.OrderStateView;
import io.orderentry.testing.RandomCommands;
import io.orderentry.testing.RandomOperations;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Random commands go into a journal; a snapshot is taken at random points, and a state restored from each and fed
 * the journal after it must equal a state that followed the whole journal without stopping, then and after every
 * later command (the engine's books and ids, every order as the order view answers it, and the market data).
 */
class SnapshotDifferentialTest {

    private static final List<String> SYMBOLS = List.of("BTCUSD", "ETHUSD");
    private static final Map<String, Integer> INDEX = Map.of("BTCUSD", 0, "ETHUSD", 1);
    private static final EngineConfig LIMITS = new EngineConfig(5_000, 400, 200, 2_000);
    private static final int RETAINED = 2_000;
    private static final MarketDataConfig MARKET_DATA = new MarketDataConfig(50, 100, 10, 10, 100, 65_536, 1_000,
            1_000, 1 << 20, 1 << 24, 50, 20);

    @TempDir
    Path dir;

    @Test
    void stateRestoredFromASnapshotAtAnyPointFollowsTheJournalLikeOneThatNeverStopped() throws IOException {
        assertRestoredStatesFollowTheJournal(RandomCommands::fill, 21);
    }

    @Test
    void stateRestoredFromASnapshotFollowsAJournalOfAmendsCancelAllsSelfTradesAndBandsLikeOneThatNeverStopped()
            throws IOException {
        assertRestoredStatesFollowTheJournal(RandomOperations::fill, 22);
    }

    /** How a test fills its next command (RandomCommands::fill or RandomOperations::fill). */
    private interface CommandSource {
        void fill(Random random, OrderCommand command, int symbols, long lastOrderId);
    }

    private void assertRestoredStatesFollowTheJournal(final CommandSource commands, final long seed)
            throws IOException {
        final Path journal = dir.resolve("journal");
        final Random random = new Random(seed);
        final JournalWriter writer = JournalWriter.open(new JournalConfig(journal, JournalSync.NONE, 64 * 1024, 8192),
                SYMBOLS.toArray(String[]::new), JournalReader.recover(journal, INDEX, c -> { }));
        final long first = 6_000;
        append(writer, commands, random, 1, first);

        final Replica reference = replica();
        final JournalTail referenceTail = new JournalTail(journal, INDEX, JournalPosition.START);
        final SnapshotStore store = new SnapshotStore(dir.resolve("snapshots"), 100);
        final List<Long> cuts = new ArrayList<>(List.of(0L, 1L, first));
        for (int i = 0; i < 5; i++) {
            cuts.add(1 + (long) random.nextInt((int) first - 1));
        }
        final List<Path> snapshots = new ArrayList<>();
        for (final long cut : cuts.stream().sorted().distinct().toList()) {
            referenceTail.readUntil(cut, reference);
            reference.endOfBatch();
            final Matcher matcher = reference.state().matcher();
            snapshots.add(store.write(new SnapshotHeader(referenceTail.position(), matcher.lastEventSequence(), -1, 0,
                    SYMBOLS, Map.of()), reference.state()));
        }
        final List<Replica> restored = new ArrayList<>();
        final List<JournalTail> tails = new ArrayList<>();
        for (final Path file : snapshots) {
            final Replica replica = replica();
            final SnapshotHeader header = store.read(file, replica.state());
            restored.add(replica);
            tails.add(new JournalTail(journal, INDEX, header.position()));
        }
        long end = first;
        for (int round = 0; round < 4; round++) {
            for (int i = 0; i < restored.size(); i++) {
                tails.get(i).readUntil(end, restored.get(i));
                restored.get(i).endOfBatch();
                assertSameState(reference, restored.get(i), "restored from " + snapshots.get(i).getFileName()
                        + ", at journal sequence " + end);
            }
            append(writer, commands, random, end + 1, end + 1_500);
            end += 1_500;
            referenceTail.readUntil(end, reference);
            reference.endOfBatch();
        }
        writer.close();
        for (int i = 0; i < restored.size(); i++) {
            tails.get(i).readUntil(end, restored.get(i));
            restored.get(i).endOfBatch();
            // what verify-snapshot compares: the engines' bands, last trade prices and queues too
            assertEquals(null, StateComparison.firstDifference(reference.state(), restored.get(i).state(), SYMBOLS),
                    "restored from " + snapshots.get(i).getFileName() + ", at the end");
        }
        assertTrue(reference.state().matcher().lastTradeId() > 1_000, "the commands traded");
        assertTrue(reference.state().matcher().restingOrderCount() > 100, "orders rest");
    }

    private static Replica replica() {
        return new Replica(SYMBOLS.size(), LIMITS, RETAINED, MARKET_DATA);
    }

    private static void assertSameState(final Replica expected, final Replica actual, final String what) {
        final Matcher e = expected.state().matcher();
        final Matcher a = actual.state().matcher();
        assertEquals(List.of(e.lastOrderId(), e.lastTradeId(), e.lastEventSequence(), (long) e.restingOrderCount()),
                List.of(a.lastOrderId(), a.lastTradeId(), a.lastEventSequence(), (long) a.restingOrderCount()), what);
        final OrderStateView ev = expected.state().view();
        final OrderStateView av = actual.state().view();
        assertEquals(ev.size(), av.size(), what + ": orders held by the view");
        assertEquals(ev.lastEventSequence(), av.lastEventSequence(), what);
        for (long id = 1; id <= e.lastOrderId(); id++) {
            assertEquals(ev.get(id), av.get(id), what + ": order " + id);
        }
        for (int account = 0; account < 20; account++) {
            assertEquals(ev.openOrders("acct-" + account, 0, 1_000), av.openOrders("acct-" + account, 0, 1_000),
                    what + ": open orders of acct-" + account);
        }
        final MarketDataView em = expected.state().marketData().view();
        final MarketDataView am = actual.state().marketData().view();
        for (int symbol = 0; symbol < SYMBOLS.size(); symbol++) {
            final BookSnapshot eb = em.currentBook(symbol);
            final BookSnapshot ab = am.currentBook(symbol);
            for (final Side side : Side.values()) {
                assertEquals(eb.levelCount(side), ab.levelCount(side), what + ": levels " + side);
                for (int level = 0; level < eb.levelCount(side); level++) {
                    assertEquals(eb.price(side, level), ab.price(side, level), what);
                    assertEquals(eb.quantity(side, level), ab.quantity(side, level), what);
                }
            }
            assertEquals(em.trades(symbol).recent(100), am.trades(symbol).recent(100), what + ": trades");
            assertEquals(em.ticker(symbol).bestBid(), am.ticker(symbol).bestBid(), what + ": ticker");
            assertEquals(em.ticker(symbol).bestAsk(), am.ticker(symbol).bestAsk(), what + ": ticker");
        }
    }

    /** Journals commands {@code from..to} ({@code commands}, a third of the orders with a clientOrderId). */
    private static void append(final JournalWriter writer, final CommandSource commands, final Random random,
                               final long from, final long to) {
        final OrderCommand c = new OrderCommand();
        for (long sequence = from; sequence <= to; sequence++) {
            c.sequence = sequence;
            c.timestampMicros = 1_800_000_000_000_000L + sequence * 2_000_000L;
            commands.fill(random, c, SYMBOLS.size(), sequence - 1);
            if (c.type == CommandType.PLACE && random.nextInt(3) == 0) {
                c.clientOrderId = "c-" + random.nextInt(3_000);   // retries: DUPLICATE and DUPLICATE_MISMATCH
            }
            if (!writer.append(c)) {
                throw new IllegalStateException("append failed", writer.failure());
            }
        }
        if (!writer.flush()) {
            throw new IllegalStateException("flush failed", writer.failure());
        }
    }
}
