package io.orderentry.persistence;

import io.orderentry.engine.RejectReason;
import io.orderentry.instrument.Instrument;
import io.orderentry.pipeline.EngineEvent;
import io.orderentry.pipeline.EventType;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/**
 * The alternative to {@link PostgresSink} that the benchmark measures it against: the same transaction
 * (claim the high-water mark in its {@link ClaimTurn}, which makes
 * batches on several connections wait for each other, then events, trades, new orders, guarded updates of older orders), written
 * with multi-row {@code INSERT ... VALUES (...), (...)} and {@code UPDATE ... FROM (VALUES ...)}
 * statements with bound parameters, in chunks of 128, 16 and 1 rows sent as one JDBC batch per chunk
 * size (what pgjdbc's reWriteBatchedInserts does). Kept in the test tree: COPY was faster. Its events go one row
 * each into {@code order_events_v4} (the layout before {@code V5__packed_events.sql}), which also makes it the
 * reference that the packed batches are checked against (PackedEventsIT).
 */
final class InsertSink implements BatchSink {

    private static final int[] CHUNKS = {128, 16, 1};
    private static final String EVENTS = "INSERT INTO %s (sequence, command_sequence, event_type,"
            + " occurred_at, symbol, order_id, side, price, quantity, filled_quantity, remaining_quantity, status,"
            + " reject_reason, trade_id, maker_order_id, maker_filled_quantity, maker_status, previous_price,"
            + " previous_quantity, kept_priority) VALUES ";
    private static final String TRADES = "INSERT INTO trades (trade_id, sequence, symbol, price, quantity, taker_side,"
            + " taker_order_id, taker_account_id, maker_order_id, maker_account_id, executed_at) VALUES ";
    private static final String ORDERS = "INSERT INTO orders (order_id, client_order_id, account_id, symbol, side,"
            + " order_type, time_in_force, post_only, self_trade_prevention, price, quantity, status, filled_quantity,"
            + " remaining_quantity, reject_reason, created_at, updated_at, last_sequence) VALUES ";
    private static final String UPDATE_HEAD = "UPDATE orders o SET"
            + " price = COALESCE(u.price, o.price), quantity = COALESCE(u.quantity, o.quantity),"
            + " status = COALESCE(u.status, CASE WHEN u.filled_quantity = COALESCE(u.quantity, o.quantity)"
            + " THEN 'FILLED' ELSE 'PARTIALLY_FILLED' END), filled_quantity = u.filled_quantity,"
            + " remaining_quantity = COALESCE(u.remaining_quantity, COALESCE(u.quantity, o.quantity)"
            + " - u.filled_quantity),"
            + " reject_reason = COALESCE(u.reject_reason, o.reject_reason), updated_at = u.updated_at,"
            + " last_sequence = u.last_sequence FROM (VALUES ";
    private static final String UPDATE_TAIL = ") AS u(order_id, price, quantity, status, filled_quantity,"
            + " remaining_quantity, reject_reason, updated_at, last_sequence) WHERE o.order_id = u.order_id"
            + " AND o.last_sequence < u.last_sequence";
    private static final String UPDATE_ROW = "(?::bigint, ?::numeric, ?::numeric, ?::text, ?::numeric, ?::numeric,"
            + " ?::text, ?::timestamptz, ?::bigint)";

    private final DataSource pool;
    private final String insertEvents;
    private final InstrumentColumns instruments;
    private final OrderFold fold = new OrderFold();
    private final Map<String, PreparedStatement> statements = new HashMap<>();
    private Connection connection;
    private long persisted = -1;

    /** Writes each event as a row of {@code order_events_v4}, the layout before V5 packed them by batch. */
    InsertSink(final DataSource pool, final List<Instrument> instruments) {
        this(pool, instruments, "order_events_v4");
    }

    /** @param eventTable the table of one row per event: order_events_v4, or order_events on a database before V5 */
    InsertSink(final DataSource pool, final List<Instrument> instruments, final String eventTable) {
        this.pool = pool;
        this.insertEvents = EVENTS.formatted(eventTable);
        this.instruments = new InstrumentColumns(instruments);
    }

