package io.orderentry.persistence;

import io.orderentry.app.Instrument;
import io.orderentry.engine.RejectReason;
import io.orderentry.pipeline.EngineEvent;
import io.orderentry.pipeline.EventType;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import javax.sql.DataSource;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;
import org.postgresql.copy.CopyManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes batches into PostgreSQL with COPY, one transaction per batch:
 * <ol>
 *   <li>claim the high-water mark: {@code UPDATE high_water_mark ... WHERE last_sequence = <expected>}
 *       (locks the row, so the batch and its mark commit together and no second writer interleaves);</li>
 *   <li>COPY the events into {@code order_events} and the trades into {@code trades};</li>
 *   <li>COPY the new orders, folded per order (see {@link OrderFold}), into {@code orders};</li>
 *   <li>COPY the changes of older orders into a temporary staging table and apply them with one
 *       {@code UPDATE ... FROM}, guarded by {@code last_sequence < new sequence};</li>
 *   <li>commit.</li>
 * </ol>
 * Exactly once: a batch always starts right after the stored mark, and every table is keyed by the
 * event sequence, trade id or order id, so a repeated row is a key violation, never a second count.
 *
 * <p>Threads: owned by the persistence writer thread.
 */
final class PostgresSink implements BatchSink {

    private static final Logger LOG = LoggerFactory.getLogger(PostgresSink.class);

    private static final String CREATE_STAGE = "CREATE TEMPORARY TABLE IF NOT EXISTS order_updates_stage ("
            + "order_id BIGINT, status TEXT, filled_quantity NUMERIC, remaining_quantity NUMERIC, reject_reason TEXT,"
            + " updated_at TIMESTAMPTZ, last_sequence BIGINT) ON COMMIT DELETE ROWS";
    /**
     * The staging table has no statistics, so the planner guesses its size and, once {@code orders} has some
     * 100,000 rows, joins by scanning all of {@code orders} (hundreds of ms per batch, growing with the table).
     * This session only runs the statements below, where a nested loop over the staged rows with the primary
     * key index is always right.
     */
    private static final String NESTED_LOOPS_ONLY = "SET enable_hashjoin = off; SET enable_mergejoin = off";
    private static final String READ_MARK = "SELECT last_sequence FROM high_water_mark WHERE id = 1";
    private static final String CLAIM_MARK = "UPDATE high_water_mark SET last_sequence = ?, updated_at = now()"
            + " WHERE id = 1 AND last_sequence = ?";
    private static final String COPY_EVENTS = "COPY order_events (sequence, command_sequence, event_type,"
            + " occurred_at, symbol, order_id, side, price, quantity, filled_quantity, remaining_quantity, status,"
            + " reject_reason, trade_id, maker_order_id, maker_filled_quantity, maker_status) FROM STDIN";
    private static final String COPY_TRADES = "COPY trades (trade_id, sequence, symbol, price, quantity, taker_side,"
            + " taker_order_id, taker_account_id, maker_order_id, maker_account_id, executed_at) FROM STDIN";
    private static final String COPY_ORDERS = "COPY orders (order_id, client_order_id, account_id, symbol, side,"
            + " order_type, time_in_force, post_only, price, quantity, status, filled_quantity, remaining_quantity,"
            + " reject_reason, created_at, updated_at, last_sequence) FROM STDIN";
    private static final String COPY_UPDATES = "COPY order_updates_stage (order_id, status, filled_quantity,"
            + " remaining_quantity, reject_reason, updated_at, last_sequence) FROM STDIN";
    private static final String APPLY_UPDATES = "UPDATE orders o SET"
            + " status = COALESCE(u.status, CASE WHEN u.filled_quantity = o.quantity THEN 'FILLED'"
            + " ELSE 'PARTIALLY_FILLED' END),"
            + " filled_quantity = u.filled_quantity,"
            + " remaining_quantity = COALESCE(u.remaining_quantity, o.quantity - u.filled_quantity),"
            + " reject_reason = COALESCE(u.reject_reason, o.reject_reason),"
            + " updated_at = u.updated_at, last_sequence = u.last_sequence"
            + " FROM order_updates_stage u WHERE o.order_id = u.order_id AND o.last_sequence < u.last_sequence";

    private final DataSource pool;
    private final InstrumentColumns instruments;
    private final OrderFold fold = new OrderFold();
    private final CopyText text = new CopyText();

