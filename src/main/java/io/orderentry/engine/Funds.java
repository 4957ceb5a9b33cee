package io.orderentry.engine;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Pre-trade risk ({@code ORDERS_RISK=balances}): each account's balances, held by the orders it places and settled by
 * its trades, inside the {@link Matcher} and under its determinism (no clock, no I/O). The matcher calls it at the
 * points its class documentation lists under "Balances"; every change is one {@link EventSink#balanceChanged} event
 * carrying the next engine event sequence and the account's new balance of that asset.
 *
 * <h2>What is held</h2>
 * A LIMIT BUY holds {@code price x quantity} of its quote asset, a SELL (LIMIT or MARKET) its quantity of the base
 * asset; a MARKET BUY holds nothing and pays each trade from available. What an open order holds is always what its
 * remainder would need at its own price, so the held balance of an account is the sum over its resting orders and is
 * checked against them when a snapshot is restored.
 *
 * <h2>Settlement of one trade, and the order of its events</h2>
 * At the trade price {@code t} for {@code q} lots: the buyer pays {@code t x q} of the quote (a LIMIT BUY from what it
 * held at its own price, getting the difference back into available; a MARKET BUY from available) and receives
 * {@code q} of the base less its fee; the seller pays {@code q} of the base from held and receives {@code t x q} of the
 * quote less its fee. A fee is the maker's or the taker's rate of what that side receives, rounded down to the asset's
 * unit, and goes to the fee account. Events, each only when something changed: the taker's paid asset, its received
 * asset, the maker's paid asset, its received asset, then the fee account's receipt of the taker's fee and of the
 * maker's fee. Nothing is created or lost: per asset, the sum over all accounts of available plus held changes only by
 * funding, which {@link #supply} counts.
 *
 * <h2>Funding</h2>
 * {@link #fund}: idempotent on its reference, remembered for as long as the engine's state lives (snapshots carry
 * them; each costs about a hundred bytes). A withdrawal beyond available, or a deposit that would take the asset's
 * supply past {@link RiskRules#MAX_SUPPLY}, changes nothing and is not remembered.
 *
 * <p>Not thread safe: the matcher thread only. Holding and settling allocate nothing once the table has grown.
 */
final class Funds {

    /** What one applied funding answered, for its retries. */
    private record Funding(String accountId, int asset, long amount, long available, long held, long sequence) {
    }

    private final Matcher matcher;
    private final EventSink sink;
    RiskRules rules;
    final BalanceTable table;
    /** Per asset, everything funded minus everything withdrawn: the sum over all accounts of available plus held. */
    final long[] supply;
    private final Map<String, Funding> fundings = new LinkedHashMap<>();
    private int feeRow = -1;

    Funds(final RiskRules rules, final Matcher matcher, final EventSink sink, final int initialAccounts) {
        this.rules = rules;
        this.matcher = matcher;
        this.sink = sink;
        this.table = new BalanceTable(rules.assetCount(), initialAccounts);
        this.supply = new long[rules.assetCount()];
    }

    /** @return the asset an order on this side holds: the quote for a BUY, the base for a SELL */
    int heldAsset(final int symbol, final Side side) {
        return side == Side.BUY ? rules.quoteAsset(symbol) : rules.baseAsset(symbol);
    }

    /**
     * @return what an order of {@code quantity} lots at {@code price} holds, in units of {@link #heldAsset};
     *         {@link Long#MAX_VALUE} when that does not fit in a long (more than any balance)
     */
    long required(final int symbol, final Side side, final long price, final long quantity) {
        return side == Side.BUY
                ? RiskRules.saturatedProduct(RiskRules.saturatedProduct(price, quantity),
                        rules.quoteUnitsPerPriceLot(symbol))
                : RiskRules.saturatedProduct(quantity, rules.baseUnitsPerLot(symbol));
    }

    /** @return the account's row in the table (rows never move), -1 for an account that has no balances */
    int row(final String accountId) {
        return table.find(accountId);
    }

    /** @return true when the available balance of the account in {@code row} (-1: none) covers {@code amount} */
    boolean covers(final int row, final int asset, final long amount) {
        return row >= 0 && amount <= table.available[table.cell(row, asset)];
    }

    /** Moves {@code amount} (positive: a hold, negative: a release) between available and held of {@code row}. */
    void hold(final long timestampMicros, final int row, final long orderId, final int asset, final long amount) {
        if (amount != 0) {
            change(timestampMicros, row, asset, -amount, amount, 0,
                    amount > 0 ? BalanceCause.HOLD : BalanceCause.RELEASE, orderId, 0, null);
        }
    }

    /** Returns to available what an order's remainder of {@code remaining} lots at {@code price} held. */
    void release(final long timestampMicros, final int row, final long orderId, final int symbol, final Side side,
                 final long price, final long remaining) {
        if (remaining > 0) {
            hold(timestampMicros, row, orderId, heldAsset(symbol, side), -required(symbol, side, price, remaining));
        }
    }

    /** @return how many lots at {@code price} the available quote of {@code row} (-1: none) pays for */
    long affordableLots(final int row, final int symbol, final long price) {
        if (row < 0) {
            return 0;
        }
        final long perLot = RiskRules.saturatedProduct(price, rules.quoteUnitsPerPriceLot(symbol));
        return table.available[table.cell(row, rules.quoteAsset(symbol))] / perLot;
    }

    /**
     * Settles one trade; see the class documentation.
     *
     * @param takerRow   the taker's account's row
     * @param takerLimit the taker's price, 0 for a MARKET order
     * @param makerRow   the maker's account's row ({@link Order#balanceRow})
     */
    void settle(final long timestampMicros, final long tradeId, final int symbol, final long price,
                final long quantity, final Side takerSide, final int takerRow, final long takerOrderId,
                final long takerLimit, final int makerRow, final long makerOrderId) {
        final int base = rules.baseAsset(symbol);
        final int quote = rules.quoteAsset(symbol);
        final long perPriceLot = rules.quoteUnitsPerPriceLot(symbol);
        final long notional = price * quantity * perPriceLot;
        final long baseAmount = quantity * rules.baseUnitsPerLot(symbol);
        final long takerFee;
        final long makerFee;
        final int takerReceives;
        final int makerReceives;
        if (takerSide == Side.BUY) {
            takerReceives = base;
            makerReceives = quote;
            takerFee = RiskRules.fee(baseAmount, rules.takerFeeRate(symbol));
            makerFee = RiskRules.fee(notional, rules.makerFeeRate(symbol));
            if (takerLimit == 0) {
                change(timestampMicros, takerRow, quote, -notional, 0, 0, BalanceCause.TRADE, takerOrderId, tradeId,
                        null);
            } else {
                final long held = takerLimit * quantity * perPriceLot;
                change(timestampMicros, takerRow, quote, held - notional, -held, 0, BalanceCause.TRADE, takerOrderId,
                        tradeId, null);
            }
            change(timestampMicros, takerRow, base, baseAmount - takerFee, 0, takerFee, BalanceCause.TRADE,
                    takerOrderId, tradeId, null);
            change(timestampMicros, makerRow, base, 0, -baseAmount, 0, BalanceCause.TRADE, makerOrderId, tradeId,
                    null);
            change(timestampMicros, makerRow, quote, notional - makerFee, 0, makerFee, BalanceCause.TRADE,
                    makerOrderId, tradeId, null);
        } else {
            takerReceives = quote;
            makerReceives = base;
            takerFee = RiskRules.fee(notional, rules.takerFeeRate(symbol));
            makerFee = RiskRules.fee(baseAmount, rules.makerFeeRate(symbol));
            change(timestampMicros, takerRow, base, 0, -baseAmount, 0, BalanceCause.TRADE, takerOrderId, tradeId,
                    null);
            change(timestampMicros, takerRow, quote, notional - takerFee, 0, takerFee, BalanceCause.TRADE,
                    takerOrderId, tradeId, null);
            change(timestampMicros, makerRow, quote, 0, -notional, 0, BalanceCause.TRADE, makerOrderId, tradeId,
                    null);
            change(timestampMicros, makerRow, base, baseAmount - makerFee, 0, makerFee, BalanceCause.TRADE,
                    makerOrderId, tradeId, null);
        }
        if (takerFee > 0) {
            change(timestampMicros, feeRow(), takerReceives, takerFee, 0, 0, BalanceCause.FEE, takerOrderId, tradeId,
                    null);
        }
        if (makerFee > 0) {
            change(timestampMicros, feeRow(), makerReceives, makerFee, 0, 0, BalanceCause.FEE, makerOrderId, tradeId,
                    null);
        }
    }

    /**
     * Adds (a positive amount) or withdraws funds; see the class documentation. Ends the command with
     * {@link EventSink#fundingCompleted}: FUNDED after one DEPOSIT or WITHDRAWAL event; FUNDING_DUPLICATE or
     * FUNDING_MISMATCH with what the reference's funding answered; INSUFFICIENT_BALANCE or BALANCE_LIMIT_EXCEEDED with
     * the balance as it is.
     */
    void fund(final long timestampMicros, final String accountId, final int asset, final long amount,
              final String reference) {
        final Funding known = fundings.get(reference);
        if (known != null) {
            final boolean same = known.accountId.equals(accountId) && known.asset == asset && known.amount == amount;
            sink.fundingCompleted(same ? CommandResult.FUNDING_DUPLICATE : CommandResult.FUNDING_MISMATCH,
                    known.accountId, known.asset, known.available, known.held, known.sequence);
            return;
        }
        final int existing = table.find(accountId);
        final long available = existing < 0 ? 0 : table.available[table.cell(existing, asset)];
        final long held = existing < 0 ? 0 : table.held[table.cell(existing, asset)];
        final CommandResult refusal;
        if (amount < 0 && -amount > available) {
            refusal = CommandResult.INSUFFICIENT_BALANCE;
        } else if (amount > RiskRules.MAX_SUPPLY - supply[asset]) {
            refusal = CommandResult.BALANCE_LIMIT_EXCEEDED;
        } else {
            refusal = null;
        }
        if (refusal != null) {
            sink.fundingCompleted(refusal, accountId, asset, available, held, 0);
            return;
        }
        final int row = existing < 0 ? table.findOrAdd(accountId) : existing;
        supply[asset] += amount;
        change(timestampMicros, row, asset, amount, 0, 0, amount > 0 ? BalanceCause.DEPOSIT : BalanceCause.WITHDRAWAL,
                0, 0, reference);
        final int cell = table.cell(row, asset);
        final Funding done = new Funding(table.account(row), asset, amount, table.available[cell], table.held[cell],
                matcher.lastEventSequence);
        fundings.put(reference, done);
        sink.fundingCompleted(CommandResult.FUNDED, accountId, asset, done.available, done.held, done.sequence);
    }

    /** @return the account's available balance of the asset, 0 for an account without balances */
    long available(final String accountId, final int asset) {
        final int row = table.find(accountId);
        return row < 0 ? 0 : table.available[table.cell(row, asset)];
    }

    /** @return the account's held balance of the asset, 0 for an account without balances */
    long held(final String accountId, final int asset) {
        final int row = table.find(accountId);
        return row < 0 ? 0 : table.held[table.cell(row, asset)];
    }

    /**
     * Format: per instrument {@code int makerFeeRate, int takerFeeRate} (the rates in force); {@code int assets,
     * int accounts}; per account in the order it got balances {@code UTF accountId}, per
     * asset {@code long available, long held}; per asset {@code long supply}; {@code int fundings}, per funding oldest
     * first {@code UTF reference, UTF accountId, int asset, long amount, long available, long held, long sequence}.
     */
    void writeSnapshot(final DataOutput out) throws IOException {
        for (int symbol = 0; symbol < rules.symbolCount(); symbol++) {
            out.writeInt(rules.makerFeeRate(symbol));
            out.writeInt(rules.takerFeeRate(symbol));
        }
        final int assets = rules.assetCount();
        out.writeInt(assets);
        out.writeInt(table.rowCount());
        for (int row = 0; row < table.rowCount(); row++) {
            out.writeUTF(table.account(row));
            for (int asset = 0; asset < assets; asset++) {
                out.writeLong(table.available[table.cell(row, asset)]);
                out.writeLong(table.held[table.cell(row, asset)]);
            }
        }
        for (int asset = 0; asset < assets; asset++) {
            out.writeLong(supply[asset]);
        }
        out.writeInt(fundings.size());
        for (final Map.Entry<String, Funding> entry : fundings.entrySet()) {
            final Funding f = entry.getValue();
            out.writeUTF(entry.getKey());
            out.writeUTF(f.accountId);
            out.writeInt(f.asset);
            out.writeLong(f.amount);
            out.writeLong(f.available);
            out.writeLong(f.held);
            out.writeLong(f.sequence);
        }
    }

    /**
     * Reads what {@link #writeSnapshot} wrote into this new instance. The caller then checks that the held balances
     * are what the restored resting orders hold ({@link #checkHeld}).
     *
     * @param symbols  the instruments the snapshot holds (the rest keep the rates they start with)
     * @param accounts the account names already restored, to share their strings
     * @throws IOException on a malformed snapshot, another number of assets, or balances that do not add up to the
     *                     supply
     */
    void restoreSnapshot(final DataInput in, final int symbols, final Map<String, String> accounts)
            throws IOException {
        for (int symbol = 0; symbol < symbols; symbol++) {
            final int maker = in.readInt();
            final int taker = in.readInt();
            if (maker < 0 || maker > RiskRules.MAX_FEE_RATE || taker < 0 || taker > RiskRules.MAX_FEE_RATE) {
                throw new IOException("engine snapshot: fee rates " + maker + "/" + taker + " of instrument " + symbol);
            }
            rules = rules.withFees(symbol, maker, taker);
        }
        final int assets = in.readInt();
        if (assets != rules.assetCount()) {
            throw new IOException("engine snapshot: balances of " + assets + " assets, " + rules.assetCount()
                    + " are configured");
        }
        final int rows = in.readInt();
        if (rows < 0) {
            throw new IOException("engine snapshot: " + rows + " accounts with balances");
        }
        final long[] sums = new long[assets];
        for (int r = 0; r < rows; r++) {
            final String accountId = accounts.computeIfAbsent(in.readUTF(), a -> a);
            final int row = table.findOrAdd(accountId);
            if (row != r) {
                throw new IOException("engine snapshot: account " + accountId + " has balances twice");
            }
            for (int asset = 0; asset < assets; asset++) {
                final long available = in.readLong();
                final long held = in.readLong();
                if (available < 0 || held < 0 || available > RiskRules.MAX_SUPPLY || held > RiskRules.MAX_SUPPLY) {
                    throw new IOException("engine snapshot: bad balance of " + accountId + ": " + available + " / "
                            + held);
                }
                table.available[table.cell(row, asset)] = available;
                table.held[table.cell(row, asset)] = held;
                sums[asset] += available + held;
            }
        }
        for (int asset = 0; asset < assets; asset++) {
            supply[asset] = in.readLong();
            if (supply[asset] != sums[asset]) {
                throw new IOException("engine snapshot: the balances of " + rules.asset(asset) + " add up to "
                        + sums[asset] + ", not to its supply " + supply[asset]);
            }
        }
        final int count = in.readInt();
        if (count < 0) {
            throw new IOException("engine snapshot: " + count + " fundings");
        }
        for (int i = 0; i < count; i++) {
            final String reference = in.readUTF();
            final String accountId = accounts.computeIfAbsent(in.readUTF(), a -> a);
            final int asset = in.readInt();
            final Funding f = new Funding(accountId, asset, in.readLong(), in.readLong(), in.readLong(),
                    in.readLong());
            if (asset < 0 || asset >= assets || f.amount == 0 || fundings.put(reference, f) != null) {
                throw new IOException("engine snapshot: bad funding " + reference);
            }
        }
        feeRow = table.find(rules.feeAccount());
    }

    /**
     * Checks that every account's held balances are exactly what its resting orders hold (each order's
     * {@link Order#balanceRow} set).
     *
     * @throws IOException naming the first account and asset where they differ
     */
    void checkHeld(final Iterable<Order> resting) throws IOException {
        final long[] expected = new long[table.rowCount() * rules.assetCount()];
        for (final Order order : resting) {
            final int symbol = order.level.side.symbol();
            final Side side = order.level.side.side();
            final int row = order.balanceRow;
            if (row < 0) {
                throw new IOException("engine snapshot: order " + order.orderId + " rests for an account without "
                        + "balances");
            }
            expected[table.cell(row, heldAsset(symbol, side))] += required(symbol, side, order.level.price,
                    order.remaining());
        }
        for (int row = 0; row < table.rowCount(); row++) {
            for (int asset = 0; asset < rules.assetCount(); asset++) {
                final int cell = table.cell(row, asset);
                if (expected[cell] != table.held[cell]) {
                    throw new IOException("engine snapshot: " + table.account(row) + " holds " + table.held[cell]
                            + " of " + rules.asset(asset) + ", its resting orders " + expected[cell]);
                }
            }
        }
    }

    private int feeRow() {
        if (feeRow < 0) {
            feeRow = table.findOrAdd(rules.feeAccount());
        }
        return feeRow;
    }

    private void change(final long timestampMicros, final int row, final int asset, final long availableChange,
                        final long heldChange, final long fee, final BalanceCause cause, final long orderId,
                        final long tradeId, final String reference) {
        final int cell = table.cell(row, asset);
        final long available = table.available[cell] += availableChange;
        final long held = table.held[cell] += heldChange;
        sink.balanceChanged(++matcher.lastEventSequence, timestampMicros, table.account(row), asset, available, held,
                availableChange, heldChange, fee, cause, orderId, tradeId, reference);
    }
}
