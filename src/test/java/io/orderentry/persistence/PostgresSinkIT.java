package io.orderentry.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.orderentry.engine.EngineConfig;
import io.orderentry.engine.SelfTradePrevention;
import io.orderentry.engine.Side;
import io.orderentry.engine.TimeInForce;
import io.orderentry.instrument.Instrument;
import io.orderentry.pipeline.EngineEvent;
import io.orderentry.pipeline.EventType;
import io.orderentry.query.OrderState;
import io.orderentry.query.OrderStateView;
import io.orderentry.query.OrderViewStage;
import io.orderentry.testing.PostgresFixture;
import io.orderentry.testing.TestEngine;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The COPY sink and the batching rule against a real PostgreSQL. */
class PostgresSinkIT {

    @RegisterExtension
    static final PostgresFixture DB = new PostgresFixture();

    private static final long DELAY = TimeUnit.MILLISECONDS.toNanos(100);

    private HikariDataSource pool;
    private long now = 1_000_000_000L;

    @BeforeEach
    void migrateAndEmpty() throws Exception {
        final HikariConfig hikari = new HikariConfig();
        hikari.setJdbcUrl(DB.url());
        hikari.setUsername(DB.user());
        hikari.setPassword(DB.password());
        hikari.setMaximumPoolSize(3);
        pool = new HikariDataSource(hikari);
        final Properties login = new Properties();
        login.setProperty("user", DB.user());
        login.setProperty("password", DB.password());
        new DatabaseBootstrap(new JdbcUrl(DB.url()), login).run(pool);
        DB.execute("TRUNCATE order_event_batches, order_events_v4, trades, orders; UPDATE high_water_mark SET last_sequence = 0, written_by = NULL");
    }

    @AfterEach
    void closePool() {
        pool.close();
    }

    @Test
    void batchesOfExactly1000EventsCommitWithTheirHighWaterMarkAndAPartialOneWaitsForTheDelay() throws Exception {
        final PostgresSink sink = connectedSink();
        final Batcher batcher = new Batcher(new Events.ListSource(GeneratedEvents.generate(1, 2_500)), sink, 1_000,
                DELAY, () -> now);
        assertEquals(1_000, batcher.poll(false));
        assertStored(1_000);
        assertEquals(1_000, batcher.poll(false));
        assertStored(2_000);
        assertEquals(0, batcher.poll(false));
        now += DELAY - 1;
        assertEquals(0, batcher.poll(false));
        assertStored(2_000);
        now += 1;
        assertEquals(500, batcher.poll(false));
        assertStored(2_500);
        now += 10 * DELAY;
        assertEquals(0, batcher.poll(false), "an empty period writes nothing");
        assertStored(2_500);
        sink.disconnect();
    }

    @Test
    void ordersAndTradesEndInTheStateTheQueryViewShowsWhateverTheBatchBoundaries() throws Exception {
        final List<EngineEvent> events = GeneratedEvents.generate(2, 6_000);
        final PostgresSink sink = connectedSink();
        final Batcher batcher = new Batcher(new Events.ListSource(events), sink, 7, DELAY, () -> now);
        while (batcher.poll(false) > 0) {
            assertTrue(sink.persistedSequence() > 0);
        }
        assertEquals(events.size() / 7 * 7, sink.persistedSequence());
        assertEquals(events.size() % 7, batcher.poll(true));
        assertOrdersAsTheQueryViewShows(events);
        assertEquals(events.size(), DB.number("SELECT count(*) FROM order_events"));
        sink.disconnect();
    }

    @Test
    void amendedCanceledAllAndSelfTradeStoppedOrdersEndAsTheQueryViewShowsWhateverTheBatchBoundaries()
            throws Exception {
        for (final int batchSize : new int[] {7, 1_000}) {
            DB.execute("TRUNCATE order_event_batches, order_events_v4, trades, orders; UPDATE high_water_mark SET last_sequence = 0, written_by = NULL");
            final List<EngineEvent> events = GeneratedEvents.generateWithOperations(2, 6_000);
            final PostgresSink sink = connectedSink();
            final Batcher batcher = new Batcher(new Events.ListSource(events), sink, batchSize, DELAY, () -> now);
            while (batcher.poll(true) > 0) {
                assertTrue(sink.persistedSequence() > 0);
            }
            assertStored(events.size());
            assertOrdersAsTheQueryViewShows(events);
            assertEquals(events.stream().filter(e -> e.type == EventType.ORDER_AMENDED).count(),
                    DB.number("SELECT count(*) FROM order_events WHERE event_type = 'ORDER_AMENDED'"));
            assertTrue(DB.number("SELECT count(*) FROM orders WHERE self_trade_prevention <> 'NONE'") > 0);
            assertTrue(DB.number("SELECT count(*) FROM orders WHERE reject_reason = 'CANCEL_ALL_AFTER'") > 0);
            sink.disconnect();
        }
    }

