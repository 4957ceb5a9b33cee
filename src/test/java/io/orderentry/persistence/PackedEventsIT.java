package io.orderentry.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.orderentry.pipeline.EngineEvent;
import io.orderentry.testing.PostgresFixture;
import java.sql.SQLException;
import java.util.List;
import java.util.Properties;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * V5 stores each batch's events as one row of arrays ({@code order_event_batches}) behind the {@code order_events}
 * view. The reference for what the view must show is the layout before V5, one row per event, which
 * {@link InsertSink} still writes into {@code order_events_v4}: the same events, written both ways, must read back
 * the same, column for column, whatever the batch boundaries, and a database with rows from before V5 keeps them and
 * continues after them.
 */
class PackedEventsIT {

    @RegisterExtension
    static final PostgresFixture DB = new PostgresFixture();

    private static final String ALL_EVENTS = "SELECT * FROM order_events ORDER BY sequence";
    private static final String ORDERS = "SELECT * FROM orders ORDER BY order_id";
    private static final String TRADES = "SELECT * FROM trades ORDER BY trade_id";
    /** Never waited for: every poll flushes ({@code poll(true)}) or takes a full batch. */
    private static final long DELAY = 1;

    private HikariDataSource pool;

    @BeforeEach
    void openPool() throws SQLException {
        DB.dropServiceTables();
        final HikariConfig hikari = new HikariConfig();
        hikari.setJdbcUrl(DB.url());
        hikari.setUsername(DB.user());
        hikari.setPassword(DB.password());
        hikari.setMaximumPoolSize(3);
        pool = new HikariDataSource(hikari);
    }

    @AfterEach
    void closePool() {
        pool.close();
    }

    @Test
    void everyEventOfEveryTypeReadsBackAsTheRowPerEventLayoutStoredItWhateverTheBatchBoundaries() throws Exception {
        final List<EngineEvent> events = GeneratedEvents.generateWithOperations(51, 3_000);
        assertEquals("7", migrate());
        final List<List<String>> reference = written(events, new InsertSink(pool, GeneratedEvents.INSTRUMENTS), 1_000);
        assertEquals(events.size(), reference.size());
        assertTrue(reference.stream().anyMatch(row -> row.get(2).equals("ORDER_AMENDED")), "amends among them");
        assertTrue(reference.stream().anyMatch(row -> row.get(2).equals("TRADE")), "trades among them");

        for (final int batch : new int[] {1, 7, 1_000}) {
            DB.execute("TRUNCATE order_event_batches, order_events_v4, trades, orders;"
                    + " UPDATE high_water_mark SET last_sequence = 0, written_by = NULL");
            final PostgresSink sink = new PostgresSink(pool, GeneratedEvents.INSTRUMENTS);
            assertSameRows(reference, written(events, sink, batch), "batches of " + batch);
            assertEquals(0, DB.number("SELECT count(*) FROM order_events_v4"), "nothing written one row per event");
            assertEquals((events.size() + batch - 1) / batch, DB.number("SELECT count(*) FROM order_event_batches"),
                    "one row per batch of " + batch);
        }
    }

    @Test
    void aSequenceRangeReadsOnlyItsEventsInOrderAcrossPackedBatches() throws Exception {
        final List<EngineEvent> events = GeneratedEvents.generate(52, 2_000);
        migrate();
        final List<List<String>> all = written(events, new PostgresSink(pool, GeneratedEvents.INSTRUMENTS), 300);

        assertEquals(all.subList(298, 903), DB.rows("SELECT * FROM order_events_between(299, 903)"),
                "from inside one batch to inside another");
        assertEquals(all.subList(0, 1), DB.rows("SELECT * FROM order_events_between(1, 1)"), "the very first");
        assertEquals(all.subList(1_999, 2_000), DB.rows("SELECT * FROM order_events_between(2000, 5000)"),
                "the last, with nothing beyond it");
        assertEquals(List.of(), DB.rows("SELECT * FROM order_events_between(2001, 3000)"), "after the last");
    }

    @Test
    void aDatabaseWithEventRowsFromBeforeVersionFiveKeepsThemAndTheWriterContinuesAfterThem() throws Exception {
        final List<EngineEvent> events = GeneratedEvents.generateWithOperations(53, 2_500);
        migrate();
        final List<List<String>> reference = written(events, new InsertSink(pool, GeneratedEvents.INSTRUMENTS), 500);
        final List<List<String>> orders = DB.rows(ORDERS);
        final List<List<String>> trades = DB.rows(TRADES);
        DB.dropServiceTables();

        Flyway.configure().dataSource(pool).locations(DatabaseBootstrap.MIGRATIONS).target("4").load().migrate();
        final InsertSink before = new InsertSink(pool, GeneratedEvents.INSTRUMENTS, "order_events");
        before.connect();
        final Batcher old = new Batcher(new Events.ListSource(events).availableUpTo(1_000), before, 500, DELAY,
                () -> 0L);
        assertEquals(500, old.poll(false));
        assertEquals(500, old.poll(false));
        before.disconnect();

        assertEquals("7", migrate());
        assertEquals(reference.subList(0, 1_000), DB.rows(ALL_EVENTS), "the rows of before, unchanged");
        assertEquals(1_000, DB.number("SELECT count(*) FROM order_events_v4"));

        final PostgresSink sink = new PostgresSink(pool, GeneratedEvents.INSTRUMENTS);
        sink.connect();
        assertEquals(1_000, sink.persistedSequence());
        final Batcher batcher = new Batcher(new Events.ListSource(events), sink, 400, DELAY, () -> 0L);
        while (batcher.poll(true) > 0) {
            assertTrue(sink.persistedSequence() > 1_000);
        }
        sink.disconnect();
        assertEquals(reference, DB.rows(ALL_EVENTS), "the rows of before, then the packed ones");
        assertEquals(reference.subList(989, 1_010), DB.rows("SELECT * FROM order_events_between(990, 1010)"),
                "a range across the migration");
        assertEquals(orders, DB.rows(ORDERS), "the orders as one writer leaves them");
        assertEquals(trades, DB.rows(TRADES), "the trades as one writer leaves them");
    }

    /** Fails at the first row that differs, naming only that row. */
    private static void assertSameRows(final List<List<String>> expected, final List<List<String>> actual,
                                       final String what) {
        for (int i = 0; i < Math.min(expected.size(), actual.size()); i++) {
            assertEquals(expected.get(i), actual.get(i), what + ", row " + i);
        }
        assertEquals(expected.size(), actual.size(), what + ", rows");
    }

    /** Writes every event through the sink in batches of {@code batch}; @return the view's rows, in order */
    private static List<List<String>> written(final List<EngineEvent> events, final BatchSink sink, final int batch)
            throws Exception {
        sink.connect();
        final Batcher batcher = new Batcher(new Events.ListSource(events), sink, batch, DELAY, () -> 0L);
        while (batcher.poll(true) > 0) {
            assertTrue(sink.persistedSequence() > 0);
        }
        assertEquals(events.size(), sink.persistedSequence());
        sink.disconnect();
        return DB.rows(ALL_EVENTS);
    }

    private String migrate() throws SQLException {
        final Properties login = new Properties();
        login.setProperty("user", DB.user());
        login.setProperty("password", DB.password());
        return new DatabaseBootstrap(new JdbcUrl(DB.url()), login).run(pool);
    }
}