    private Connection connection;
    private CopyManager copy;
    private long persisted = -1;

    /**
     * @param pool        connections to a migrated database
     * @param instruments the configured instruments, indexed by their engine symbol number
     */
    PostgresSink(final DataSource pool, final List<Instrument> instruments) {
        this.pool = pool;
        this.instruments = new InstrumentColumns(instruments);
    }

    /** Takes a connection, prepares the staging table and reads the high-water mark. */
    @Override
    public void connect() throws SQLException {
        disconnect();
        final Connection c = pool.getConnection();
        try {
            c.setAutoCommit(false);
            try (Statement statement = c.createStatement()) {
                statement.execute(CREATE_STAGE);
                statement.execute(NESTED_LOOPS_ONLY);
            }
            final long mark = readMark(c);
            c.commit();
            copy = c.unwrap(PGConnection.class).getCopyAPI();
            connection = c;
            persisted = mark;
        } catch (final SQLException | RuntimeException e) {
            closeQuietly(c, e);
            throw e;
        }
    }

    @Override
    public boolean connected() {
        return connection != null;
    }

    /** Gives the connection back to the pool, which discards it if it is broken. */
    @Override
    public void disconnect() {
        final Connection c = connection;
        connection = null;
        copy = null;
        if (c != null) {
            try {
                c.close();
            } catch (final SQLException e) {
                LOG.info("closing a broken database connection failed: {}", e.getMessage());
            }
        }
    }

    /** @return the stored high-water mark as last read or written; -1 before the first connect */
    @Override
    public long persistedSequence() {
        return persisted;
    }

    @Override
    public void write(final EventBatch batch) throws SQLException {
        if (connection == null) {
            throw new SQLException("not connected to the database", "08003");
        }
        if (batch.firstSequence() != persisted + 1) {
            throw new IllegalStateException("the batch starts at event " + batch.firstSequence()
                    + " but the database holds events up to " + persisted + "; refusing to leave a gap");
        }
        try {
            claimMark(batch.lastSequence());
            copyEvents(batch);
            copyTrades(batch);
            fold.fold(batch);
            copyNewOrders();
            applyUpdates();
            connection.commit();
            persisted = batch.lastSequence();
        } catch (final SQLException | RuntimeException e) {
            rollbackQuietly(e);
            throw e;
        }
    }

    private void claimMark(final long last) throws SQLException {
        try (PreparedStatement claim = connection.prepareStatement(CLAIM_MARK)) {
            claim.setLong(1, last);
            claim.setLong(2, persisted);
            if (claim.executeUpdate() == 1) {
                return;
            }
        }
        final long stored = readMark(connection);
        throw new IllegalStateException("the database high-water mark is " + stored + " but this writer expected "
                + persisted + ": another writer (a second service on the same database?) is writing to it");
    }

    private void copyEvents(final EventBatch batch) throws SQLException {
        text.reset();
        for (int i = 0; i < batch.size(); i++) {
            final EngineEvent e = batch.get(i);
            final InstrumentColumns.Columns symbol = instruments.of(e.symbol);
            text.number(e.eventSequence).number(e.commandSequence).name(e.type).timestamp(e.timestampMicros)
                    .text(symbol.name());
            switch (e.type) {
                case ORDER_ACCEPTED -> {
                    text.number(e.orderId).name(e.side);
                    price(e.price, symbol);
                    text.decimal(e.quantity, symbol.quantity()).decimal(0, symbol.quantity()).nullValue()
                            .name(e.status).nullValue().nullValue().nullValue().nullValue().nullValue();
                }
                case TRADE -> text.number(e.takerOrderId).name(e.takerSide).decimal(e.price, symbol.price())
                        .decimal(e.quantity, symbol.quantity()).decimal(e.takerFilledQuantity, symbol.quantity())
                        .nullValue().nullValue().nullValue().number(e.tradeId).number(e.makerOrderId)
                        .decimal(e.makerFilledQuantity, symbol.quantity()).name(e.makerStatus);
                case ORDER_UPDATED -> {
                    text.number(e.orderId).name(e.side);
                    price(e.price, symbol);
                    text.decimal(e.quantity, symbol.quantity()).decimal(e.filledQuantity, symbol.quantity())
                            .decimal(e.remainingQuantity, symbol.quantity()).name(e.status)
                            .name(rejectReason(e.rejectReason)).nullValue().nullValue().nullValue().nullValue();
                }
                default -> throw new IllegalStateException("event " + e.eventSequence + " of type " + e.type
                        + " is not persisted");
            }
            text.endRow();
        }
        copyIn(COPY_EVENTS);
    }