    @Test
    void anAmendIsOneOrderAmendedRowWithItsPreviousTermsAndTheOrdersRowTakesTheNewOnes() throws Exception {
        final TestEngine engine = new TestEngine(1, EngineConfig.DEFAULTS);
        final long order = engine.place("A", 0, Side.SELL, TimeInForce.GTC, false, SelfTradePrevention.EXPIRE_TAKER,
                100_000, 10_000);                              // 1000.00 x 1.0000
        engine.limit("B", Side.BUY, 100_000, 4_000);           // fills 0.4000
        final int before = engine.sequenced().size();
        engine.amend(order, 0, 8_000);                         // a reduction in place: 0.8000 in all
        final PostgresSink sink = connectedSink();
        sink.write(batch(engine.sequenced(), 0, before), ClaimTurn.NONE);
        sink.write(batch(engine.sequenced(), before, engine.sequenced().size()), ClaimTurn.NONE);

        final List<List<String>> amended = DB.rows("SELECT order_id, price, quantity, filled_quantity,"
                + " remaining_quantity, status, reject_reason, previous_price, previous_quantity, kept_priority"
                + " FROM order_events WHERE event_type = 'ORDER_AMENDED'");
        assertEquals(List.of(List.of(Long.toString(order), "1000.00", "0.8000", "0.4000")),
                List.of(amended.get(0).subList(0, 4)));
        assertEquals(Arrays.asList(null, null, null, "1000.00", "1.0000", "t"), amended.get(0).subList(4, 10),
                "status and remainder come with the ORDER_UPDATED after it");
        assertEquals(0, DB.number("SELECT count(*) FROM order_events WHERE event_type <> 'ORDER_AMENDED' AND"
                + " (previous_price IS NOT NULL OR previous_quantity IS NOT NULL OR kept_priority IS NOT NULL)"));
        assertEquals(List.of(List.of("1000.00", "0.8000", "0.4000", "0.4000", "PARTIALLY_FILLED", "EXPIRE_TAKER")),
                DB.rows("SELECT price, quantity, filled_quantity, remaining_quantity, status, self_trade_prevention"
                        + " FROM orders WHERE order_id = " + order));
        assertOrdersAsTheQueryViewShows(engine.sequenced());
        sink.disconnect();
    }

    @Test
    void eventsAlreadyStoredAreNeverStoredTwice() throws Exception {
        final List<EngineEvent> events = GeneratedEvents.generate(3, 3_000);
        final PostgresSink first = connectedSink();
        final Batcher batcher = new Batcher(new Events.ListSource(events).availableUpTo(2_000), first, 1_000, DELAY,
                () -> now);
        batcher.poll(false);
        batcher.poll(false);
        first.disconnect();

        final PostgresSink restarted = connectedSink();
        assertEquals(2_000, restarted.persistedSequence(), "a new writer starts from the stored mark");
        final Batcher replay = new Batcher(new Events.ListSource(events), restarted, 1_000, DELAY, () -> now);
        assertEquals(1_000, replay.poll(false), "events up to the mark are skipped, the rest is written");
        assertStored(3_000);

        final EventBatch overlapping = new EventBatch(10);
        for (int i = 2_990; i < 3_000; i++) {
            Events.copy(events.get(i), overlapping.slot());
            overlapping.commitSlot();
        }
        // The mark, not a key on order_events (V2 dropped that btree for a BRIN index), refuses the overlap: the
        // whole batch rolls back and every event stays stored exactly once.
        assertThrows(IllegalStateException.class, () -> restarted.write(overlapping, ClaimTurn.NONE));
        assertStored(3_000);
        restarted.disconnect();
    }

