package io.orderentry.query;

import io.orderentry.engine.SelfTradePrevention;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The snapshot format of an {@link OrderStateView}, and its writer: writes the view's complete state (every held
 * order with its fills, the open orders by account, the eviction ring and the applied sequence) in the format
 * described at {@link #write}; {@link OrderStateViewRestore} reads it back into a fresh view, and {@link SnapshotCodec}
 * holds its byte-level pieces.
 *
 * <p>It reads the view's chunked arrays directly, a frame or a block at a time, so that the cost per order stays a
 * few array accesses. One instance serves one write, on the view's writer thread or while no writer runs.
 */
final class OrderStateViewSnapshot extends ViewArrays {


    OrderStateViewSnapshot(final OrderStateView view) {
        super(view);
    }

    /**
     * Writes the view's complete state. Call on the view's writer thread, or when no writer runs.
     *
     * <p>The format, in {@link DataOutput} terms (big-endian; "UTF" is {@code writeUTF}):
     * <ol>
     *   <li>{@code int} version (2);</li>
     *   <li>the enum constants' names, so that a later build maps them by name: for side, order type, time in
     *       force, status, reject reason and self-trade prevention in turn, {@code int} count and each name as UTF;
     *       the enum bytes of the rows below index these lists;</li>
     *   <li>{@code long} applied sequence, {@code long} published sequence
     *       ({@link OrderStateView#lastEventSequence});</li>
     *   <li>{@code int} account count and each account as UTF, once: rows and open lists refer to them by index;</li>
     *   <li>{@code int} order count, then the orders in frames of up to 256: first the frame's rows, 95 bytes each:
     *       {@code long} id, {@code int} account (-1 for none), {@code int} symbol, {@code byte} side, type, time in
     *       force, post-only (0/1), status, reject reason, {@code int} clientOrderId length in bytes (-1 for none),
     *       {@code int} fill count, {@code long} price, quantity, filled, remaining, filled notional, sequence,
     *       created and updated micros, {@code byte} self-trade prevention; then the frame's clientOrderIds, in
     *       modified UTF-8 as UTF writes them but
     *       without length; then the frame's fills, order by order and oldest first, 33 bytes each: {@code long}
     *       trade id, price, quantity, micros, {@code byte} taker (0/1);</li>
     *   <li>{@code int} count of accounts with open orders, then per account its index, {@code int} count and the
     *       open order ids ascending;</li>
     *   <li>{@code long} count of orders that ever became final, {@code int} retained count and the retained final
     *       order ids, oldest (the next to be forgotten) first.</li>
     * </ol>
     * Rows, fills and ids move a block at a time: the cost per order is a few array accesses, not calls.
     *
     * <p>Version 1, which {@link OrderStateViewRestore#restore} still reads, had no self-trade prevention names and
     * 94-byte rows without its byte: its orders read as {@link SelfTradePrevention#NONE}, which is what the engine
     * gave them.
     *
     * @throws java.io.UTFDataFormatException if a clientOrderId or account is longer than UTF can write
     */
    void write(final DataOutput out) throws IOException {
        out.writeInt(SnapshotCodec.VERSION);
        SnapshotCodec.writeNames(out, SIDES);
        SnapshotCodec.writeNames(out, TYPES);
        SnapshotCodec.writeNames(out, TIFS);
        SnapshotCodec.writeNames(out, STATUSES);
        SnapshotCodec.writeNames(out, REASONS);
        SnapshotCodec.writeNames(out, STPS);
        out.writeLong(view.appliedSequence);
        out.writeLong(view.lastEventSequence);

        // free slots hold no account, so these are the held orders' accounts (and the open lists', the same ones)
        final Map<String, Integer> accountRefs = new HashMap<>();
        final List<String> accountNames = new ArrayList<>();
        for (int slot = 0; slot < view.slotsUsed; slot++) {
            addAccount(accountRefs, accountNames, accounts[slot >>> SHIFT][slot & MASK]);
        }
        final List<String> openAccounts = new ArrayList<>();
        final List<long[]> openIds = new ArrayList<>();
        view.openLists.forEach((account, orderIds) -> {
            openAccounts.add(account);
            openIds.add(orderIds);
        });
        for (final String account : openAccounts) {
            addAccount(accountRefs, accountNames, account);
        }
        out.writeInt(accountNames.size());
        for (final String account : accountNames) {
            out.writeUTF(account);
        }

        final int orders = view.index.size();
        out.writeInt(orders);
        final SnapshotBuffers buffers = new SnapshotBuffers();
        final int written = writeOrders(out, buffers, accountRefs);
        if (written != orders) {
            throw new IllegalStateException("the view holds " + written + " orders but indexes " + orders);
        }

        out.writeInt(openAccounts.size());
        for (int a = 0; a < openAccounts.size(); a++) {
            final long[] open = openIds.get(a);     // ascending
            out.writeInt(accountRefs.get(openAccounts.get(a)));
            out.writeInt(open.length);
            SnapshotCodec.writeLongs(out, buffers.block, open, 0, open.length);
        }

        final FinalOrderRetention ring = view.retention;
        final int retained = (int) Math.min(ring.finalCount, ring.finalOrders.length);
        out.writeLong(ring.finalCount);
        out.writeInt(retained);
        // oldest first: from the ring slot to be overwritten next, wrapping around
        final int oldest = retained < ring.finalOrders.length ? 0
                : (int) (ring.finalCount % ring.finalOrders.length);
        final int tail = Math.min(retained, ring.finalOrders.length - oldest);
        SnapshotCodec.writeLongs(out, buffers.block, ring.finalOrders, oldest, tail);
        SnapshotCodec.writeLongs(out, buffers.block, ring.finalOrders, 0, retained - tail);
    }

    /**
     * Writes every held order, in frames; its own method (as {@link OrderStateViewRestore} reads a frame in one), so
     * that the compiler has small loops to compile early rather than one large method to compile on the fly.
     *
     * @return how many orders it wrote
     */
    private int writeOrders(final DataOutput out, final SnapshotBuffers buffers,
                            final Map<String, Integer> accountRefs) throws IOException {
        int written = 0;
        int framed = 0;
        for (int slot = 0; slot < view.slotsUsed; slot++) {
            if (ids[slot >>> SHIFT][slot & MASK] == 0) {
                continue;       // a free slot
            }
            writeRow(buffers, framed++, slot, accountRefs);
            if (framed == SnapshotCodec.FRAME) {
                writeFrame(out, buffers, framed);
                written += framed;
                framed = 0;
            }
        }
        if (framed > 0) {
            writeFrame(out, buffers, framed);
            written += framed;
        }
        return written;
    }

    /** Puts the slot's row into the frame at {@code row}, and its clientOrderId after the frame's others. */
    private void writeRow(final SnapshotBuffers buffers, final int row, final int slot,
                          final Map<String, Integer> accountRefs) throws IOException {
        final int c = slot >>> SHIFT;
        final int i = slot & MASK;
        final String account = accounts[c][i];
        final String clientOrderId = clientOrderIds.get(slot);
        final int clientOrderIdBytes = clientOrderId == null ? NO_CLIENT_ORDER_ID
                : SnapshotCodec.utfLength(clientOrderId);
        if (clientOrderIdBytes > 0) {
            buffers.reserveStrings(clientOrderIdBytes);
            buffers.stringBytes = SnapshotCodec.putUtf(buffers.strings, buffers.stringBytes, clientOrderId);
        }
        final int kind = kinds[c][i];
        final byte[] rows = buffers.rows;
        final int at = row * SnapshotCodec.ROW_BYTES;
        SnapshotCodec.putLong(rows, at, ids[c][i]);
        SnapshotCodec.putInt(rows, at + 8, account == null ? NO_ACCOUNT : accountRefs.get(account));
        SnapshotCodec.putInt(rows, at + 12, symbols[c][i]);
        rows[at + 16] = (byte) (kind & 0xff);
        rows[at + 17] = (byte) ((kind >>> TYPE_SHIFT) & 0xf);
        rows[at + 18] = (byte) ((kind >>> 16) & 0x7f);
        rows[at + 19] = (byte) ((kind >>> 23) & 1);
        rows[at + 20] = (byte) ((kind >>> 24) & 0xf);
        rows[at + 21] = (byte) (kind >>> 28);
        SnapshotCodec.putInt(rows, at + 22, clientOrderIdBytes);
        SnapshotCodec.putInt(rows, at + 26, fillCounts[c][i]);
        SnapshotCodec.putLong(rows, at + 30, prices[c][i]);
        SnapshotCodec.putLong(rows, at + 38, quantities[c][i]);
        SnapshotCodec.putLong(rows, at + 46, filled[c][i]);
        SnapshotCodec.putLong(rows, at + 54, remaining[c][i]);
        SnapshotCodec.putLong(rows, at + 62, notionals[c][i]);
        SnapshotCodec.putLong(rows, at + 70, sequences[c][i]);
        SnapshotCodec.putLong(rows, at + 78, createdAt[c][i]);
        SnapshotCodec.putLong(rows, at + 86, updatedAt[c][i]);
        rows[at + 94] = (byte) ((kind >>> STP_SHIFT) & 0x3);
        buffers.slots[row] = slot;
    }

    /** Writes the frame's rows, clientOrderIds and fills. */
    private void writeFrame(final DataOutput out, final SnapshotBuffers buffers, final int framed)
            throws IOException {
        out.write(buffers.rows, 0, framed * SnapshotCodec.ROW_BYTES);
        out.write(buffers.strings, 0, buffers.stringBytes);
        buffers.stringBytes = 0;
        for (int f = 0; f < framed; f++) {
            writeFills(out, buffers, buffers.slots[f]);
        }
    }

    /** Writes the slot's fills oldest first (its chain links them newest first). */
    private void writeFills(final DataOutput out, final SnapshotBuffers buffers, final int slot) throws IOException {
        final int c = slot >>> SHIFT;
        final int i = slot & MASK;
        final int count = fillCounts[c][i];
        if (count == 0) {
            return;
        }
        if (buffers.chain.length < count) {
            buffers.chain = new int[Math.max(count, buffers.chain.length * 2)];
        }
        final int[] chain = buffers.chain;
        int entry = lastFills[c][i];
        for (int f = count - 1; f >= 0; f--) {
            chain[f] = entry;
            entry = (fillLinks[entry >>> SHIFT][entry & MASK] >> 1) - 1;
        }
        final byte[] block = buffers.block;
        for (int done = 0; done < count; ) {
            final int fills = Math.min(SnapshotCodec.BLOCK, count - done);
            for (int k = 0; k < fills; k++, done++) {
                final int fill = chain[done];
                final int fc = fill >>> SHIFT;
                final int fi = fill & MASK;
                final int at = k * SnapshotCodec.FILL_BYTES;
                SnapshotCodec.putLong(block, at, fillTradeIds[fc][fi]);
                SnapshotCodec.putLong(block, at + 8, fillPrices[fc][fi]);
                SnapshotCodec.putLong(block, at + 16, fillQuantities[fc][fi]);
                SnapshotCodec.putLong(block, at + 24, fillTimes[fc][fi]);
                block[at + 32] = (byte) (fillLinks[fc][fi] & 1);
            }
            out.write(block, 0, fills * SnapshotCodec.FILL_BYTES);
        }
    }

    /** Gives {@code account} the next index if it has none yet. */
    private static void addAccount(final Map<String, Integer> refs, final List<String> names, final String account) {
        if (account != null && refs.putIfAbsent(account, names.size()) == null) {
            names.add(account);
        }
    }
}
