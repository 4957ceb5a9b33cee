package io.orderentry.persistence;

import io.orderentry.engine.RiskRules;
import io.orderentry.pipeline.EngineEvent;
import io.orderentry.pipeline.EventType;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.postgresql.copy.CopyManager;

/**
 * A batch's balance changes ({@code ORDERS_RISK=balances}; {@code V7__balances.sql}): every BALANCE_CHANGED event as an
 * element of the ledger, packed per batch into one row of {@code balance_ledger_batches} (one array per column, read
 * through the view {@code balance_ledger}; exactly once, like the other tables), and
 * each account's last balance of each asset in the batch staged into {@code balance_updates_stage}, which the sink
 * applies to {@code balances} once it has claimed the high-water mark, so that batches apply in sequence order.
 * Amounts are exact NUMERICs at the asset's scale.
 *
 * <p>Threads: owned by the sink's lane thread, like {@link BatchCopy}.
 */
final class BalanceCopy {

    private static final String BINARY = " WITH (FORMAT binary)";
    private static final String COPY_LEDGER = "COPY balance_ledger_batches (first_sequence, last_sequence, sequence,"
            + " command_sequence, occurred_at, account_id, asset, cause, available_change, held_change, fee, available,"
            + " held, order_id, trade_id, reference) FROM STDIN" + BINARY;
    private static final String COPY_STAGE = "COPY balance_updates_stage (account_id, asset, available, held,"
            + " updated_at, last_sequence) FROM STDIN" + BINARY;
    /** Created on every connection of a sink (a temporary table is the session's). */
    static final String CREATE_STAGE = "CREATE TEMPORARY TABLE IF NOT EXISTS balance_updates_stage ("
            + "account_id TEXT, asset TEXT, available NUMERIC, held NUMERIC, updated_at TIMESTAMPTZ,"
            + " last_sequence BIGINT) ON COMMIT DELETE ROWS";
    private static final String APPLY = "INSERT INTO balances AS b (account_id, asset, available, held, updated_at,"
            + " last_sequence) SELECT account_id, asset, available, held, updated_at, last_sequence"
            + " FROM balance_updates_stage ON CONFLICT (account_id, asset) DO UPDATE SET available = EXCLUDED.available,"
            + " held = EXCLUDED.held, updated_at = EXCLUDED.updated_at, last_sequence = EXCLUDED.last_sequence"
            + " WHERE b.last_sequence < EXCLUDED.last_sequence";

    private final RiskRules risk;
    private final CopyBinary.Units[] units;
    private final CopyBinary out = new CopyBinary();
    /** Per account, per asset: the index + 1 in the batch of its last balance event (0: none). */
    private final Map<String, int[]> last = new HashMap<>();
    private final List<EngineEvent> staged = new ArrayList<>();
    /** The batch's balance events, in sequence order. */
    private final List<EngineEvent> ledger = new ArrayList<>();

    /** @param risk the engine's rules (asset names and scales), null without balances */
    BalanceCopy(final RiskRules risk) {
        this.risk = risk;
        this.units = new CopyBinary.Units[risk == null ? 0 : risk.assetCount()];
        for (int asset = 0; asset < units.length; asset++) {
            units[asset] = CopyBinary.Units.of(BigDecimal.ONE.movePointLeft(risk.scale(asset)));
        }
    }

