package io.orderentry.query;

import io.orderentry.engine.OrderStatus;
import io.orderentry.engine.OrderType;
import io.orderentry.engine.RejectReason;
import io.orderentry.engine.SelfTradePrevention;
import io.orderentry.engine.Side;
import io.orderentry.engine.TimeInForce;
import io.orderentry.pipeline.EngineEvent;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;
import java.util.function.LongConsumer;

/**
 * The query model of orders: every order's current state, built only from engine events. The output ring's
 * {@link OrderViewStage} applies them, first on the order stage's thread, and the replies run after it on the same
 * thread, so any state a client was answered with is already visible here (read-your-writes).
 *
 * <p>Storage: each order is a slot in chunked primitive arrays (ids, prices, quantities, statuses, times) and its
 * fills are entries of a chunked arena, linked newest first; an {@link SlotIndex} maps order ids to slots. An
 * order therefore costs no object of its own: the young collection copies nothing per order and no per-event
 * record is created (the view used to hold an immutable {@link OrderState} per order and a {@link Fill} per
 * execution, which every young collection copied until they were promoted: its pauses grew with the orders placed
 * since the last one). Freed slots and fill entries are reused. {@link OrderState} and {@link Fill} remain the
 * read model: {@link #get} builds them on demand ({@link OrderStateReads}).
 *
 * <p>Threads: {@link #apply} and {@link #endOfBatch} run on the order stage's thread, the only writer. The query
 * methods are called from HTTP event loops and never block: each slot carries a version (a seqlock) that the
 * writer makes odd while it changes the slot and even again after, and the index has one for its own changes; a
 * reader copies what it needs, checks that neither version moved, and retries otherwise ({@link OrderStateReads}).
 *
 * <p>Bounds: open orders are always kept (the engine bounds them); final orders are kept for the
 * last {@code retainedFinalOrders} that became final, then forgotten oldest first, except that one whose
 * clientOrderId the engine's dedup window still remembers is kept until the window forgets it (at most the window's
 * size of them), so that a retry is always answered with its order: {@link FinalOrderRetention} decides which.
 *
 * <p>Snapshots: {@link #writeSnapshot} writes the complete state (every held order with its fills, the open orders
 * by account, the eviction ring and the applied sequence) and {@link #restoreSnapshot} rebuilds it in a fresh
 * view, which then answers and applies later events exactly as the written one would; slot numbers are not kept.
 * {@link OrderStateViewSnapshot} writes the format (described there) and {@link OrderStateViewRestore} reads it;
 * they read and fill this view's arrays and counters directly, which are package-private for them alone.
 */
public final class OrderStateView {

    private static final int SHIFT = SlotVersions.SHIFT;
    private static final int CHUNK = SlotVersions.CHUNK;
    private static final int MASK = SlotVersions.MASK;
    /** Chunks per array: 4096 x 16384 = 67M slots, far above what the engine's limits let live at once. */
    static final int MAX_CHUNKS = 4096;
    static final int NONE = -1;
    private static final VarHandle INDEX_VERSION;