    @Test
    void aSecondWriterOnTheSameDatabaseIsRefused() throws Exception {
        final List<EngineEvent> events = GeneratedEvents.generate(4, 2_000);
        final PostgresSink one = connectedSink();
        final PostgresSink two = connectedSink();
        new Batcher(new Events.ListSource(events), one, 1_000, DELAY, () -> now).poll(false);
        final Batcher stale = new Batcher(new Events.ListSource(events), two, 1_000, DELAY, () -> now);
        final IllegalStateException refused = assertThrows(IllegalStateException.class, () -> stale.poll(false));
        assertTrue(refused.getMessage().contains("another writer"), refused.getMessage());
        assertStored(1_000);
        one.disconnect();
        two.disconnect();
    }

    @Test
    void inClusterModeAWriterWhoseEventsAnotherMemberStoredFirstGoesOnAfterTheMarkAndStoresEachEventOnce()
            throws Exception {
        final List<EngineEvent> events = GeneratedEvents.generate(5, 3_000);
        final PostgresSink oldLeader = new PostgresSink(pool, GeneratedEvents.INSTRUMENTS,
                new java.util.concurrent.atomic.AtomicLong(-1), true);
        final PostgresSink newLeader = new PostgresSink(pool, GeneratedEvents.INSTRUMENTS,
                new java.util.concurrent.atomic.AtomicLong(-1), true);
        oldLeader.connect();
        newLeader.connect();
        oldLeader.write(batch(events, 0, 1_000), ClaimTurn.NONE);   // the old leader's last batch
        // the new leader read the mark before it: the same events (every member derives them from the same log),
        // in other batch boundaries; the keys or the mark refuse them, and it is told to go on after the mark
        final SQLException moved = assertThrows(SQLException.class,
                () -> newLeader.write(batch(events, 0, 1_500), ClaimTurn.NONE));
        assertEquals(PostgresSink.MARK_MOVED, moved.getSQLState(), moved.getMessage());
        assertStored(1_000);
        newLeader.refresh();
        assertEquals(1_000, newLeader.persistedSequence());
        newLeader.write(batch(events, 1_000, 3_000), ClaimTurn.NONE);
        assertStored(3_000);
        assertOrdersAsTheQueryViewShows(events);
        // and the old leader, back with its stale mark, is told the same instead of failing for good
        final SQLException stale = assertThrows(SQLException.class,
                () -> oldLeader.write(batch(events, 1_000, 2_000), ClaimTurn.NONE));
        assertEquals(PostgresSink.MARK_MOVED, stale.getSQLState(), stale.getMessage());
        assertStored(3_000);
        oldLeader.disconnect();
        newLeader.disconnect();
    }

    @Test
    void aClusterRefusesADatabaseASingleNodeWroteAndASingleNodeRefusesAClustersDatabase() throws Exception {
        final List<EngineEvent> events = GeneratedEvents.generate(8, 1_000);
        final PostgresSink single = connectedSink();
        single.write(batch(events, 0, 1_000), ClaimTurn.NONE);
        single.disconnect();
        assertEquals("journal", DB.rows("SELECT written_by FROM high_water_mark").get(0).get(0));
        final PostgresSink member = new PostgresSink(pool, GeneratedEvents.INSTRUMENTS,
                new java.util.concurrent.atomic.AtomicLong(-1), true);
        final IllegalStateException refused = assertThrows(IllegalStateException.class, member::connect);
        assertTrue(refused.getMessage().contains("written by a single node"), refused.getMessage());
        // a database of before V4 (no writer named) that holds events is a single node's too
        DB.execute("UPDATE high_water_mark SET written_by = NULL");
        assertThrows(IllegalStateException.class, member::connect);

        DB.execute("TRUNCATE order_event_batches, order_events_v4, trades, orders; UPDATE high_water_mark SET last_sequence = 0,"
                + " written_by = NULL");
        member.connect();   // a fresh database: the cluster takes it
        member.write(batch(events, 0, 1_000), ClaimTurn.NONE);
        member.disconnect();
        assertEquals("cluster", DB.rows("SELECT written_by FROM high_water_mark").get(0).get(0));
        final IllegalStateException clusters = assertThrows(IllegalStateException.class, this::connectedSink);
        assertTrue(clusters.getMessage().contains("written by a cluster"), clusters.getMessage());
        assertStored(1_000);
    }

