package io.orderentry.persistence;

import io.orderentry.engine.RejectReason;
import io.orderentry.engine.RiskRules;
import io.orderentry.instrument.Instrument;
import io.orderentry.pipeline.EngineEvent;
import io.orderentry.pipeline.EventType;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import org.postgresql.copy.CopyIn;
import org.postgresql.copy.CopyManager;

/**
 * A batch's rows, sent with binary COPY (see {@link CopyBinary}) on the connection of the {@link PostgresSink} that
 * writes it, inside its transaction: the events, packed into one row, into {@code order_event_batches}, the trades
 * into {@code trades}, the balance changes ({@link BalanceCopy}), the new orders, folded per order (see {@link OrderFold}), into {@code orders}, and the
 * changes of orders stored before the batch into the staging table {@code order_updates_stage}, which the sink
 * applies once it has claimed the high-water mark. It knows the tables' columns and how each event maps to them;
 * the transaction, the mark and the errors are the sink's.
 *
 * <p>Threads: owned by the sink's lane thread; one reusable row buffer, nothing allocated per event.
 */
final class BatchCopy {

    /**
     * Binary COPY: the server parses no decimal or timestamp text. Measured against text COPY with the same
     * rows: about a quarter less server time for {@code order_events} (docs/persistence.md).
     */
    private static final String BINARY = " WITH (FORMAT binary)";
    private static final String COPY_EVENTS = "COPY order_event_batches (first_sequence, last_sequence,"
            + " command_sequence, event_type, occurred_at, symbol, order_id, side, price, quantity, filled_quantity,"
            + " remaining_quantity, status, reject_reason, trade_id, maker_order_id, maker_filled_quantity,"
            + " maker_status, previous_price, previous_quantity, kept_priority) FROM STDIN" + BINARY;
    private static final String COPY_TRADES = "COPY trades (trade_id, sequence, symbol, price, quantity, taker_side,"
            + " taker_order_id, taker_account_id, maker_order_id, maker_account_id, executed_at) FROM STDIN" + BINARY;
    private static final String COPY_ORDERS = "COPY orders (order_id, client_order_id, account_id, symbol, side,"
            + " order_type, time_in_force, post_only, self_trade_prevention, price, quantity, status, filled_quantity,"
            + " remaining_quantity, reject_reason, created_at, updated_at, last_sequence) FROM STDIN" + BINARY;
    private static final String COPY_UPDATES = "COPY order_updates_stage (order_id, price, quantity, status,"
            + " filled_quantity, remaining_quantity, reject_reason, updated_at, last_sequence) FROM STDIN" + BINARY;

    private final InstrumentColumns instruments;
    private final OrderFold fold = new OrderFold();
    private final BalanceCopy balances;
    private final CopyBinary out = new CopyBinary();
    private int stagedBalances;

    /** @param instruments the configured instruments, indexed by their engine symbol number */
    BatchCopy(final List<Instrument> instruments) {
        this(instruments, null);
    }

    /**
     * @param instruments the configured instruments, indexed by their engine symbol number
     * @param risk        the engine's balances' rules, null without balances
     */
    BatchCopy(final List<Instrument> instruments, final RiskRules risk) {
        this.instruments = new InstrumentColumns(instruments);
        this.balances = new BalanceCopy(risk);
    }

    /**
     * COPYs the batch's events, trades and new orders, and stages the changes of orders stored before it.
     *
     * @return how many order changes were staged, for the sink to apply
     */
    int copy(final CopyManager copy, final EventBatch batch) throws SQLException {
        copyEvents(copy, batch);
        copyTrades(copy, batch);
        stagedBalances = balances.copy(copy, batch);
        fold.fold(batch);
        copyNewOrders(copy);
        return stageUpdates(copy);
    }

    /**
     * The batch's events as one row of {@code order_event_batches}: its first and last sequence (the events are
     * consecutive), then per column an array with one element per event.
     */
    private void copyEvents(final CopyManager copy, final EventBatch batch) throws SQLException {
        out.reset();
        final int events = batch.size();
        if (events == 0) {
            return;
        }
        for (int i = 0; i < events; i++) {
            final EngineEvent e = batch.get(i);
            if (e.type != EventType.ORDER_ACCEPTED && e.type != EventType.TRADE && e.type != EventType.ORDER_UPDATED
                    && e.type != EventType.ORDER_AMENDED && e.type != EventType.BALANCE_CHANGED) {
                throw new IllegalStateException("event " + e.eventSequence + " of type " + e.type
                        + " is not persisted");
            }
            if (i > 0 && e.eventSequence != batch.get(i - 1).eventSequence + 1) {
                throw new IllegalStateException("a batch's events must be consecutive: " + e.eventSequence
                        + " follows " + batch.get(i - 1).eventSequence);
            }
        }
        out.number(batch.get(0).eventSequence).number(batch.get(events - 1).eventSequence);
        for (final EventColumn column : EventColumn.all()) {
            out.beginArray(column.elementOid, events);
            for (int i = 0; i < events; i++) {
                final EngineEvent e = batch.get(i);
                if (e.type == EventType.BALANCE_CHANGED) {
                    column.writeBalance(out, e);
                } else {
                    column.write(out, e, instruments.of(e.symbol));
                }
            }
            out.endArray();
        }
        out.endRow();
        copyIn(copy, COPY_EVENTS);
    }

