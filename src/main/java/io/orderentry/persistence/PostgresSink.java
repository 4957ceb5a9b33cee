package io.orderentry.persistence;

import io.orderentry.engine.RiskRules;
import io.orderentry.instrument.Instrument;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes batches into PostgreSQL with binary COPY, one transaction per batch:
 * <ol>
 *   <li>COPY the events (one row of arrays, {@code order_event_batches}) and the trades into {@code trades};</li>
 *   <li>COPY the new orders, folded per order, into {@code orders}, and the changes of older orders into a
 *       temporary staging table (steps 1 and 2 are {@link BatchCopy}'s);</li>
 *   <li>claim the high-water mark: lock its row ({@code SELECT ... FOR UPDATE}), check that it holds
 *       {@code <first - 1>} and move it to the batch's last event.
 *       Only in its {@link ClaimTurn}, once the previous batch has claimed. If that batch is being written on
 *       another connection (see {@link Lanes}), the lock waits for its transaction and then reads what it
 *       left, so the claim succeeds only once the previous batch has committed, and fails if it rolled back.
 *       Batches therefore commit strictly in sequence order, and the row lock keeps any other writer out
 *       until this one commits;</li>
 *   <li>apply the staged changes with one {@code UPDATE ... FROM}, guarded by {@code last_sequence < new
 *       sequence}: after the claim, so that it sees the orders inserted by the previous batch; and the staged
 *       balances ({@link BalanceCopy}) the same way;</li>
 *   <li>commit.</li>
 * </ol>
 * Exactly once: a batch always starts right after the stored mark, and every table is keyed by the
 * event sequence, trade id or order id, so a repeated row is a key violation, never a second count.
 *
 * <p>Threads: owned by one lane of the persistence writer.
 */
final class PostgresSink implements BatchSink {

    private static final Logger LOG = LoggerFactory.getLogger(PostgresSink.class);

    private static final String CREATE_STAGE = "CREATE TEMPORARY TABLE IF NOT EXISTS order_updates_stage ("
            + "order_id BIGINT, price NUMERIC, quantity NUMERIC, status TEXT, filled_quantity NUMERIC,"
            + " remaining_quantity NUMERIC, reject_reason TEXT, updated_at TIMESTAMPTZ, last_sequence BIGINT)"
            + " ON COMMIT DELETE ROWS";
    /**
     * The staging table has no statistics, so the planner guesses its size and, once {@code orders} has some
     * 100,000 rows, joins by scanning all of {@code orders} (hundreds of ms per batch, growing with the table).
     * This session only runs the statements below, where a nested loop over the staged rows with the primary
     * key index is always right.
     */
    private static final String NESTED_LOOPS_ONLY = "SET enable_hashjoin = off; SET enable_mergejoin = off";
    /**
     * A lane's transaction left idle by a vanished client would hold the mark's row lock, and with it every
     * later batch, until TCP gives up on it; PostgreSQL ends such a session after this long instead.
     */
    private static final String END_ABANDONED = "SET idle_in_transaction_session_timeout = '30s'";
    private static final String UNIQUE_VIOLATION = "23505";
    /** Our own SQL state for "the previous batch's transaction did not commit": class 40, transaction rollback. */
    static final String PREDECESSOR_FAILED = "40P99";
    /**
     * Our own SQL state for "another writer stored these events first", in cluster mode only: every member derives the
     * same events from the same log, so the rows are the ones this writer would have written; it rereads the mark and
     * goes on after it.
     */
    static final String MARK_MOVED = "40P98";
    private static final String READ_MARK = "SELECT last_sequence, written_by FROM high_water_mark WHERE id = 1";
    /**
     * Locks the mark's row, waiting for a transaction that holds it, and reads the newest committed value. A plain
     * {@code UPDATE ... WHERE last_sequence = <expected>} would not do: in READ COMMITTED it waits only for rows
     * whose version visible to it already matches, so it would miss a predecessor that has claimed but not yet
     * committed.
     */
    private static final String LOCK_MARK = "SELECT last_sequence, written_by FROM high_water_mark WHERE id = 1"
            + " FOR UPDATE";
    private static final String MOVE_MARK = "UPDATE high_water_mark SET last_sequence = ?, written_by = ?,"
            + " updated_at = now() WHERE id = 1";
    /**
     * A staged NULL keeps or derives: price and quantity keep the stored ones (only an amend changes them); status and
     * remaining are derived from the order's quantity, the staged one when the batch carried it (an amend then a
     * trade), else the stored one.
     */
    private static final String APPLY_UPDATES = "UPDATE orders o SET"
            + " price = COALESCE(u.price, o.price), quantity = COALESCE(u.quantity, o.quantity),"
            + " status = COALESCE(u.status, CASE WHEN u.filled_quantity = COALESCE(u.quantity, o.quantity)"
            + " THEN 'FILLED' ELSE 'PARTIALLY_FILLED' END),"
            + " filled_quantity = u.filled_quantity,"
            + " remaining_quantity = COALESCE(u.remaining_quantity,"
            + " COALESCE(u.quantity, o.quantity) - u.filled_quantity),"
            + " reject_reason = COALESCE(u.reject_reason, o.reject_reason),"
            + " updated_at = u.updated_at, last_sequence = u.last_sequence"
            + " FROM order_updates_stage u WHERE o.order_id = u.order_id AND o.last_sequence < u.last_sequence";

    private final DataSource pool;
    private final BatchCopy rows;

    private final AtomicLong uncertainThrough;
    private final boolean shared;

    private Connection connection;
    private CopyManager copy;
    private long persisted = -1;

    /**
     * @param pool        connections to a migrated database
     * @param instruments the configured instruments, indexed by their engine symbol number
     */
    PostgresSink(final DataSource pool, final List<Instrument> instruments) {
        this(pool, instruments, new AtomicLong(-1), false);
    }

    /**
     * @param uncertainThrough shared by the sinks of one writer: the last event of a batch whose attempt ended after
     *                         its claim with an error, so that its COMMIT may have landed on the server anyway
     * @param shared           the database is written by the members of a cluster, one at a time but with overlaps
     *                         when leadership moves: a mark past this writer's is another member's progress
     *                         ({@link #MARK_MOVED}), not a second service writing into the wrong database
     */
    PostgresSink(final DataSource pool, final List<Instrument> instruments, final AtomicLong uncertainThrough,
                 final boolean shared) {
        this(pool, instruments, null, uncertainThrough, shared);
    }

    /** @param risk the engine's balances' rules, null without balances */
    PostgresSink(final DataSource pool, final List<Instrument> instruments, final RiskRules risk,
                 final AtomicLong uncertainThrough, final boolean shared) {
        this.pool = pool;
        this.rows = new BatchCopy(instruments, risk);
        this.uncertainThrough = uncertainThrough;
        this.shared = shared;
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
                statement.execute(BalanceCopy.CREATE_STAGE);
                statement.execute(NESTED_LOOPS_ONLY);
                statement.execute(END_ABANDONED);
            }
            final long mark = readMark(c, READ_MARK);
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

    /** Rereads the high-water mark on the connection held, or connects if there is none. */
    @Override
    public void refresh() throws SQLException {
        if (connection == null) {
            connect();
            return;
        }
        persisted = readMarkAndEnd();
    }

    /** @return the stored mark, read in a transaction of its own on the connection held, ended at once */
    private long readMarkAndEnd() throws SQLException {
        try {
            return readMark(connection, READ_MARK);
        } finally {
            connection.rollback();
        }
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
    public void write(final EventBatch batch, final ClaimTurn turn) throws SQLException {
        if (connection == null) {
            throw new SQLException("not connected to the database", "08003");
        }
        if (batch.firstSequence() <= persisted) {
            throw new IllegalStateException("the batch starts at event " + batch.firstSequence()
                    + " but the database already holds events up to " + persisted);
        }
        boolean claimed = false;
        try {
            final int updates = rows.copy(copy, batch);
            turn.await(batch.firstSequence() - 1);
            try {
                claimMark(batch.firstSequence() - 1, batch.lastSequence());
                claimed = true;
            } finally {
                turn.pass(batch.lastSequence());
            }
            applyUpdates(updates);
            rows.applyBalances(connection);
            connection.commit();
            persisted = batch.lastSequence();
        } catch (final SQLException e) {
            if (claimed) {
                uncertainThrough.accumulateAndGet(batch.lastSequence(), Math::max);
            }
            rollbackQuietly(e);
            if (UNIQUE_VIOLATION.equals(e.getSQLState())) {
                if (committedBefore(batch, turn)) {
                    return;
                }
                if (shared) {
                    throw markMovedIfStored(batch, e);
                }
                throw new IllegalStateException("rows for events " + batch.firstSequence() + ".." + batch.lastSequence()
                        + " already exist: another writer (a second service on the same database?) is writing to it",
                        e);
            }
            throw e;
        } catch (final IllegalStateException e) {
            rollbackQuietly(e);
            if (committedBefore(batch, turn)) {
                return;
            }
            throw e;
        } catch (final RuntimeException e) {
            rollbackQuietly(e);
            throw e;
        }
    }

    /**
     * Tells a batch an earlier attempt of this writer committed (its COMMIT completed on the server after the client
     * had given up on it: a timeout, a broken connection) from one another writer wrote: only in the first case did
     * this writer attempt it with an unknown outcome, and does the mark cover the whole batch. The batch then counts
     * as written, once.
     *
     * @return true if the database already holds {@code batch} by the mark
     */
    private boolean committedBefore(final EventBatch batch, final ClaimTurn turn) throws SQLException {
        if (batch.lastSequence() > uncertainThrough.get()) {
            return false;   // this writer never attempted it with an unknown outcome: someone else wrote it
        }
        final long mark = readMarkAndEnd();
        if (mark < batch.lastSequence()) {
            return false;
        }
        LOG.warn("persistence: events {}..{} were committed by an earlier attempt whose answer was lost (a timeout or"
                + " a broken connection); the database's mark is {}; not written again", batch.firstSequence(),
                batch.lastSequence(), mark);
        persisted = batch.lastSequence();
        turn.pass(batch.lastSequence());
        return true;
    }

    /**
     * Cluster mode: a key violation means another member committed some of these events first, which its mark then
     * covers (rows and mark commit together). A mark below the batch's first event would mean rows without a mark:
     * a database that contradicts the log.
     */
    private SQLException markMovedIfStored(final EventBatch batch, final SQLException violation) throws SQLException {
        final long mark = readMarkAndEnd();
        if (mark < batch.firstSequence()) {
            throw new IllegalStateException("rows for events " + batch.firstSequence() + ".." + batch.lastSequence()
                    + " already exist but the high-water mark is " + mark + ": the database contradicts the log",
                    violation);
        }
        return new SQLException("another member stored events up to " + mark + " (this one was to write "
                + batch.firstSequence() + ".." + batch.lastSequence() + "); going on after them", MARK_MOVED,
                violation);
    }

    /**
     * Moves the mark from {@code expected} to {@code last}; waits while another transaction holds the row.
     *
     * @throws SQLException when the previous batch did not commit (its transaction failed): retryable
     * @throws IllegalStateException when the mark is past {@code expected}: another writer
     */
    private void claimMark(final long expected, final long last) throws SQLException {
        final long stored = readMark(connection, LOCK_MARK);
        if (stored < expected) {
            throw new SQLException("the batch before events " + (expected + 1) + ".." + last + " was not committed "
                    + "(the database holds events up to " + stored + "); writing again from there",
                    PREDECESSOR_FAILED);
        }
        if (stored > expected && shared) {
            throw new SQLException("another member stored events up to " + stored + " (this one was to write "
                    + (expected + 1) + ".." + last + "); going on after them", MARK_MOVED);
        }
        if (stored > expected) {
            throw new IllegalStateException("the database high-water mark is " + stored + " but this writer expected "
                    + expected + ": another writer (a second service on the same database?) is writing to it");
        }
        try (PreparedStatement move = connection.prepareStatement(MOVE_MARK)) {
            move.setLong(1, last);
            move.setString(2, shared ? CLUSTER : JOURNAL);
            move.executeUpdate();
        }
    }

    private void applyUpdates(final int staged) throws SQLException {
        if (staged == 0) {
            return;
        }
        try (Statement statement = connection.createStatement()) {
            final int updated = statement.executeUpdate(APPLY_UPDATES);
            if (updated != staged) {
                throw new IllegalStateException(staged + " stored orders changed in this batch but only "
                        + updated + " rows were found to update: the database is missing orders");
            }
        }
    }

    /**
     * @return the stored mark, read with {@code sql} ({@link #READ_MARK} or {@link #LOCK_MARK})
     * @throws IllegalStateException when the other kind of writer wrote the database (see V4__written_by.sql)
     */
    private long readMark(final Connection c, final String sql) throws SQLException {
        try (Statement statement = c.createStatement(); ResultSet rs = statement.executeQuery(sql)) {
            if (!rs.next()) {
                throw new SQLException("high_water_mark has no row: the schema was not migrated", "55000");
            }
            final long mark = rs.getLong(1);
            final String writtenBy = rs.getString(2);
            if (shared ? JOURNAL.equals(writtenBy) || writtenBy == null && mark > 0 : CLUSTER.equals(writtenBy)) {
                throw new IllegalStateException("the database holds events up to " + mark + " written by "
                        + (shared ? "a single node from its journal" : "a cluster") + ", and this is "
                        + (shared ? "a member of a cluster" : "a single node") + ": both number their events from 1,"
                        + " so neither can continue the other's. Point db.url/ORDERS_DB_URL at a fresh database");
            }
            return mark;
        }
    }

    /** {@code high_water_mark.written_by}: a single node writing from its journal, or the members of a cluster. */
    private static final String JOURNAL = "journal";
    private static final String CLUSTER = "cluster";

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