    @Test
    void aBatchWhoseCommitLandedAfterTheWriterGaveUpIsNotWrittenAgainNorTakenForAnotherWriter() throws Exception {
        final List<EngineEvent> events = GeneratedEvents.generate(6, 2_000);
        final java.util.concurrent.atomic.AtomicLong uncertain = new java.util.concurrent.atomic.AtomicLong(-1);
        final PostgresSink retrying = new PostgresSink(pool, GeneratedEvents.INSTRUMENTS, uncertain, false);
        retrying.connect();   // reads the mark before the late commit: 0
        // the earlier attempt: its COMMIT reached the server, its answer did not (a socket timeout)
        final PostgresSink earlier = new PostgresSink(pool, GeneratedEvents.INSTRUMENTS, uncertain, false);
        earlier.connect();
        earlier.write(batch(events, 0, 1_000), ClaimTurn.NONE);
        earlier.disconnect();
        uncertain.set(1_000);   // as write() records an attempt that failed after its claim

        retrying.write(batch(events, 0, 1_000), ClaimTurn.NONE);
        assertStored(1_000);
        assertEquals(1_000, retrying.persistedSequence());
        retrying.write(batch(events, 1_000, 2_000), ClaimTurn.NONE);
        assertStored(2_000);
        assertOrdersAsTheQueryViewShows(events);
        retrying.disconnect();
    }

    @Test
    void aStatementWaitingOnAHeldLockIsCancelledByTheServerAndTheBatchIsWrittenOnceTheLockIsGone() throws Exception {
        final List<EngineEvent> events = GeneratedEvents.generate(7, 1_000);
        final HikariConfig hikari = new HikariConfig();
        hikari.setJdbcUrl(DB.url());
        hikari.setUsername(DB.user());
        hikari.setPassword(DB.password());
        hikari.addDataSourceProperty("options", "-c statement_timeout=1000");   // as PersistenceService sets it
        try (HikariDataSource timed = new HikariDataSource(hikari);
             java.sql.Connection holder = java.sql.DriverManager.getConnection(DB.url(), DB.user(), DB.password())) {
            holder.setAutoCommit(false);
            holder.createStatement().execute("LOCK TABLE high_water_mark IN ACCESS EXCLUSIVE MODE");
            final PostgresSink sink = new PostgresSink(timed, GeneratedEvents.INSTRUMENTS);
            final java.sql.SQLException cancelled = assertThrows(java.sql.SQLException.class, sink::connect);
            assertEquals("57014", cancelled.getSQLState(), "query_canceled by statement_timeout: " + cancelled);
            holder.rollback();
            sink.connect();
            sink.write(batch(events, 0, 1_000), ClaimTurn.NONE);
            assertStored(1_000);
            sink.disconnect();
        }
        assertEquals(0, DB.number("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"),
                "no backend is left waiting");
    }

    @Test
    void aLaterBatchStartedFirstOnAnotherConnectionWaitsForTheEarlierOneAndCommitsAfterIt() throws Exception {
        final List<EngineEvent> events = GeneratedEvents.generate(5, 2_000);
        final PostgresSink earlier = connectedSink();
        final PostgresSink later = connectedSink();
        final ClaimTurn turn = new ClaimTurn();
        turn.reset(0);
        final AtomicReference<Throwable> laterFailure = new AtomicReference<>();
        final Thread laterThread = writeOnItsOwnThread(later, batch(events, 1_000, 2_000), turn, laterFailure);
        awaitState(laterThread, Thread.State.WAITING);
        assertStored(0);

        earlier.write(batch(events, 0, 1_000), turn);
        laterThread.join(TimeUnit.MINUTES.toMillis(1));
        assertEquals(null, laterFailure.get(), "the later batch commits once the earlier one has");
        assertStored(2_000);
        assertEquals(ordersIn(events), DB.number("SELECT count(*) FROM orders"));
        earlier.disconnect();
        later.disconnect();
    }

