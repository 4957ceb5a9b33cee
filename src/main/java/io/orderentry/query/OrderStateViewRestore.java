package io.orderentry.query;

import io.orderentry.engine.SelfTradePrevention;
import java.io.DataInput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads an {@link OrderStateView} snapshot (the format {@link OrderStateViewSnapshot#write} describes) back into a
 * fresh view, which then answers and applies later events exactly as the written one would; slot numbers are not
 * kept. Every malformed or truncated input is an {@link IOException}, never a half-restored view left in use.
 *
 * <p>It fills the view's chunked arrays directly, a frame or a block at a time. One instance serves one restore,
 * before any writer or reader uses the view.
 */
final class OrderStateViewRestore extends ViewArrays {

    private static final int NONE = OrderStateView.NONE;
    /** Orders, fills, accounts and retained ids a snapshot may hold: what the chunked arrays can. */
    private static final int MAX_ENTRIES = OrderStateView.MAX_CHUNKS * SlotVersions.CHUNK;

    OrderStateViewRestore(final OrderStateView view) {
        super(view);
    }

    /**
     * Restores a state written by {@link OrderStateViewSnapshot#write} into the view, which must be freshly
     * constructed (nothing applied yet); call before any writer or reader uses it. The retention bound is this view's
     * own (constructor argument): if the snapshot holds more retained final orders than it allows, the oldest are
     * dropped, exactly as eviction would have.
     *
     * <p>Slots are filled before they are indexed, and the index is changed under its version as the writer changes
     * it, so a reader never finds a slot half restored. At the end the snapshot's applied sequence is published as
     * {@link OrderStateView#endOfBatch} publishes a batch's: a reader on another thread that sees it as
     * {@link OrderStateView#lastEventSequence} sees the whole restored state. A view whose restore threw must be
     * discarded.
     *
     * @throws java.io.IOException on a malformed or truncated input (never leave a half-restored view silently:
     *                             throw)
     * @throws IllegalStateException if this view already holds state
     */
    void restore(final DataInput in) throws IOException {
        if (view.slotsUsed != 0 || view.fillsUsed != 0 || view.retention.finalCount != 0 || view.appliedSequence != 0
                || view.openLists.accounts() != 0) {
            throw new IllegalStateException("a snapshot is restored only into a fresh view");
        }
        final int version = in.readInt();
        if (version != SnapshotCodec.VERSION && version != SnapshotCodec.VERSION_WITHOUT_STP) {
            throw new IOException("order view snapshot version " + version + ": this build reads versions "
                    + SnapshotCodec.VERSION_WITHOUT_STP + " and " + SnapshotCodec.VERSION + " only");
        }
        final int[][] ordinals = {SnapshotCodec.readNames(in, SIDES, "side"),
                SnapshotCodec.readNames(in, TYPES, "order type"),
                SnapshotCodec.readNames(in, TIFS, "time in force"),
                SnapshotCodec.readNames(in, STATUSES, "status"),
                SnapshotCodec.readNames(in, REASONS, "reject reason"),
                version == SnapshotCodec.VERSION ? SnapshotCodec.readNames(in, STPS, "self-trade prevention")
                        : new int[] {SelfTradePrevention.NONE.ordinal()}};
        final int rowBytes = version == SnapshotCodec.VERSION ? SnapshotCodec.ROW_BYTES : SnapshotCodec.ROW_BYTES_V1;
        final long applied = in.readLong();
        final long published = in.readLong();
        if (published < 0 || published > applied) {
            throw new IOException("order view snapshot: published sequence " + published + " but applied "
                    + applied);
        }

        final int accountCount = SnapshotCodec.count(in.readInt(), MAX_ENTRIES, "accounts");
        final List<String> accountNames = new ArrayList<>(Math.min(accountCount, 1024));  // grows with what is read
        for (int a = 0; a < accountCount; a++) {
            accountNames.add(in.readUTF());
        }

        final int orders = SnapshotCodec.count(in.readInt(), MAX_ENTRIES, "orders");
        final SnapshotBuffers buffers = new SnapshotBuffers();
        for (int done = 0; done < orders; done += SnapshotCodec.FRAME) {
            restoreFrame(in, buffers, Math.min(SnapshotCodec.FRAME, orders - done), rowBytes, ordinals, accountNames);
        }

        final int openAccounts = SnapshotCodec.count(in.readInt(), orders, "accounts with open orders");
        for (int a = 0; a < openAccounts; a++) {
            restoreOpenOrders(in, buffers, accountNames, orders);
        }

        final long everFinal = in.readLong();
        final int retained = SnapshotCodec.count(in.readInt(), MAX_ENTRIES, "retained final orders");
        if (everFinal < retained) {
            throw new IOException("order view snapshot: " + retained + " retained final orders of " + everFinal);
        }
        // the oldest beyond this view's bound are forgotten now, as eviction would have forgotten them
        final int dropped = Math.max(0, retained - view.retention.finalOrders.length);
        final byte[] block = buffers.block;
        for (int done = 0; done < retained; ) {
            final int count = Math.min(SnapshotCodec.BLOCK, retained - done);
            in.readFully(block, 0, count * Long.BYTES);
            for (int k = 0; k < count; k++, done++) {
                final long id = SnapshotCodec.getLong(block, k * Long.BYTES);
                if (id <= 0) {
                    throw new IOException("order view snapshot: retained final order id " + id);
                }
                if (done < dropped) {
                    view.forget(id);
                } else {
                    view.retention.finalOrders[done - dropped] = id;
                }
            }
        }
        // the ring uses finalCount only modulo its length and to tell whether it is full: the retained ids sit oldest
        // first from ring slot 0, so their count evicts them in the same order as the written view would have
        view.retention.finalCount = retained - dropped;

        view.appliedSequence = applied;
        view.lastEventSequence = applied;    // publishes everything above, as endOfBatch does for a batch
    }

    /** Reads one frame of {@code framed} orders, rows of {@code rowBytes}, into new slots, then indexes them. */
    private void restoreFrame(final DataInput in, final SnapshotBuffers buffers, final int framed, final int rowBytes,
                              final int[][] ordinals, final List<String> accountNames) throws IOException {
        final byte[] rows = buffers.rows;
        final int[] slots = buffers.slots;
        final int[] stringLengths = buffers.stringLengths;
        in.readFully(rows, 0, framed * rowBytes);
        buffers.stringBytes = 0;
        for (int f = 0; f < framed; f++) {
            slots[f] = restoreRow(rows, f * rowBytes, rowBytes, ordinals, accountNames);
            stringLengths[f] = SnapshotCodec.getInt(rows, f * rowBytes + 22);
        }
        int stringBytes = 0;
        for (int f = 0; f < framed; f++) {
            stringBytes += Math.max(0, stringLengths[f]);     // at most 256 x 65535: no overflow
        }
        buffers.reserveStrings(stringBytes);
        final byte[] strings = buffers.strings;
        in.readFully(strings, 0, stringBytes);
        for (int f = 0, at = 0; f < framed; f++) {
            if (stringLengths[f] >= 0) {
                clientOrderIds.set(slots[f], SnapshotCodec.getUtf(strings, at, stringLengths[f]));
                at += stringLengths[f];
            }
        }
        for (int f = 0; f < framed; f++) {
            restoreFills(in, buffers.block, slots[f]);
        }
        // the frame's look-ups first, so that their cache misses overlap; the inserts then find the lines cached
        for (int f = 0; f < framed; f++) {
            final long id = ids[slots[f] >>> SHIFT][slots[f] & MASK];
            if (view.index.find(id) != NONE) {
                throw new IOException("order view snapshot: order " + id + " twice");
            }
        }
        view.beginIndex();
        try {
            for (int f = 0; f < framed; f++) {
                final long id = ids[slots[f] >>> SHIFT][slots[f] & MASK];
                if (!view.index.putIfAbsent(id, slots[f])) {
                    throw new IOException("order view snapshot: order " + id + " twice");
                }
                final String account = accounts[slots[f] >>> SHIFT][slots[f] & MASK];
                final long clientKey = account == null ? 0 : clientOrderIds.key(slots[f], account);
                if (clientKey != 0) {
                    view.clientIds.put(clientKey, slots[f]);
                }
            }
        } finally {
            view.endIndex();
        }
    }

    /**
     * Reads the row at {@code at} into a new slot: every field but the clientOrderId and the fills, which follow the
     * frame's rows. The slot is not indexed yet, so no reader can reach it. A row of version 1 (shorter: no
     * self-trade prevention byte) reads as NONE.
     *
     * @return the slot
     */
    private int restoreRow(final byte[] rows, final int at, final int rowBytes, final int[][] ordinals,
                           final List<String> accountNames) throws IOException {
        final long id = SnapshotCodec.getLong(rows, at);
        if (id <= 0) {
            throw new IOException("order view snapshot: order id " + id);
        }
        final int account = SnapshotCodec.getInt(rows, at + 8);
        if (account < NO_ACCOUNT || account >= accountNames.size()) {
            throw new IOException("order view snapshot: order " + id + " has account " + account + " of "
                    + accountNames.size());
        }
        final byte stp = rowBytes > SnapshotCodec.ROW_BYTES_V1 ? rows[at + 94] : 0;
        final int kind = SnapshotCodec.ordinal(ordinals[0], rows[at + 16], id)
                | SnapshotCodec.ordinal(ordinals[1], rows[at + 17], id) << TYPE_SHIFT
                | SnapshotCodec.ordinal(ordinals[5], stp, id) << STP_SHIFT
                | SnapshotCodec.ordinal(ordinals[2], rows[at + 18], id) << 16
                | SnapshotCodec.flag(rows[at + 19], id) << 23
                | SnapshotCodec.ordinal(ordinals[3], rows[at + 20], id) << 24
                | SnapshotCodec.ordinal(ordinals[4], rows[at + 21], id) << 28;
        final int clientOrderIdBytes = SnapshotCodec.getInt(rows, at + 22);
        if (clientOrderIdBytes < NO_CLIENT_ORDER_ID || clientOrderIdBytes > SnapshotCodec.MAX_UTF_BYTES) {
            throw new IOException("order view snapshot: order " + id + " has a clientOrderId of "
                    + clientOrderIdBytes + " bytes");
        }
        final int slot = view.allocateSlot();
        final int c = slot >>> SHIFT;
        final int i = slot & MASK;
        ids[c][i] = id;
        accounts[c][i] = account == NO_ACCOUNT ? null : accountNames.get(account);
        symbols[c][i] = SnapshotCodec.getInt(rows, at + 12);
        kinds[c][i] = kind;
        fillCounts[c][i] = SnapshotCodec.getInt(rows, at + 26);  // checked and linked by restoreFills
        lastFills[c][i] = NONE;
        prices[c][i] = SnapshotCodec.getLong(rows, at + 30);
        quantities[c][i] = SnapshotCodec.getLong(rows, at + 38);
        filled[c][i] = SnapshotCodec.getLong(rows, at + 46);
        remaining[c][i] = SnapshotCodec.getLong(rows, at + 54);
        notionals[c][i] = SnapshotCodec.getLong(rows, at + 62);
        sequences[c][i] = SnapshotCodec.getLong(rows, at + 70);
        createdAt[c][i] = SnapshotCodec.getLong(rows, at + 78);
        updatedAt[c][i] = SnapshotCodec.getLong(rows, at + 86);
        return slot;
    }

    /** Reads the slot's fills, oldest first, into new arena entries linked as the view's {@code filledBy} links them. */
    private void restoreFills(final DataInput in, final byte[] block, final int slot) throws IOException {
        final int c = slot >>> SHIFT;
        final int i = slot & MASK;
        final int count = fillCounts[c][i];
        if (count == 0) {
            return;
        }
        if (count < 0 || count > MAX_ENTRIES - view.fillsUsed) {
            throw new IOException("order view snapshot: order " + ids[c][i] + " has " + count + " fills");
        }
        int last = NONE;
        for (int done = 0; done < count; ) {
            final int fills = Math.min(SnapshotCodec.BLOCK, count - done);
            in.readFully(block, 0, fills * SnapshotCodec.FILL_BYTES);
            for (int k = 0; k < fills; k++, done++) {
                final int at = k * SnapshotCodec.FILL_BYTES;
                final int taker = SnapshotCodec.flag(block[at + 32], ids[c][i]);
                final int fill = view.allocateFill();
                final int fc = fill >>> SHIFT;
                final int fi = fill & MASK;
                fillTradeIds[fc][fi] = SnapshotCodec.getLong(block, at);
                fillPrices[fc][fi] = SnapshotCodec.getLong(block, at + 8);
                fillQuantities[fc][fi] = SnapshotCodec.getLong(block, at + 16);
                fillTimes[fc][fi] = SnapshotCodec.getLong(block, at + 24);
                fillLinks[fc][fi] = (last + 1) << 1 | taker;
                last = fill;
            }
        }
        lastFills[c][i] = last;
    }

    /** Reads one account's open order ids; each must be an order restored above, of that account. */
    private void restoreOpenOrders(final DataInput in, final SnapshotBuffers buffers, final List<String> accountNames,
                                   final int orders) throws IOException {
        final int ref = in.readInt();
        if (ref < 0 || ref >= accountNames.size()) {
            throw new IOException("order view snapshot: open orders of account " + ref + " of "
                    + accountNames.size());
        }
        final String account = accountNames.get(ref);
        if (view.openLists.hasAccount(account)) {
            throw new IOException("order view snapshot: open orders of account " + account + " twice");
        }
        final int count = SnapshotCodec.count(in.readInt(), orders, "open orders of account " + account);
        if (count == 0) {
            throw new IOException("order view snapshot: account " + account + " listed with no open order");
        }
        final byte[] block = buffers.block;
        final int[] slots = buffers.slots;
        long previous = 0;
        for (int done = 0; done < count; ) {
            final int listed = Math.min(SnapshotCodec.BLOCK, count - done);
            in.readFully(block, 0, listed * Long.BYTES);
            // the block's index look-ups first, apart from the inserts, so that their cache misses overlap
            for (int k = 0; k < listed; k++) {
                final long id = SnapshotCodec.getLong(block, k * Long.BYTES);
                if (id <= previous) {
                    throw new IOException("order view snapshot: open orders of account " + account
                            + " not ascending at " + id);
                }
                slots[k] = view.index.find(id);
                previous = id;
            }
            for (int k = 0; k < listed; k++) {
                final int slot = slots[k];
                if (slot == NONE || accounts[slot >>> SHIFT][slot & MASK] != account) {  // one String per account
                    throw new IOException("order view snapshot: open order " + SnapshotCodec.getLong(block,
                            k * Long.BYTES) + " of account " + account + " is not an order of that account");
                }
            }
            for (int k = 0; k < listed; k++, done++) {
                view.openLists.open(slots[k], SnapshotCodec.getLong(block, k * Long.BYTES), account);
            }
        }
    }
}