    static {
        try {
            INDEX_VERSION = MethodHandles.lookup().findVarHandle(OrderStateView.class, "indexVersion", long.class);
        } catch (final ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    static final Side[] SIDES = Side.values();
    static final OrderType[] TYPES = OrderType.values();
    static final SelfTradePrevention[] STPS = SelfTradePrevention.values();
    static final TimeInForce[] TIFS = TimeInForce.values();
    static final OrderStatus[] STATUSES = OrderStatus.values();
    static final RejectReason[] REASONS = RejectReason.values();
    /** Where {@code kinds} keeps the order type (4 bits) and the self-trade prevention (2 bits); see {@link #kinds}. */
    static final int TYPE_SHIFT = 8;
    static final int STP_SHIFT = 12;

    static {
        if (SIDES.length > 256 || TYPES.length > 16 || STPS.length > 4 || TIFS.length > 128 || STATUSES.length > 16
                || REASONS.length > 16) {
            throw new ExceptionInInitializerError("an enum outgrew its bits in the order view's kinds");
        }
    }

    // one slot per order
    final int[][] versions = new int[MAX_CHUNKS][];
    final long[][] ids = new long[MAX_CHUNKS][];
    final long[][] prices = new long[MAX_CHUNKS][];
    final long[][] quantities = new long[MAX_CHUNKS][];
    final long[][] filled = new long[MAX_CHUNKS][];
    final long[][] remaining = new long[MAX_CHUNKS][];
    final long[][] notionals = new long[MAX_CHUNKS][];
    final long[][] sequences = new long[MAX_CHUNKS][];
    final long[][] createdAt = new long[MAX_CHUNKS][];
    final long[][] updatedAt = new long[MAX_CHUNKS][];
    final int[][] symbols = new int[MAX_CHUNKS][];
    /**
     * Bits 0-7 side, 8-11 order type, 12-13 self-trade prevention, 16-22 time in force, 23 post-only, 24-27 status,
     * 28-31 reject reason (ordinals).
     */
    final int[][] kinds = new int[MAX_CHUNKS][];
    final int[][] lastFills = new int[MAX_CHUNKS][];
    final int[][] fillCounts = new int[MAX_CHUNKS][];
    final String[][] accounts = new String[MAX_CHUNKS][];
    final ClientOrderIds clientOrderIds = new ClientOrderIds(MAX_CHUNKS);
    private final IntStack freeSlots = new IntStack();
    int slotsUsed;

    // one entry per execution of an order, linked newest first
    final long[][] fillTradeIds = new long[MAX_CHUNKS][];
    final long[][] fillPrices = new long[MAX_CHUNKS][];
    final long[][] fillQuantities = new long[MAX_CHUNKS][];
    final long[][] fillTimes = new long[MAX_CHUNKS][];
    /** (the previous fill's entry + 1) << 1 | taker; 0 + taker for the first fill */
    final int[][] fillLinks = new int[MAX_CHUNKS][];
    private final IntStack freeFills = new IntStack();
    int fillsUsed;

    final SlotIndex index = new SlotIndex();
    /** (account, clientOrderId) to slot, changed under the same index version as {@link #index}. */
    final ClientIdIndex clientIds = new ClientIdIndex();
    @SuppressWarnings("unused") // through INDEX_VERSION
    private volatile long indexVersion;

    /** Each account's open orders, threaded through the slots (no object per open order). */
    final OpenOrderLists openLists = new OpenOrderLists(versions, ids, accounts);
    /** Which final orders are kept, and for how long. */
    final FinalOrderRetention retention;
    /** Copies slots into {@link OrderState}s for readers on other threads. */
    private final OrderStateReads reads = new OrderStateReads(this);
    /** The accounts' balances, with {@code ORDERS_RISK=balances}; empty without. */
    private final BalanceBook balances = new BalanceBook();
    long appliedSequence;
    volatile long lastEventSequence;

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
     * @param dedupWindow         the engine's dedup window ({@code ORDERS_ENGINE_DEDUP_WINDOW}): a final order
     *                            whose clientOrderId it still remembers is kept beyond the {@code retainedFinalOrders}
     *                            (at most {@code dedupWindow} of them), so that a retry is answered with the order
     *                            (200), never 404 ORDER_NOT_RETAINED
     */
    public OrderStateView(final int retainedFinalOrders, final int dedupWindow) {
        if (retainedFinalOrders <= 0 || dedupWindow < 0) {
            throw new IllegalArgumentException("retainedFinalOrders must be > 0 and dedupWindow >= 0");
        }
        this.retention = new FinalOrderRetention(this, retainedFinalOrders, dedupWindow);
    }

    /** @return the accounts' balances, as the events applied so far left them; read from any thread */
    public BalanceBook balances() {
        return balances;
    }

    /**
     * Sets the dedup window's order ids, oldest first, as the engine restored from a snapshot holds them
     * ({@code Matcher#rememberedOrderIds}); call after {@link #restoreSnapshot}, on the thread that applies events.
     * See {@link FinalOrderRetention}.
     */
    public void restoreDedupWindow(final long[] orderIdsOldestFirst) {
        retention.restoreDedupWindow(orderIdsOldestFirst);
    }

    /** Hands each final order the view holds to {@code action}, in slot order; writer thread. */
    void forEachFinalOrder(final LongConsumer action) {
        for (int slot = 0; slot < slotsUsed; slot++) {
            final int c = slot >>> SHIFT;
            final int i = slot & MASK;
            final long id = ids[c][i];
            if (id != 0 && !STATUSES[(kinds[c][i] >>> 24) & 0xf].isOpen()) {
                action.accept(id);
            }
        }
    }

    /** @return whether the view holds {@code orderId} and it carries a clientOrderId; writer thread */
    boolean holdsWithClientOrderId(final long orderId) {
        final int slot = index.find(orderId);
        return slot != NONE && clientOrderIds.has(slot);
    }

    /** Applies one engine event; the writer's thread (the output ring's {@link OrderViewStage}, or a replica's). */
    public void apply(final EngineEvent event, final long sequence) {
        switch (event.type) {
            case ORDER_ACCEPTED -> accepted(event);
            case TRADE -> traded(event);
            case ORDER_UPDATED -> updated(event);
            case ORDER_AMENDED -> amended(event);
            case BALANCE_CHANGED -> balances.changed(event);
            case COMMAND_COMPLETED, REQUEST_REJECTED, REPLAY_COMPLETED, TICK -> {
                return;
            }
            default -> throw new IllegalStateException("unknown event type " + event.type);
        }
        appliedSequence = event.eventSequence;
    }

    /** Makes the batch's last applied sequence readable by other threads; after a batch of {@link #apply}. */
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
        return reads.get(orderId);
    }

    /**
     * @param afterOrderId only orders with a larger id (0 for all)
     * @param limit        at most this many
     * @return the account's open orders, oldest first; any thread
     */
    public List<OrderState> openOrders(final String accountId, final long afterOrderId, final int limit) {
        return reads.openOrders(accountId, afterOrderId, limit);
    }

    /**
     * The order an account placed with a clientOrderId, for the routes that name an order by it. The view holds every
     * order the engine's dedup window remembers, so the answer is certain while the window remembers the pair; when
     * the view still holds an older final order whose pair the window forgot and a newer order reused, the newer one
     * (the larger id) is answered.
     *
     * @return the order's id, or 0 when the view holds no order of {@code accountId} with that clientOrderId; any
     *     thread (the index is read under its version, each candidate slot under its own)
     */
    public long orderIdOf(final String accountId, final String clientOrderId) {
        final long key = ClientIdIndex.key(accountId, clientOrderId);
        final ClientIdMatch match = new ClientIdMatch(this, accountId, clientOrderId);
        while (true) {
            final long indexBefore = (long) INDEX_VERSION.getAcquire(this);
            if ((indexBefore & 1) != 0) {
                Thread.onSpinWait();
                continue;
            }
            match.orderId = 0;
            clientIds.candidates(key, match);
            VarHandle.loadLoadFence();
            if ((long) INDEX_VERSION.getOpaque(this) == indexBefore) {
                return match.orderId;
            }
        }
    }

    /** @return the slot that holds {@code orderId}, or NONE; any thread (the index is read under its version) */
    int slotOf(final long orderId) {
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

    /**
     * Writes the view's complete state, in the format {@link OrderStateViewSnapshot#write} describes. Call on the
     * view's writer thread, or when no writer runs.
     *
     * @throws java.io.UTFDataFormatException if a clientOrderId or account is longer than UTF can write
     */
    public void writeSnapshot(final DataOutput out) throws IOException {
        new OrderStateViewSnapshot(this).write(out);
    }

    /**
     * Restores a state written by {@link #writeSnapshot} into this view, which must be freshly constructed (nothing
     * applied yet); call before any writer or reader uses it. See {@link OrderStateViewRestore}.
     *
     * @throws java.io.IOException on a malformed or truncated input; a view whose restore threw must be discarded
     * @throws IllegalStateException if this view already holds state
     */
    public void restoreSnapshot(final DataInput in) throws IOException {
        new OrderStateViewRestore(this).restore(in);
    }

    private void accepted(final EngineEvent e) {
        final int slot = allocateSlot();
        final int c = slot >>> SHIFT;
        final int i = slot & MASK;
        beginSlot(c, i);
        ids[c][i] = e.orderId;
        clientOrderIds.set(slot, e.clientOrderId);
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
        final long clientKey = clientOrderIds.key(slot, e.accountId);
        beginIndex();
        index.put(e.orderId, slot);
        if (clientKey != 0) {
            clientIds.put(clientKey, slot);
        }
        endIndex();
        if (!e.clientOrderId.isNull()) {
            retention.placedWithClientOrderId(e.orderId);   // as the engine's dedup window remembers every such order
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
        retention.closed(orderId);
    }

    /** Drops a final order: its index entry, its fills and its slot, all reused later. */
    void forget(final long orderId) {
        final int slot = index.find(orderId);
        if (slot == NONE) {
            return;
        }
        final int c = slot >>> SHIFT;
        final int i = slot & MASK;
        final long clientKey = accounts[c][i] == null ? 0 : clientOrderIds.key(slot, accounts[c][i]);
        beginIndex();
        index.remove(orderId);
        if (clientKey != 0) {
            clientIds.remove(clientKey, slot);
        }
        endIndex();
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
        clientOrderIds.clear(slot);
        endSlot(c, i);
        freeSlots.push(slot);
    }

    int allocateSlot() {
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
            clientOrderIds.allocate(c);
        }
        slotsUsed = slot + 1;
        return slot;
    }

    int allocateFill() {
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

    void beginIndex() {
        INDEX_VERSION.setOpaque(this, (long) INDEX_VERSION.getOpaque(this) + 1);
        VarHandle.storeStoreFence();
    }

    void endIndex() {
        INDEX_VERSION.setRelease(this, (long) INDEX_VERSION.getOpaque(this) + 1);
    }
}