    @Test
    void aLaterBatchStoresNothingWhenTheEarlierTransactionRollsBackAfterClaiming() throws Exception {
        final List<EngineEvent> events = GeneratedEvents.generate(6, 2_000);
        final PostgresSink later = connectedSink();
        final ClaimTurn turn = new ClaimTurn();
        try (Connection earlier = pool.getConnection()) {
            earlier.setAutoCommit(false);
            try (Statement claim = earlier.createStatement()) {
                assertEquals(1, claim.executeUpdate("UPDATE high_water_mark SET last_sequence = 1000 WHERE id = 1"
                        + " AND last_sequence = 0"));
            }
            turn.reset(1_000);
            final AtomicReference<Throwable> laterFailure = new AtomicReference<>();
            final Thread laterThread = writeOnItsOwnThread(later, batch(events, 1_000, 2_000), turn, laterFailure);
            final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
            while (DB.number("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'") == 0) {
                assertTrue(System.nanoTime() < deadline, "the later claim never waited for the earlier transaction");
                Thread.sleep(10);
            }
            earlier.rollback();
            laterThread.join(TimeUnit.MINUTES.toMillis(1));
            final SQLException failure = assertInstanceOf(SQLException.class, laterFailure.get());
            assertEquals(PostgresSink.PREDECESSOR_FAILED, failure.getSQLState(), failure.getMessage());
        }
        assertStored(0);
        assertEquals(0, DB.number("SELECT count(*) FROM orders"));
        later.disconnect();
    }

    @Test
    void batchesOnTwoLanesLeaveTheSameDatabaseAsOneWriter() throws Exception {
        final List<EngineEvent> events = GeneratedEvents.generate(7, 20_000);
        final Lanes lanes = twoConnectedLanes();
        final Batcher batcher = new Batcher(new Events.ListSource(events), lanes, 333, DELAY, () -> now);
        final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (lanes.persistedSequence() < events.size()) {
            assertTrue(System.nanoTime() < deadline, "two lanes did not store 20,000 events within two minutes");
            batcher.poll(true);
            Thread.sleep(1);
        }
        lanes.close();
        assertStored(events.size());
        assertOrdersAsTheQueryViewShows(events);
    }

    @Test
    void batchesOnTwoLanesLeaveTheSameDatabaseAsOneWriterThroughOrderOperations() throws Exception {
        final List<EngineEvent> events = GeneratedEvents.generateWithOperations(9, 20_000);
        final Lanes lanes = twoConnectedLanes();
        final Batcher batcher = new Batcher(new Events.ListSource(events), lanes, 333, DELAY, () -> now);
        final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (lanes.persistedSequence() < events.size()) {
            assertTrue(System.nanoTime() < deadline, "two lanes did not store 20,000 events within two minutes");
            batcher.poll(true);
            Thread.sleep(1);
        }
        lanes.close();
        assertStored(events.size());
        assertOrdersAsTheQueryViewShows(events);
    }

    @Test
    void aLaneWhoseConnectionDiesMidLoadLosesNothingAndWritesNothingTwice() throws Exception {
        final List<EngineEvent> events = GeneratedEvents.generate(8, 30_000);
        final Lanes lanes = twoConnectedLanes();
        final Batcher batcher = new Batcher(new Events.ListSource(events), lanes, 250, DELAY, () -> now);
        final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        int failures = 0;
        long killedAt = -1;
        while (lanes.persistedSequence() < events.size()) {
            assertTrue(System.nanoTime() < deadline, "the lanes did not recover and store 30,000 events in two minutes");
            if (killedAt < 0 && lanes.persistedSequence() >= 10_000) {
                killedAt = lanes.persistedSequence();
                assertEquals(1, DB.number("SELECT count(pg_terminate_backend(pid)) FROM (SELECT pid FROM"
                        + " pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
                        + " AND backend_type = 'client backend' ORDER BY backend_start LIMIT 1) lane"));
            }
            try {
                batcher.poll(true);
            } catch (final SQLException lost) {
                failures++;
                lanes.disconnect();
                reconnect(lanes);
            }
            Thread.sleep(1);
        }
        lanes.close();
        assertTrue(killedAt > 0 && failures > 0, "the terminated connection was noticed (" + failures + " failures)");
        assertStored(events.size());
        assertOrdersAsTheQueryViewShows(events);
    }

    /** Connects every lane, retrying while the pool still hands out a connection the server has closed. */
    private static void reconnect(final Lanes lanes) throws Exception {
        for (int attempt = 1; ; attempt++) {
            try {
                lanes.connect();
                return;
            } catch (final SQLException e) {
                if (attempt == 10) {
                    throw e;
                }
                Thread.sleep(50);
            }
        }
    }