    private void copyTrades(final EventBatch batch) throws SQLException {
        text.reset();
        for (int i = 0; i < batch.size(); i++) {
            final EngineEvent e = batch.get(i);
            if (e.type != EventType.TRADE) {
                continue;
            }
            final InstrumentColumns.Columns symbol = instruments.of(e.symbol);
            text.number(e.tradeId).number(e.eventSequence).text(symbol.name()).decimal(e.price, symbol.price())
                    .decimal(e.quantity, symbol.quantity()).name(e.takerSide).number(e.takerOrderId)
                    .text(e.takerAccountId).number(e.makerOrderId).text(e.makerAccountId)
                    .timestamp(e.timestampMicros);
            text.endRow();
        }
        copyIn(COPY_TRADES);
    }

    private void copyNewOrders() throws SQLException {
        text.reset();
        for (final OrderFold.Row row : fold.newRows()) {
            final InstrumentColumns.Columns symbol = instruments.of(row.symbol);
            text.number(row.orderId).text(row.clientOrderId).text(row.accountId).text(symbol.name())
                    .name(row.side).name(row.type).name(row.timeInForce).bool(row.postOnly);
            price(row.price, symbol);
            text.decimal(row.quantity, symbol.quantity()).name(row.status)
                    .decimal(row.filledQuantity, symbol.quantity()).decimal(row.remainingQuantity, symbol.quantity())
                    .name(rejectReason(row.rejectReason)).timestamp(row.createdAtMicros)
                    .timestamp(row.updatedAtMicros).number(row.lastSequence);
            text.endRow();
        }
        copyIn(COPY_ORDERS);
    }

    private void applyUpdates() throws SQLException {
        final List<OrderFold.Row> rows = fold.updateRows();
        if (rows.isEmpty()) {
            return;
        }
        text.reset();
        for (final OrderFold.Row row : rows) {
            final InstrumentColumns.Columns symbol = instruments.of(row.symbol);
            text.number(row.orderId).name(row.status).decimal(row.filledQuantity, symbol.quantity());
            if (row.remainingQuantity < 0) {
                text.nullValue();
            } else {
                text.decimal(row.remainingQuantity, symbol.quantity());
            }
            text.name(rejectReason(row.rejectReason)).timestamp(row.updatedAtMicros).number(row.lastSequence);
            text.endRow();
        }
        copyIn(COPY_UPDATES);
        try (Statement statement = connection.createStatement()) {
            final int updated = statement.executeUpdate(APPLY_UPDATES);
            if (updated != rows.size()) {
                throw new IllegalStateException(rows.size() + " stored orders changed in this batch but only "
                        + updated + " rows were found to update: the database is missing orders");
            }
        }
    }

    private void price(final long ticks, final InstrumentColumns.Columns symbol) {
        if (ticks == 0) {
            text.nullValue();
        } else {
            text.decimal(ticks, symbol.price());
        }
    }

    private void copyIn(final String sql) throws SQLException {
        if (text.length() == 0) {
            return;
        }
        final CopyIn in = copy.copyIn(sql);
        try {
            in.writeToCopy(text.bytes(), 0, text.length());
            in.endCopy();
        } finally {
            if (in.isActive()) {
                in.cancelCopy();
            }
        }
    }

    private static RejectReason rejectReason(final RejectReason reason) {
        return reason == RejectReason.NONE ? null : reason;
    }

    private static long readMark(final Connection c) throws SQLException {
        try (Statement statement = c.createStatement(); ResultSet rs = statement.executeQuery(READ_MARK)) {
            if (!rs.next()) {
                throw new SQLException("high_water_mark has no row: the schema was not migrated", "55000");
            }
            return rs.getLong(1);
        }
    }

    private void rollbackQuietly(final Exception cause) {
        try {
            connection.rollback();
        } catch (final SQLException e) {
            cause.addSuppressed(e);
        }
    }

    private static void closeQuietly(final Connection c, final Exception cause) {
        try {
            c.close();
        } catch (final SQLException e) {
            cause.addSuppressed(e);
        }
    }
}