    /**
     * COPYs the batch's ledger rows and stages its balances.
     *
     * @return how many balances were staged, for {@link #apply}
     * @throws IllegalStateException when the batch holds balance events and this service runs without balances
     */
    int copy(final CopyManager copy, final EventBatch batch) throws SQLException {
        last.clear();
        staged.clear();
        ledger.clear();
        for (int i = 0; i < batch.size(); i++) {
            final EngineEvent e = batch.get(i);
            if (e.type != EventType.BALANCE_CHANGED) {
                continue;
            }
            if (risk == null) {
                throw new IllegalStateException("event " + e.eventSequence + " is a balance change, but persistence"
                        + " was opened without balances");
            }
            ledger.add(e);
            last.computeIfAbsent(e.accountId, a -> new int[risk.assetCount()])[e.asset] = i + 1;
        }
        copyLedger(copy);
        out.reset();
        for (final int[] indexes : last.values()) {
            for (final int index : indexes) {
                if (index > 0) {
                    final EngineEvent e = batch.get(index - 1);
                    final CopyBinary.Units unit = units[e.asset];
                    out.text(e.accountId).text(risk.asset(e.asset)).decimal(e.available, unit).decimal(e.held, unit)
                            .timestamp(e.timestampMicros).number(e.eventSequence);
                    out.endRow();
                    staged.add(e);
                }
            }
        }
        copyIn(copy, COPY_STAGE);
        return staged.size();
    }

    /** The batch's balance events as one row of {@code balance_ledger_batches}: one array per column. */
    private void copyLedger(final CopyManager copy) throws SQLException {
        out.reset();
        final int n = ledger.size();
        if (n == 0) {
            return;
        }
        out.number(ledger.get(0).eventSequence).number(ledger.get(n - 1).eventSequence);
        out.beginArray(CopyBinary.BIGINT_OID, n);
        ledger.forEach(e -> out.number(e.eventSequence));
        out.endArray().beginArray(CopyBinary.BIGINT_OID, n);
        ledger.forEach(e -> out.number(e.commandSequence));
        out.endArray().beginArray(CopyBinary.TIMESTAMPTZ_OID, n);
        ledger.forEach(e -> out.timestamp(e.timestampMicros));
        out.endArray().beginArray(CopyBinary.TEXT_OID, n);
        ledger.forEach(e -> out.text(e.accountId));
        out.endArray().beginArray(CopyBinary.TEXT_OID, n);
        ledger.forEach(e -> out.text(risk.asset(e.asset)));
        out.endArray().beginArray(CopyBinary.TEXT_OID, n);
        ledger.forEach(e -> out.name(e.balanceCause));
        out.endArray().beginArray(CopyBinary.NUMERIC_OID, n);
        ledger.forEach(e -> out.decimal(e.availableChange, units[e.asset]));
        out.endArray().beginArray(CopyBinary.NUMERIC_OID, n);
        ledger.forEach(e -> out.decimal(e.heldChange, units[e.asset]));
        out.endArray().beginArray(CopyBinary.NUMERIC_OID, n);
        ledger.forEach(e -> out.decimal(e.fee, units[e.asset]));
        out.endArray().beginArray(CopyBinary.NUMERIC_OID, n);
        ledger.forEach(e -> out.decimal(e.available, units[e.asset]));
        out.endArray().beginArray(CopyBinary.NUMERIC_OID, n);
        ledger.forEach(e -> out.decimal(e.held, units[e.asset]));
        out.endArray().beginArray(CopyBinary.BIGINT_OID, n);
        ledger.forEach(e -> optional(e.orderId));
        out.endArray().beginArray(CopyBinary.BIGINT_OID, n);
        ledger.forEach(e -> optional(e.tradeId));
        out.endArray().beginArray(CopyBinary.TEXT_OID, n);
        ledger.forEach(e -> out.text(e.reference));
        out.endArray();
        out.endRow();
        copyIn(copy, COPY_LEDGER);
    }

    /** Applies what {@link #copy} staged to {@code balances}; after the claim of the mark, in the same transaction. */
    static void apply(final Connection connection, final int staged) throws SQLException {
        if (staged == 0) {
            return;
        }
        try (Statement statement = connection.createStatement()) {
            final int applied = statement.executeUpdate(APPLY);
            if (applied != staged) {
                throw new IllegalStateException(staged + " balances changed in this batch but " + applied + " were"
                        + " applied: the database holds a newer balance than the events it has");
            }
        }
    }

    private void optional(final long id) {
        if (id == 0) {
            out.nullValue();
        } else {
            out.number(id);
        }
    }

    private void copyIn(final CopyManager copy, final String sql) throws SQLException {
        BatchCopy.copyIn(copy, out, sql);
    }
}