    private Lanes twoConnectedLanes() throws SQLException {
        final Lanes lanes = Lanes.threaded(List.of(new PostgresSink(pool, GeneratedEvents.INSTRUMENTS),
                new PostgresSink(pool, GeneratedEvents.INSTRUMENTS)), "test-lane", () -> { }, System::nanoTime);
        lanes.connect();
        return lanes;
    }

    /** Starts writing {@code batch} on a thread of its own; what it throws, if anything, lands in {@code failure}. */
    private static Thread writeOnItsOwnThread(final PostgresSink sink, final EventBatch batch, final ClaimTurn turn,
                                              final AtomicReference<Throwable> failure) {
        final Thread thread = new Thread(() -> {
            try {
                sink.write(batch, turn);
            } catch (final Throwable e) {
                failure.set(e);
            }
        }, "later-batch");
        thread.start();
        return thread;
    }

    private static EventBatch batch(final List<EngineEvent> events, final int from, final int to) {
        final EventBatch batch = new EventBatch(to - from);
        for (int i = from; i < to; i++) {
            Events.copy(events.get(i), batch.slot());
            batch.commitSlot();
        }
        return batch;
    }

    private static long ordersIn(final List<EngineEvent> events) {
        return events.stream().filter(e -> e.type == EventType.ORDER_ACCEPTED).count();
    }

    private static void awaitState(final Thread thread, final Thread.State state) {
        final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (thread.getState() != state) {
            assertTrue(thread.isAlive() && System.nanoTime() < deadline, thread.getName() + " never reached " + state);
            Thread.onSpinWait();
        }
    }

    private static void assertOrdersAsTheQueryViewShows(final List<EngineEvent> events) throws SQLException {
        final OrderStateView view = new OrderStateView(1_000_000);
        long trades = 0;
        for (final EngineEvent event : events) {
            new OrderViewStage(view).onEvent(event, 0, false);
            trades += event.type == EventType.TRADE ? 1 : 0;
        }
        final List<List<String>> rows = DB.rows("SELECT order_id, symbol, status, price, quantity, filled_quantity,"
                + " remaining_quantity, reject_reason, last_sequence, client_order_id, self_trade_prevention,"
                + " (extract(epoch FROM updated_at) * 1000000)::bigint FROM orders ORDER BY order_id");
        assertEquals(view.size(), rows.size());
        for (final List<String> row : rows) {
            final OrderState order = view.get(Long.parseLong(row.get(0)));
            final Instrument instrument = GeneratedEvents.INSTRUMENTS.get(order.symbol());
            final String at = "order " + order.orderId();
            assertEquals(instrument.symbol(), row.get(1), at);
            assertEquals(order.status().name(), row.get(2), at);
            assertEquals(order.price() == 0 ? null : instrument.price(order.price()).toPlainString(), row.get(3), at);
            assertEquals(instrument.quantity(order.quantity()).toPlainString(), row.get(4), at);
            assertEquals(instrument.quantity(order.filledQuantity()).toPlainString(), row.get(5), at);
            assertEquals(instrument.quantity(order.remainingQuantity()).toPlainString(), row.get(6), at);
            assertEquals(order.rejectReason().name().equals("NONE") ? null : order.rejectReason().name(), row.get(7), at);
            assertEquals(Long.toString(order.sequence()), row.get(8), at);
            assertEquals(order.clientOrderId(), row.get(9), at);
            assertEquals(order.selfTradePrevention().name(), row.get(10), at);
            assertEquals(Long.toString(order.updatedAtMicros()), row.get(11), at);
        }
        assertEquals(trades, DB.number("SELECT count(*) FROM trades"));
    }

    private PostgresSink connectedSink() throws SQLException {
        final PostgresSink sink = new PostgresSink(pool, GeneratedEvents.INSTRUMENTS);
        sink.connect();
        return sink;
    }

    private static void assertStored(final long last) throws SQLException {
        assertEquals(last, DB.number("SELECT last_sequence FROM high_water_mark"), "high-water mark");
        assertEquals(last, DB.number("SELECT count(*) FROM order_events"), "event rows");
        assertEquals(last, DB.number("SELECT coalesce(max(sequence), 0) FROM order_events"), "last event row");
    }
}