    /** Applies the balances the last {@link #copy} staged; after the claim of the mark, like the order changes. */
    void applyBalances(final Connection connection) throws SQLException {
        BalanceCopy.apply(connection, stagedBalances);
    }

    private void copyTrades(final CopyManager copy, final EventBatch batch) throws SQLException {
        out.reset();
        for (int i = 0; i < batch.size(); i++) {
            final EngineEvent e = batch.get(i);
            if (e.type != EventType.TRADE) {
                continue;
            }
            final InstrumentColumns.Columns symbol = instruments.of(e.symbol);
            out.number(e.tradeId).number(e.eventSequence).text(symbol.name()).decimal(e.price, symbol.price())
                    .decimal(e.quantity, symbol.quantity()).name(e.takerSide).number(e.takerOrderId)
                    .text(e.takerAccountId).number(e.makerOrderId).text(e.makerAccountId)
                    .timestamp(e.timestampMicros);
            out.endRow();
        }
        copyIn(copy, COPY_TRADES);
    }

    private void copyNewOrders(final CopyManager copy) throws SQLException {
        out.reset();
        for (final OrderFold.Row row : fold.newRows()) {
            final InstrumentColumns.Columns symbol = instruments.of(row.symbol);
            out.number(row.orderId).text(row.clientOrderId).text(row.accountId).text(symbol.name())
                    .name(row.side).name(row.type).name(row.timeInForce).bool(row.postOnly)
                    .name(row.selfTradePrevention);
            price(row.price, symbol);
            out.decimal(row.quantity, symbol.quantity()).name(row.status)
                    .decimal(row.filledQuantity, symbol.quantity()).decimal(row.remainingQuantity, symbol.quantity())
                    .name(rejectReason(row.rejectReason)).timestamp(row.createdAtMicros)
                    .timestamp(row.updatedAtMicros).number(row.lastSequence);
            out.endRow();
        }
        copyIn(copy, COPY_ORDERS);
    }

    /** COPYs the changes of orders stored before this batch into the staging table; @return how many */
    private int stageUpdates(final CopyManager copy) throws SQLException {
        final List<OrderFold.Row> rows = fold.updateRows();
        if (rows.isEmpty()) {
            return 0;
        }
        out.reset();
        for (final OrderFold.Row row : rows) {
            final InstrumentColumns.Columns symbol = instruments.of(row.symbol);
            out.number(row.orderId);
            price(row.price, symbol);
            if (row.quantity == 0) {
                out.nullValue();
            } else {
                out.decimal(row.quantity, symbol.quantity());
            }
            out.name(row.status).decimal(row.filledQuantity, symbol.quantity());
            if (row.remainingQuantity < 0) {
                out.nullValue();
            } else {
                out.decimal(row.remainingQuantity, symbol.quantity());
            }
            out.name(rejectReason(row.rejectReason)).timestamp(row.updatedAtMicros).number(row.lastSequence);
            out.endRow();
        }
        copyIn(copy, COPY_UPDATES);
        return rows.size();
    }

    private void price(final long ticks, final InstrumentColumns.Columns symbol) {
        if (ticks == 0) {
            out.nullValue();
        } else {
            out.decimal(ticks, symbol.price());
        }
    }

    private void copyIn(final CopyManager copy, final String sql) throws SQLException {
        copyIn(copy, out, sql);
    }

    /** Sends the rows {@code rows} holds with {@code sql} ({@code COPY ... FROM STDIN}); nothing when it holds none. */
    static void copyIn(final CopyManager copy, final CopyBinary rows, final String sql) throws SQLException {
        if (rows.length() == 0) {
            return;
        }
        final CopyIn in = copy.copyIn(sql);
        try {
            in.writeToCopy(rows.bytes(), 0, rows.length());
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
}
