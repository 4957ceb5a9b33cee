package io.orderentry.query;

import io.orderentry.engine.OrderStatus;
import io.orderentry.engine.OrderType;
import io.orderentry.engine.RejectReason;
import io.orderentry.engine.Side;
import io.orderentry.engine.TimeInForce;
import io.orderentry.pipeline.BatchStage;
import io.orderentry.pipeline.EngineEvent;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;

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
 * last {@code retainedFinalOrders} that became final, then forgotten oldest first.
 */
public final class OrderStateView implements BatchStage<EngineEvent> {

    private static final int SHIFT = 14;
    private static final int CHUNK = 1 << SHIFT;
    private static final int MASK = CHUNK - 1;
    /** Chunks per array: 4096 x 16384 = 67M slots, far above what the engine's limits let live at once. */
    private static final int MAX_CHUNKS = 4096;
    private static final int NONE = -1;
    private static final VarHandle INTS = MethodHandles.arrayElementVarHandle(int[].class);
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
    private static final TimeInForce[] TIFS = TimeInForce.values();
    private static final OrderStatus[] STATUSES = OrderStatus.values();
    private static final RejectReason[] REASONS = RejectReason.values();

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
    /** side, type, time in force, post-only, status and reject reason, 8 bits each but post-only. */
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

    private final Map<String, NavigableSet<Long>> openByAccount = new ConcurrentHashMap<>();
    private final long[] finalOrders;
    private long finalCount;
    private long appliedSequence;
    private volatile long lastEventSequence;

    /**
     * @param retainedFinalOrders how many final orders to keep answering GETs for
     */
    public OrderStateView(final int retainedFinalOrders) {
        if (retainedFinalOrders <= 0) {
            throw new IllegalArgumentException("retainedFinalOrders must be > 0");
        }
        this.finalOrders = new long[retainedFinalOrders];
    }

    @Override
    public void apply(final EngineEvent event, final long sequence) {
        switch (event.type) {
            case ORDER_ACCEPTED -> accepted(event);
            case TRADE -> traded(event);
            case ORDER_UPDATED -> updated(event);
            case COMMAND_COMPLETED, REQUEST_REJECTED, REPLAY_COMPLETED -> {
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

    /** @return the order's current state, or null if it never existed or is no longer retained; any thread */
    public OrderState get(final long orderId) {
        while (true) {
            final long indexBefore = (long) INDEX_VERSION.getAcquire(this);
            if ((indexBefore & 1) != 0) {
                Thread.onSpinWait();
                continue;
            }
            final int slot = index.find(orderId);
            VarHandle.loadLoadFence();
            if ((long) INDEX_VERSION.getOpaque(this) != indexBefore) {
                continue;
            }
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
            TimeInForce.GTC, false, 0, 0, OrderStatus.NEW, 0, 0, 0, RejectReason.NONE, 0, 0, 0, null);

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
        return new OrderState(id, clientOrderId, account, symbol, SIDES[kind & 0xff], TYPES[(kind >>> 8) & 0xff],
                TIFS[(kind >>> 16) & 0x7f], (kind & (1 << 23)) != 0, price, quantity, STATUSES[(kind >>> 24) & 0xf],
                filledQuantity, remainingQuantity, notional, REASONS[kind >>> 28], sequence, created, updated, last);
    }

    /**
     * @param afterOrderId only orders with a larger id (0 for all)
     * @param limit        at most this many
     * @return the account's open orders, oldest first
     */
    public List<OrderState> openOrders(final String accountId, final long afterOrderId, final int limit) {
        final NavigableSet<Long> open = openByAccount.get(accountId);
        if (open == null) {
            return Collections.emptyList();
        }
        final List<OrderState> result = new ArrayList<>(Math.min(limit, 64));
        for (final Long id : open.tailSet(afterOrderId, false)) {
            final OrderState state = get(id);
            if (state != null && state.status().isOpen()) {
                result.add(state);
                if (result.size() == limit) {
                    break;
                }
            }
        }
        return result;
    }

    /** @return the sequence of the last engine event applied; readable from any thread */
    public long lastEventSequence() {
        return lastEventSequence;
    }

    /** @return how many orders are held (open plus retained final ones); any thread */
    public int size() {
        return index.size();
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
        kinds[c][i] = e.side.ordinal() | e.orderType.ordinal() << 8 | e.timeInForce.ordinal() << 16
                | (e.postOnly ? 1 << 23 : 0) | OrderStatus.NEW.ordinal() << 24 | RejectReason.NONE.ordinal() << 28;
        lastFills[c][i] = NONE;
        fillCounts[c][i] = 0;
        endSlot(c, i);
        beginIndex();
        index.put(e.orderId, slot);
        endIndex();
    }

    private void traded(final EngineEvent e) {
        final int taker = index.find(e.takerOrderId);
        final long takerQuantity = quantities[taker >>> SHIFT][taker & MASK];
        filledBy(taker, e, true, e.takerFilledQuantity, takerQuantity == e.takerFilledQuantity
                ? OrderStatus.FILLED : OrderStatus.PARTIALLY_FILLED);
        final int maker = index.find(e.makerOrderId);
        filledBy(maker, e, false, e.makerFilledQuantity, e.makerStatus);
        if (!e.makerStatus.isOpen()) {
            closed(accounts[maker >>> SHIFT][maker & MASK], e.makerOrderId);
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
        final String account = accounts[c][i];
        if (e.status.isOpen()) {
            openByAccount.computeIfAbsent(account, a -> new ConcurrentSkipListSet<>()).add(e.orderId);
        } else {
            closed(account, e.orderId);
        }
    }

    private void closed(final String accountId, final long orderId) {
        final NavigableSet<Long> open = openByAccount.get(accountId);
        if (open != null) {
            open.remove(orderId);
            if (open.isEmpty()) {
                openByAccount.remove(accountId, open);
            }
        }
        final int slot = (int) (finalCount % finalOrders.length);
        if (finalCount >= finalOrders.length) {
            forget(finalOrders[slot]);
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
        final int[] version = versions[c];
        INTS.setOpaque(version, i, version[i] + 1);
        VarHandle.storeStoreFence();
    }

    private void endSlot(final int c, final int i) {
        final int[] version = versions[c];
        INTS.setRelease(version, i, version[i] + 1);
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
