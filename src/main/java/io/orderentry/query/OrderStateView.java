package io.orderentry.query;

import io.orderentry.engine.OrderStatus;
import io.orderentry.engine.OrderType;
import io.orderentry.engine.RejectReason;
import io.orderentry.engine.SelfTradePrevention;
import io.orderentry.engine.Side;
import io.orderentry.engine.TimeInForce;
import io.orderentry.pipeline.BatchStage;
import io.orderentry.pipeline.EngineEvent;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The query model of orders: every order's current state, built only from engine events. It is
 * the first part of the output ring's order stage and the replies run after it on the same thread, so any state
 * a client was answered with is already visible here (read-your-writes).
 *
 * <p>Storage: each order is a slot in chunked primitive arrays (ids, prices, quantities, statuses, times) and its
 * fills are entries of a chunked arena, linked newest first; an {@link SlotIndex} maps order ids to slots. An
 * order therefore costs no object of its own: the young collection copies nothing per order and no per-event
 * record is created (the view used to hold an immutable {@link OrderState} per order and a {@link Fill} per
 * execution, which every young collection copied until they were promoted: its pauses grew with the orders placed
 * since the last one). Freed slots and fill entries are reused. {@link OrderState} and {@link Fill} remain the
 * read model: {@link #get} builds them on demand.
 *
 * <p>Threads: {@link #apply} and {@link #endOfBatch} run on the order stage's thread, the only writer. The query
 * methods are called from HTTP event loops and never block: each slot carries a version (a seqlock) that the
 * writer makes odd while it changes the slot and even again after, and the index has one for its own changes; a
 * reader copies what it needs, checks that neither version moved, and retries otherwise.
 *
 * <p>Bounds: open orders are always kept (the engine bounds them); final orders are kept for the
 * last {@code retainedFinalOrders} that became final, then forgotten oldest first, except that one whose
 * clientOrderId the engine's dedup window still remembers is kept until the window forgets it (at most the window's
 * size of them), so that a retry is always answered with its order.
 *
 * <p>Snapshots: {@link #writeSnapshot} writes the complete state (every held order with its fills, the open orders
 * by account, the eviction ring and the applied sequence) and {@link #restoreSnapshot} rebuilds it in a fresh
 * view, which then answers and applies later events exactly as the written one would; slot numbers are not kept.
 * The format is described at {@link #writeSnapshot}.
 */
public final class OrderStateView implements BatchStage<EngineEvent> {

    private static final int SHIFT = SlotVersions.SHIFT;
    private static final int CHUNK = SlotVersions.CHUNK;
    private static final int MASK = SlotVersions.MASK;
    /** Chunks per array: 4096 x 16384 = 67M slots, far above what the engine's limits let live at once. */
    private static final int MAX_CHUNKS = 4096;
    private static final int NONE = -1;
    private static final VarHandle INTS = SlotVersions.INTS;
    private static final VarHandle INDEX_VERSION;

    static {
        try {
            INDEX_VERSION = MethodHandles.lookup().findVarHandle(OrderStateView.class, "indexVersion", long.class);
        } catch (final ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static final Side[] SIDES = Side.values();
    private static final OrderType[] TYPES = OrderType.values();
    private static final SelfTradePrevention[] STPS = SelfTradePrevention.values();
    private static final TimeInForce[] TIFS = TimeInForce.values();
    private static final OrderStatus[] STATUSES = OrderStatus.values();
    private static final RejectReason[] REASONS = RejectReason.values();
    /** Where {@code kinds} keeps the order type (4 bits) and the self-trade prevention (2 bits); see {@link #kinds}. */
    private static final int TYPE_SHIFT = 8;
    private static final int STP_SHIFT = 12;

    static {
        if (SIDES.length > 256 || TYPES.length > 16 || STPS.length > 4 || TIFS.length > 128 || STATUSES.length > 16
                || REASONS.length > 16) {
            throw new ExceptionInInitializerError("an enum outgrew its bits in the order view's kinds");
        }
    }

    // one slot per order
    private final int[][] versions = new int[MAX_CHUNKS][];
    private final long[][] ids = new long[MAX_CHUNKS][];
    private final long[][] prices = new long[MAX_CHUNKS][];
    private final long[][] quantities = new long[MAX_CHUNKS][];
    private final long[][] filled = new long[MAX_CHUNKS][];
    private final long[][] remaining = new long[MAX_CHUNKS][];
    private final long[][] notionals = new long[MAX_CHUNKS][];
    private final long[][] sequences = new long[MAX_CHUNKS][];
    private final long[][] createdAt = new long[MAX_CHUNKS][];
    private final long[][] updatedAt = new long[MAX_CHUNKS][];
    private final int[][] symbols = new int[MAX_CHUNKS][];
    /**
     * Bits 0-7 side, 8-11 order type, 12-13 self-trade prevention, 16-22 time in force, 23 post-only, 24-27 status,
     * 28-31 reject reason (ordinals).
     */
    private final int[][] kinds = new int[MAX_CHUNKS][];
    private final int[][] lastFills = new int[MAX_CHUNKS][];
    private final int[][] fillCounts = new int[MAX_CHUNKS][];
    private final String[][] accounts = new String[MAX_CHUNKS][];
    private final String[][] clientOrderIds = new String[MAX_CHUNKS][];
    private final IntStack freeSlots = new IntStack();
    private int slotsUsed;

    // one entry per execution of an order, linked newest first
    private final long[][] fillTradeIds = new long[MAX_CHUNKS][];
    private final long[][] fillPrices = new long[MAX_CHUNKS][];
    private final long[][] fillQuantities = new long[MAX_CHUNKS][];
    private final long[][] fillTimes = new long[MAX_CHUNKS][];
    /** (the previous fill's entry + 1) << 1 | taker; 0 + taker for the first fill */
    private final int[][] fillLinks = new int[MAX_CHUNKS][];
    private final IntStack freeFills = new IntStack();
    private int fillsUsed;

    private final SlotIndex index = new SlotIndex();
    @SuppressWarnings("unused") // through INDEX_VERSION
    private volatile long indexVersion;

    /** Each account's open orders, threaded through the slots (no object per open order). */
    private final OpenOrderLists openLists = new OpenOrderLists(versions, ids, accounts);
    private final long[] finalOrders;
    /** Advances by one per final order retained and per pinned order kept past the ring's oldest end. */
    private long finalCount;
    /**
     * The ids of the last {@code dedupWindow} orders that carried a clientOrderId, oldest at
     * {@code windowCount % length} once full: the engine's dedup window (Matcher), kept here too so that a final
     * order a retry can still name is never forgotten. Empty when the window is 0 (tests of the view alone).
     */
    private final long[] windowIds;
    private long windowCount;
    /** Final orders past the retained count that are kept because the dedup window still names them. */
    private final LongSet pinned = new LongSet();
    private long appliedSequence;
    private volatile long lastEventSequence;

    /**
     * A view that forgets final orders oldest first past {@code retainedFinalOrders}, whatever their clientOrderId.
     *
     * @param retainedFinalOrders how many final orders to keep answering GETs for
     */
    public OrderStateView(final int retainedFinalOrders) {
        this(retainedFinalOrders, 0);
    }

    /**
     * @param retainedFinalOrders how many final orders to keep answering GETs for
     * @param dedupWindow         the engine's dedup window ({@code ORDERS_ENGINE_DEDUP_WINDOW}): a final order whose
     *                            clientOrderId it still remembers is kept beyond the {@code retainedFinalOrders} (at most
     *                            {@code dedupWindow} of them), so that a retry is answered with the order (200), never
     *                            404 ORDER_NOT_RETAINED
     */
    public OrderStateView(final int retainedFinalOrders, final int dedupWindow) {
        if (retainedFinalOrders <= 0 || dedupWindow < 0) {
            throw new IllegalArgumentException("retainedFinalOrders must be > 0 and dedupWindow >= 0");
        }
        this.finalOrders = new long[retainedFinalOrders];
        this.windowIds = new long[dedupWindow];
    }

    /**
     * Sets the dedup window's order ids, oldest first, as the engine restored from a snapshot holds them
     * ({@code Matcher#rememberedOrderIds}); call after {@link #restoreSnapshot}, on the thread that applies events.
     */
    public void restoreDedupWindow(final long[] orderIdsOldestFirst) {
        windowCount = 0;
        if (windowIds.length == 0) {
            return;
        }
        final int from = Math.max(0, orderIdsOldestFirst.length - windowIds.length);
        for (int k = from; k < orderIdsOldestFirst.length; k++) {
            rememberClientOrderId(orderIdsOldestFirst[k]);
        }
        // the final orders the snapshot holds beyond its ring are the ones kept for retries
        final LongSet inRing = new LongSet();
        for (int k = 0; k < Math.min(finalCount, finalOrders.length); k++) {
            inRing.add(finalOrders[k]);
        }
        for (int slot = 0; slot < slotsUsed; slot++) {
            final int c = slot >>> SHIFT;
            final int i = slot & MASK;
            final long id = ids[c][i];
            if (id != 0 && !STATUSES[(kinds[c][i] >>> 24) & 0xf].isOpen() && !inRing.contains(id)) {
                if (inDedupWindow(id)) {
                    pinned.add(id);
                } else {
                    forget(id);
                }
            }
        }
    }

    private void rememberClientOrderId(final long orderId) {
        final int slot = (int) (windowCount % windowIds.length);
        if (windowCount >= windowIds.length && pinned.remove(windowIds[slot])) {
            forget(windowIds[slot]);   // kept only for retries, which can no longer name it
        }
        windowIds[slot] = orderId;
        windowCount++;
    }

    /** @return whether the engine still remembers {@code orderId}'s clientOrderId, so a retry may name it */
    private boolean inDedupWindow(final long orderId) {
        if (windowCount == 0) {
            return false;
        }
        final long oldest = windowCount < windowIds.length ? windowIds[0] : windowIds[(int) (windowCount % windowIds.length)];
        if (orderId < oldest) {
            return false;
        }
        final int slot = index.find(orderId);
        return slot != NONE && clientOrderIds[slot >>> SHIFT][slot & MASK] != null;
    }

    @Override
    public void apply(final EngineEvent event, final long sequence) {
        switch (event.type) {
            case ORDER_ACCEPTED -> accepted(event);
            case TRADE -> traded(event);
            case ORDER_UPDATED -> updated(event);
            case ORDER_AMENDED -> amended(event);
            case COMMAND_COMPLETED, REQUEST_REJECTED, REPLAY_COMPLETED, TICK -> {
                return;
            }
            default -> throw new IllegalStateException("unknown event type " + event.type);
        }
        appliedSequence = event.eventSequence;
    }

    /** Makes the batch's last applied sequence readable by other threads. */
    @Override
    public void endOfBatch() {
        lastEventSequence = appliedSequence;
    }

    /**
     * @return whether the view holds the order (open, or final and retained); on the thread that applies events only
     *         (the audit stage asks it, on that thread, what the answer to a command will be)
     */
    public boolean holdsOnApplyingThread(final long orderId) {
        return index.find(orderId) != NONE;
    }

    /** @return the order's current state, or null if it never existed or is no longer retained; any thread */
    public OrderState get(final long orderId) {
        while (true) {
            final int slot = slotOf(orderId);
            if (slot == NONE) {
                return null;
            }
            final OrderState state = read(slot, orderId);
            if (state != RETRY) {
                return state;
            }
        }
    }

    /** A marker {@link #read} returns when the slot changed while it was read. */
    private static final OrderState RETRY = new OrderState(0, null, null, 0, Side.BUY, OrderType.LIMIT,
            TimeInForce.GTC, false, SelfTradePrevention.NONE, 0, 0, OrderStatus.NEW, 0, 0, 0, RejectReason.NONE, 0, 0,
            0, null);

    /** @return the slot's state if it still holds {@code orderId}, null if it no longer does, or {@link #RETRY} */
    private OrderState read(final int slot, final long orderId) {
        final int c = slot >>> SHIFT;
        final int i = slot & MASK;
        final int[] version = versions[c];
        final int before = (int) INTS.getAcquire(version, i);
        if ((before & 1) != 0) {
            return RETRY;
        }
        final long id = ids[c][i];
        final String clientOrderId = clientOrderIds[c][i];
        final String account = accounts[c][i];
        final int symbol = symbols[c][i];
        final int kind = kinds[c][i];
        final long price = prices[c][i];
        final long quantity = quantities[c][i];
        final long filledQuantity = filled[c][i];
        final long remainingQuantity = remaining[c][i];
        final long notional = notionals[c][i];
        final long sequence = sequences[c][i];
        final long created = createdAt[c][i];
        final long updated = updatedAt[c][i];
        final int count = fillCounts[c][i];
        if (count < 0 || count > fillsUsed) {
            return RETRY;
        }
        int entry = lastFills[c][i];
        final long[] fills = count == 0 ? null : new long[count * 4];
        final boolean[] taker = count == 0 ? null : new boolean[count];
        for (int f = count - 1; f >= 0; f--) {
            if (entry < 0 || entry >= fillsUsed) {
                return RETRY;   // the slot is being reused; the version check below would fail too
            }
            final int fc = entry >>> SHIFT;
            final int fi = entry & MASK;
            // a chunk made after the version this reader saw may not be visible yet: retry rather than fail
            final long[] tradeIds = fillTradeIds[fc];
            final long[] fillPrice = fillPrices[fc];
            final long[] fillQuantity = fillQuantities[fc];
            final long[] fillTime = fillTimes[fc];
            final int[] links = fillLinks[fc];
            if (tradeIds == null || fillPrice == null || fillQuantity == null || fillTime == null || links == null) {
                return RETRY;
            }
            fills[f * 4] = tradeIds[fi];
            fills[f * 4 + 1] = fillPrice[fi];
            fills[f * 4 + 2] = fillQuantity[fi];
            fills[f * 4 + 3] = fillTime[fi];
            final int link = links[fi];
            taker[f] = (link & 1) != 0;
            entry = (link >> 1) - 1;
        }
        VarHandle.loadLoadFence();
        if ((int) INTS.getOpaque(version, i) != before) {
            return RETRY;
        }
        if (id != orderId) {
            return null;        // forgotten since the index was read, and the slot reused
        }
        Fill last = null;
        for (int f = 0; f < count; f++) {
            last = new Fill(fills[f * 4], fills[f * 4 + 1], fills[f * 4 + 2], taker[f], fills[f * 4 + 3], last);
        }
        return new OrderState(id, clientOrderId, account, symbol, SIDES[kind & 0xff],
                TYPES[(kind >>> TYPE_SHIFT) & 0xf], TIFS[(kind >>> 16) & 0x7f], (kind & (1 << 23)) != 0,
                STPS[(kind >>> STP_SHIFT) & 0x3], price, quantity, STATUSES[(kind >>> 24) & 0xf], filledQuantity,
                remainingQuantity, notional, REASONS[kind >>> 28], sequence, created, updated, last);
    }

    /**
     * @param afterOrderId only orders with a larger id (0 for all)
     * @param limit        at most this many
     * @return the account's open orders, oldest first
     */
    public List<OrderState> openOrders(final String accountId, final long afterOrderId, final int limit) {
        final List<OrderState> result = new ArrayList<>(Math.min(limit, 64));
        long after = afterOrderId;
        while (result.size() < limit) {
            final int wanted = limit - result.size();
            final long[] open = openLists.read(accountId, after, after > 0 ? slotOf(after) : NONE, wanted);
            for (final long id : open) {
                final OrderState state = get(id);
                if (state != null && state.status().isOpen()) {     // closed since the list was read
                    result.add(state);
                }
            }
            if (open.length < wanted) {
                break;
            }
            after = open[open.length - 1];
        }
        return result;
    }

    /** @return the slot that holds {@code orderId}, or NONE; any thread (the index is read under its version) */
    private int slotOf(final long orderId) {
        while (true) {
            final long indexBefore = (long) INDEX_VERSION.getAcquire(this);
            if ((indexBefore & 1) != 0) {
                Thread.onSpinWait();
                continue;
            }
            final int slot = index.find(orderId);
            VarHandle.loadLoadFence();
            if ((long) INDEX_VERSION.getOpaque(this) == indexBefore) {
                return slot;
            }
        }
    }

    /** @return the sequence of the last engine event applied; readable from any thread */
    public long lastEventSequence() {
        return lastEventSequence;
    }

    /** @return how many orders are held (open plus retained final ones); any thread */
    public int size() {
        return index.size();
    }

    // ------------------------------------------------------------------------------------------------ snapshots

    /** Orders, fills, accounts and retained ids a snapshot may hold: what the chunked arrays can. */
    private static final int MAX_ENTRIES = MAX_CHUNKS * CHUNK;
    private static final int NO_ACCOUNT = -1;
    private static final int NO_CLIENT_ORDER_ID = -1;

    /**
     * Writes the view's complete state. Call on the view's writer thread, or when no writer runs.
     *
     * <p>The format, in {@link DataOutput} terms (big-endian; "UTF" is {@code writeUTF}):
     * <ol>
     *   <li>{@code int} version (2);</li>
     *   <li>the enum constants' names, so that a later build maps them by name: for side, order type, time in
     *       force, status, reject reason and self-trade prevention in turn, {@code int} count and each name as UTF;
     *       the enum bytes of the rows below index these lists;</li>
     *   <li>{@code long} applied sequence, {@code long} published sequence ({@link #lastEventSequence});</li>
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
     * <p>Version 1, which {@link #restoreSnapshot} still reads, had no self-trade prevention names and 94-byte rows
     * without its byte: its orders read as {@link SelfTradePrevention#NONE}, which is what the engine gave them.
     *
     * @throws java.io.UTFDataFormatException if a clientOrderId or account is longer than UTF can write
     */
    public void writeSnapshot(final DataOutput out) throws IOException {
        out.writeInt(SnapshotCodec.VERSION);
        SnapshotCodec.writeNames(out, SIDES);
        SnapshotCodec.writeNames(out, TYPES);
        SnapshotCodec.writeNames(out, TIFS);
        SnapshotCodec.writeNames(out, STATUSES);
        SnapshotCodec.writeNames(out, REASONS);
        SnapshotCodec.writeNames(out, STPS);
        out.writeLong(appliedSequence);
        out.writeLong(lastEventSequence);

        // free slots hold no account, so these are the held orders' accounts (and the open lists', the same ones)
        final Map<String, Integer> accountRefs = new HashMap<>();
        final List<String> accountNames = new ArrayList<>();
        for (int slot = 0; slot < slotsUsed; slot++) {
            addAccount(accountRefs, accountNames, accounts[slot >>> SHIFT][slot & MASK]);
        }
        final List<String> openAccounts = new ArrayList<>();
        final List<long[]> openIds = new ArrayList<>();
        openLists.forEach((account, orderIds) -> {
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

        final int orders = index.size();
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

        final int retained = (int) Math.min(finalCount, finalOrders.length);
        out.writeLong(finalCount);
        out.writeInt(retained);
        // oldest first: from the ring slot to be overwritten next, wrapping around
        final int oldest = retained < finalOrders.length ? 0 : (int) (finalCount % finalOrders.length);
        final int tail = Math.min(retained, finalOrders.length - oldest);
        SnapshotCodec.writeLongs(out, buffers.block, finalOrders, oldest, tail);
        SnapshotCodec.writeLongs(out, buffers.block, finalOrders, 0, retained - tail);
    }

    /**
     * Restores a state written by writeSnapshot into this view, which must be freshly constructed (nothing applied
     * yet); call before any writer or reader uses it. The retention bound is this view's own (constructor
     * argument): if the snapshot holds more retained final orders than it allows, the oldest are dropped, exactly
     * as eviction would have.
     *
     * <p>Slots are filled before they are indexed, and the index is changed under its version as the writer changes
     * it, so a reader never finds a slot half restored. At the end the snapshot's applied sequence is published as
     * {@link #endOfBatch} publishes a batch's: a reader on another thread that sees it as {@link #lastEventSequence}
     * sees the whole restored state. A view whose restore threw must be discarded.
     *
     * @throws java.io.IOException on a malformed or truncated input (never leave a half-restored view silently:
     *                             throw)
     * @throws IllegalStateException if this view already holds state
     */
    public void restoreSnapshot(final DataInput in) throws IOException {
        if (slotsUsed != 0 || fillsUsed != 0 || finalCount != 0 || appliedSequence != 0
                || openLists.accounts() != 0) {
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
        final int dropped = Math.max(0, retained - finalOrders.length);
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
                    forget(id);
                } else {
                    finalOrders[done - dropped] = id;
                }
            }
        }
        // the ring uses finalCount only modulo its length and to tell whether it is full: the retained ids sit oldest
        // first from ring slot 0, so their count evicts them in the same order as the written view would have
        finalCount = retained - dropped;

        appliedSequence = applied;
        lastEventSequence = applied;    // publishes everything above, as endOfBatch does for a batch
    }

    /** What one snapshot write or restore moves its frames and blocks through. */
    private static final class SnapshotBuffers {
        final byte[] rows = new byte[SnapshotCodec.FRAME * SnapshotCodec.ROW_BYTES];
        final byte[] block = new byte[SnapshotCodec.BLOCK * SnapshotCodec.FILL_BYTES];
        /** the slots of the frame's orders, or of a block of open order ids */
        final int[] slots = new int[Math.max(SnapshotCodec.FRAME, SnapshotCodec.BLOCK)];
        final int[] stringLengths = new int[SnapshotCodec.FRAME];
        byte[] strings = new byte[SnapshotCodec.FRAME * 32];
        int stringBytes;
        int[] chain = new int[SnapshotCodec.BLOCK];

        void reserveStrings(final int more) {
            if (strings.length - stringBytes < more) {
                strings = java.util.Arrays.copyOf(strings, Math.max(strings.length * 2, stringBytes + more));
            }
        }
    }

    /**
     * Writes every held order, in frames; its own method (as {@link #restoreFrame} is), so that the compiler has
     * small loops to compile early rather than one large method to compile on the fly.
     *
     * @return how many orders it wrote
     */
    private int writeOrders(final DataOutput out, final SnapshotBuffers buffers,
                            final Map<String, Integer> accountRefs) throws IOException {
        int written = 0;
        int framed = 0;
        for (int slot = 0; slot < slotsUsed; slot++) {
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
        final String clientOrderId = clientOrderIds[c][i];
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
                clientOrderIds[slots[f] >>> SHIFT][slots[f] & MASK] = SnapshotCodec.getUtf(strings, at,
                        stringLengths[f]);
                at += stringLengths[f];
            }
        }
        for (int f = 0; f < framed; f++) {
            restoreFills(in, buffers.block, slots[f]);
        }
        // the frame's look-ups first, so that their cache misses overlap; the inserts then find the lines cached
        for (int f = 0; f < framed; f++) {
            final long id = ids[slots[f] >>> SHIFT][slots[f] & MASK];
            if (index.find(id) != NONE) {
                throw new IOException("order view snapshot: order " + id + " twice");
            }
        }
        beginIndex();
        try {
            for (int f = 0; f < framed; f++) {
                final long id = ids[slots[f] >>> SHIFT][slots[f] & MASK];
                if (!index.putIfAbsent(id, slots[f])) {
                    throw new IOException("order view snapshot: order " + id + " twice");
                }
            }
        } finally {
            endIndex();
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
        final int slot = allocateSlot();
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

    /** Reads the slot's fills, oldest first, into new arena entries linked as {@link #filledBy} links them. */
    private void restoreFills(final DataInput in, final byte[] block, final int slot) throws IOException {
        final int c = slot >>> SHIFT;
        final int i = slot & MASK;
        final int count = fillCounts[c][i];
        if (count == 0) {
            return;
        }
        if (count < 0 || count > MAX_ENTRIES - fillsUsed) {
            throw new IOException("order view snapshot: order " + ids[c][i] + " has " + count + " fills");
        }
        int last = NONE;
        for (int done = 0; done < count; ) {
            final int fills = Math.min(SnapshotCodec.BLOCK, count - done);
            in.readFully(block, 0, fills * SnapshotCodec.FILL_BYTES);
            for (int k = 0; k < fills; k++, done++) {
                final int at = k * SnapshotCodec.FILL_BYTES;
                final int taker = SnapshotCodec.flag(block[at + 32], ids[c][i]);
                final int fill = allocateFill();
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
        if (openLists.hasAccount(account)) {
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
                slots[k] = index.find(id);
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
                openLists.open(slots[k], SnapshotCodec.getLong(block, k * Long.BYTES), account);
            }
        }
    }

    /** Gives {@code account} the next index if it has none yet. */
    private static void addAccount(final Map<String, Integer> refs, final List<String> names, final String account) {
        if (account != null && refs.putIfAbsent(account, names.size()) == null) {
            names.add(account);
        }
    }

    private void accepted(final EngineEvent e) {
        final int slot = allocateSlot();
        final int c = slot >>> SHIFT;
        final int i = slot & MASK;
        beginSlot(c, i);
        ids[c][i] = e.orderId;
        clientOrderIds[c][i] = e.clientOrderId;
        accounts[c][i] = e.accountId;
        symbols[c][i] = e.symbol;
        prices[c][i] = e.price;
        quantities[c][i] = e.quantity;
        filled[c][i] = 0;
        remaining[c][i] = e.quantity;
        notionals[c][i] = 0;
        sequences[c][i] = e.eventSequence;
        createdAt[c][i] = e.timestampMicros;
        updatedAt[c][i] = e.timestampMicros;
        final SelfTradePrevention stp = e.selfTradePrevention == null ? SelfTradePrevention.NONE
                : e.selfTradePrevention;
        kinds[c][i] = e.side.ordinal() | e.orderType.ordinal() << TYPE_SHIFT | stp.ordinal() << STP_SHIFT
                | e.timeInForce.ordinal() << 16 | (e.postOnly ? 1 << 23 : 0) | OrderStatus.NEW.ordinal() << 24
                | RejectReason.NONE.ordinal() << 28;
        lastFills[c][i] = NONE;
        fillCounts[c][i] = 0;
        endSlot(c, i);
        beginIndex();
        index.put(e.orderId, slot);
        endIndex();
        if (e.clientOrderId != null && windowIds.length > 0) {
            rememberClientOrderId(e.orderId);   // as the engine's dedup window remembers every placed order with one
        }
    }

    private void traded(final EngineEvent e) {
        final int taker = index.find(e.takerOrderId);
        final long takerQuantity = quantities[taker >>> SHIFT][taker & MASK];
        filledBy(taker, e, true, e.takerFilledQuantity, takerQuantity == e.takerFilledQuantity
                ? OrderStatus.FILLED : OrderStatus.PARTIALLY_FILLED);
        final int maker = index.find(e.makerOrderId);
        filledBy(maker, e, false, e.makerFilledQuantity, e.makerStatus);
        if (!e.makerStatus.isOpen()) {
            closed(maker, e.makerOrderId);
        }
    }

    private void filledBy(final int slot, final EngineEvent e, final boolean taker, final long filledQuantity,
                          final OrderStatus status) {
        final int c = slot >>> SHIFT;
        final int i = slot & MASK;
        final int fill = allocateFill();
        final int fc = fill >>> SHIFT;
        final int fi = fill & MASK;
        beginSlot(c, i);
        fillTradeIds[fc][fi] = e.tradeId;
        fillPrices[fc][fi] = e.price;
        fillQuantities[fc][fi] = e.quantity;
        fillTimes[fc][fi] = e.timestampMicros;
        fillLinks[fc][fi] = (lastFills[c][i] + 1) << 1 | (taker ? 1 : 0);
        lastFills[c][i] = fill;
        fillCounts[c][i]++;
        filled[c][i] = filledQuantity;
        remaining[c][i] = quantities[c][i] - filledQuantity;
        notionals[c][i] += e.price * e.quantity;
        kinds[c][i] = kinds[c][i] & 0x00ffffff | status.ordinal() << 24 | kinds[c][i] & 0xf0000000;
        sequences[c][i] = e.eventSequence;
        updatedAt[c][i] = e.timestampMicros;
        endSlot(c, i);
    }

    private void updated(final EngineEvent e) {
        final int slot = index.find(e.orderId);
        final int c = slot >>> SHIFT;
        final int i = slot & MASK;
        beginSlot(c, i);
        filled[c][i] = e.filledQuantity;
        remaining[c][i] = e.remainingQuantity;
        kinds[c][i] = kinds[c][i] & 0x00ffffff | e.status.ordinal() << 24 | e.rejectReason.ordinal() << 28;
        sequences[c][i] = e.eventSequence;
        updatedAt[c][i] = e.timestampMicros;
        endSlot(c, i);
        if (e.status.isOpen()) {
            openLists.open(slot, e.orderId, accounts[c][i]);
        } else {
            closed(slot, e.orderId);
        }
    }

    /**
     * An amend's new terms: price, total quantity and what remains of it; the status stays until the ORDER_UPDATED
     * that ends the amend, which also keeps the account's open list right (the order stays open until then).
     */
    private void amended(final EngineEvent e) {
        final int slot = index.find(e.orderId);
        final int c = slot >>> SHIFT;
        final int i = slot & MASK;
        beginSlot(c, i);
        prices[c][i] = e.price;
        quantities[c][i] = e.quantity;
        filled[c][i] = e.filledQuantity;
        remaining[c][i] = e.quantity - e.filledQuantity;
        sequences[c][i] = e.eventSequence;
        updatedAt[c][i] = e.timestampMicros;
        endSlot(c, i);
    }

    private void closed(final int orderSlot, final long orderId) {
        openLists.close(orderSlot);
        final int slot = (int) (finalCount % finalOrders.length);
        if (finalCount >= finalOrders.length) {
            final long oldest = finalOrders[slot];
            if (inDedupWindow(oldest)) {
                pinned.add(oldest);   // a retry may still name it: kept until the dedup window forgets it
            } else {
                forget(oldest);
            }
        }
        finalOrders[slot] = orderId;
        finalCount++;
    }

    /** Drops a final order: its index entry, its fills and its slot, all reused later. */
    private void forget(final long orderId) {
        final int slot = index.find(orderId);
        if (slot == NONE) {
            return;
        }
        beginIndex();
        index.remove(orderId);
        endIndex();
        final int c = slot >>> SHIFT;
        final int i = slot & MASK;
        beginSlot(c, i);
        for (int fill = lastFills[c][i]; fill != NONE; ) {
            final int link = fillLinks[fill >>> SHIFT][fill & MASK];
            freeFills.push(fill);
            fill = (link >> 1) - 1;
        }
        ids[c][i] = 0;
        lastFills[c][i] = NONE;
        fillCounts[c][i] = 0;
        accounts[c][i] = null;
        clientOrderIds[c][i] = null;
        endSlot(c, i);
        freeSlots.push(slot);
    }

    private int allocateSlot() {
        if (!freeSlots.isEmpty()) {
            return freeSlots.pop();
        }
        final int slot = slotsUsed;
        final int c = slot >>> SHIFT;
        if (c >= MAX_CHUNKS) {
            throw new IllegalStateException("the order view is full: " + slot + " orders");
        }
        if ((slot & MASK) == 0) {
            versions[c] = new int[CHUNK];
            ids[c] = new long[CHUNK];
            prices[c] = new long[CHUNK];
            quantities[c] = new long[CHUNK];
            filled[c] = new long[CHUNK];
            remaining[c] = new long[CHUNK];
            notionals[c] = new long[CHUNK];
            sequences[c] = new long[CHUNK];
            createdAt[c] = new long[CHUNK];
            updatedAt[c] = new long[CHUNK];
            symbols[c] = new int[CHUNK];
            kinds[c] = new int[CHUNK];
            lastFills[c] = new int[CHUNK];
            fillCounts[c] = new int[CHUNK];
            accounts[c] = new String[CHUNK];
            clientOrderIds[c] = new String[CHUNK];
        }
        slotsUsed = slot + 1;
        return slot;
    }

    private int allocateFill() {
        if (!freeFills.isEmpty()) {
            return freeFills.pop();
        }
        final int fill = fillsUsed;
        final int c = fill >>> SHIFT;
        if (c >= MAX_CHUNKS) {
            throw new IllegalStateException("the order view's fill arena is full: " + fill + " fills");
        }
        if ((fill & MASK) == 0) {
            fillTradeIds[c] = new long[CHUNK];
            fillPrices[c] = new long[CHUNK];
            fillQuantities[c] = new long[CHUNK];
            fillTimes[c] = new long[CHUNK];
            fillLinks[c] = new int[CHUNK];
        }
        fillsUsed = fill + 1;
        return fill;
    }

    /** The slot becomes odd: readers that see it, or see it change, retry. */
    private void beginSlot(final int c, final int i) {
        SlotVersions.begin(versions[c], i);
    }

    private void endSlot(final int c, final int i) {
        SlotVersions.end(versions[c], i);
    }

    private void beginIndex() {
        INDEX_VERSION.setOpaque(this, (long) INDEX_VERSION.getOpaque(this) + 1);
        VarHandle.storeStoreFence();
    }

    private void endIndex() {
        INDEX_VERSION.setRelease(this, (long) INDEX_VERSION.getOpaque(this) + 1);
    }

    /** A growable stack of ints: free slots and free fill entries. Writer thread only. */
    private static final class IntStack {
        private int[] values = new int[64];
        private int size;

        void push(final int value) {
            if (size == values.length) {
                values = java.util.Arrays.copyOf(values, size * 2);
            }
            values[size++] = value;
        }

        int pop() {
            return values[--size];
        }

        boolean isEmpty() {
            return size == 0;
        }
    }
}