    @Override
    public void connect() throws SQLException {
        disconnect();
        final Connection c = pool.getConnection();
        c.setAutoCommit(false);
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT last_sequence FROM high_water_mark WHERE id = 1")) {
            rs.next();
            persisted = rs.getLong(1);
        }
        c.commit();
        connection = c;
    }

    @Override
    public boolean connected() {
        return connection != null;
    }

    @Override
    public void disconnect() {
        statements.clear();
        if (connection != null) {
            try {
                connection.close();
            } catch (final SQLException e) {
                throw new IllegalStateException("closing a benchmark connection failed", e);
            } finally {
                connection = null;
            }
        }
    }

    @Override
    public long persistedSequence() {
        return persisted;
    }

    @Override
    public void write(final EventBatch batch, final ClaimTurn turn) throws SQLException {
        if (batch.firstSequence() <= persisted) {
            throw new IllegalStateException("overlap: stored " + persisted + ", batch starts at " + batch.firstSequence());
        }
        try {
            turn.await(batch.firstSequence() - 1);
            try (Statement lock = connection.createStatement();
                 ResultSet rs = lock.executeQuery("SELECT last_sequence FROM high_water_mark WHERE id = 1 FOR UPDATE");
                 PreparedStatement move = connection.prepareStatement("UPDATE high_water_mark SET last_sequence = ?,"
                         + " updated_at = now() WHERE id = 1")) {
                rs.next();
                if (rs.getLong(1) != batch.firstSequence() - 1) {
                    throw new SQLException("the batch before " + batch.firstSequence() + " is not stored",
                            PostgresSink.PREDECESSOR_FAILED);
                }
                move.setLong(1, batch.lastSequence());
                move.executeUpdate();
            } finally {
                turn.pass(batch.lastSequence());
            }
            final List<Object[]> events = new ArrayList<>(batch.size());
            final List<Object[]> trades = new ArrayList<>();
            for (int i = 0; i < batch.size(); i++) {
                final EngineEvent e = batch.get(i);
                events.add(event(e));
                if (e.type == EventType.TRADE) {
                    trades.add(trade(e));
                }
            }
            fold.fold(batch);
            final List<Object[]> orders = new ArrayList<>();
            for (final OrderFold.Row row : fold.newRows()) {
                orders.add(newOrder(row));
            }
            final List<Object[]> updates = new ArrayList<>();
            for (final OrderFold.Row row : fold.updateRows()) {
                updates.add(update(row));
            }
            insert(insertEvents, "", events, 20);
            insert(TRADES, "", trades, 11);
            insert(ORDERS, "", orders, 18);
            final int updated = insertOrUpdate(UPDATE_HEAD, UPDATE_TAIL, UPDATE_ROW, updates);
            if (updated != updates.size()) {
                throw new IllegalStateException(updates.size() + " orders to update, " + updated + " found");
            }
            connection.commit();
            persisted = batch.lastSequence();
        } catch (final SQLException | RuntimeException e) {
            connection.rollback();
            throw e;
        }
    }

    private void insert(final String head, final String tail, final List<Object[]> rows, final int columns)
            throws SQLException {
        final String[] marks = new String[columns];
        Arrays.fill(marks, "?");
        insertOrUpdate(head, tail, "(" + String.join(", ", marks) + ")", rows);
    }

    private int insertOrUpdate(final String head, final String tail, final String row, final List<Object[]> rows)
            throws SQLException {
        int done = 0;
        int changed = 0;
        for (final int chunk : CHUNKS) {
            if (rows.size() - done < chunk) {
                continue;
            }
            final PreparedStatement statement = statement(head, tail, row, chunk);
            while (rows.size() - done >= chunk) {
                int index = 1;
                for (int r = done; r < done + chunk; r++) {
                    for (final Object value : rows.get(r)) {
                        statement.setObject(index++, value);
                    }
                }
                statement.addBatch();
                done += chunk;
            }
            for (final int count : statement.executeBatch()) {
                changed += count;
            }
        }
        return changed;
    }

    private PreparedStatement statement(final String head, final String tail, final String row, final int rows)
            throws SQLException {
        final String key = head + rows;
        PreparedStatement statement = statements.get(key);
        if (statement == null) {
            final StringBuilder sql = new StringBuilder(head);
            for (int i = 0; i < rows; i++) {
                sql.append(i == 0 ? "" : ", ").append(row);
            }
            statement = connection.prepareStatement(sql.append(tail).toString());
            statements.put(key, statement);
        }
        return statement;
    }

    private Object[] event(final EngineEvent e) {
        final InstrumentColumns.Columns s = instruments.of(e.symbol);
        final Object[] common = {e.eventSequence, e.commandSequence, e.type.name(), time(e.timestampMicros), s.name()};
        final Object[] rest = switch (e.type) {
            case ORDER_ACCEPTED -> new Object[] {e.orderId, e.side.name(), price(e.price, s), dec(e.quantity, s.quantity()),
                    dec(0, s.quantity()), null, e.status.name(), null, null, null, null, null, null, null, null};
            case TRADE -> new Object[] {e.takerOrderId, e.takerSide.name(), dec(e.price, s.price()),
                    dec(e.quantity, s.quantity()), dec(e.takerFilledQuantity, s.quantity()), null, null, null, e.tradeId,
                    e.makerOrderId, dec(e.makerFilledQuantity, s.quantity()), e.makerStatus.name(), null, null, null};
            case ORDER_UPDATED -> new Object[] {e.orderId, e.side.name(), price(e.price, s), dec(e.quantity, s.quantity()),
                    dec(e.filledQuantity, s.quantity()), dec(e.remainingQuantity, s.quantity()), e.status.name(),
                    reason(e.rejectReason), null, null, null, null, null, null, null};
            case ORDER_AMENDED -> new Object[] {e.orderId, e.side.name(), dec(e.price, s.price()),
                    dec(e.quantity, s.quantity()), dec(e.filledQuantity, s.quantity()), null, null, null, null, null,
                    null, null, dec(e.previousPrice, s.price()), dec(e.previousQuantity, s.quantity()), e.keptPriority};
            default -> throw new IllegalStateException("not persisted: " + e.type);
        };
        final Object[] all = Arrays.copyOf(common, 20);
        System.arraycopy(rest, 0, all, 5, 15);
        return all;
    }

    private Object[] trade(final EngineEvent e) {
        final InstrumentColumns.Columns s = instruments.of(e.symbol);
        return new Object[] {e.tradeId, e.eventSequence, s.name(), dec(e.price, s.price()), dec(e.quantity, s.quantity()),
            e.takerSide.name(), e.takerOrderId, e.takerAccountId, e.makerOrderId, e.makerAccountId,
            time(e.timestampMicros)};
    }

    private Object[] newOrder(final OrderFold.Row r) {
        final InstrumentColumns.Columns s = instruments.of(r.symbol);
        return new Object[] {r.orderId, r.clientOrderId, r.accountId, s.name(), r.side.name(), r.type.name(),
            r.timeInForce.name(), r.postOnly, r.selfTradePrevention.name(), price(r.price, s), dec(r.quantity, s.quantity()), r.status.name(),
            dec(r.filledQuantity, s.quantity()), dec(r.remainingQuantity, s.quantity()), reason(r.rejectReason),
            time(r.createdAtMicros), time(r.updatedAtMicros), r.lastSequence};
    }

    private Object[] update(final OrderFold.Row r) {
        final InstrumentColumns.Columns s = instruments.of(r.symbol);
        return new Object[] {r.orderId, price(r.price, s), r.quantity == 0 ? null : dec(r.quantity, s.quantity()),
            r.status == null ? null : r.status.name(), dec(r.filledQuantity, s.quantity()),
            r.remainingQuantity < 0 ? null : dec(r.remainingQuantity, s.quantity()), reason(r.rejectReason),
            time(r.updatedAtMicros), r.lastSequence};
    }

    private static BigDecimal price(final long ticks, final InstrumentColumns.Columns s) {
        return ticks == 0 ? null : dec(ticks, s.price());
    }

    private static BigDecimal dec(final long count, final CopyBinary.Units units) {
        return BigDecimal.valueOf(count).multiply(BigDecimal.valueOf(units.multiplier())).movePointLeft(units.scale())
                .setScale(units.scale());
    }

    private static String reason(final RejectReason reason) {
        return reason == null || reason == RejectReason.NONE ? null : reason.name();
    }

    private static OffsetDateTime time(final long micros) {
        return OffsetDateTime.ofInstant(Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L),
                Math.floorMod(micros, 1_000_000L) * 1_000L), ZoneOffset.UTC);
    }
}
