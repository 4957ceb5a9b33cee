package io.orderentry.query;

import io.orderentry.engine.OrderStatus;
import io.orderentry.engine.OrderType;
import io.orderentry.engine.RejectReason;
import io.orderentry.engine.SelfTradePrevention;
import io.orderentry.engine.Side;
import io.orderentry.engine.TimeInForce;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;

/**
 * The reading side of the {@link OrderStateView}: an order's slot and its fills copied into the immutable read model
 * ({@link OrderState}, {@link Fill}) under the slot's version, and an account's open orders a page at a time.
 *
 * <p>Threads: any (the HTTP event loops, the stream). Nothing here writes: a reader copies what it needs, checks that
 * the slot's version did not move while it read (the writer makes it odd while it changes the slot), and retries
 * otherwise; the view's index is read under its own version ({@link OrderStateView#slotOf}).
 */
final class OrderStateReads {

    private static final int SHIFT = SlotVersions.SHIFT;
    private static final int MASK = SlotVersions.MASK;
    private static final VarHandle INTS = SlotVersions.INTS;

    /** A marker {@link #read} returns when the slot changed while it was read. */
    private static final OrderState RETRY = new OrderState(0, null, null, 0, Side.BUY, OrderType.LIMIT,
            TimeInForce.GTC, false, SelfTradePrevention.NONE, 0, 0, OrderStatus.NEW, 0, 0, 0, RejectReason.NONE, 0, 0,
            0, null);

    private final OrderStateView view;

    OrderStateReads(final OrderStateView view) {
        this.view = view;
    }

    /** @return the order's current state, or null if it never existed or is no longer retained */
    OrderState get(final long orderId) {
        while (true) {
            final int slot = view.slotOf(orderId);
            if (slot == OrderStateView.NONE) {
                return null;
            }
            final OrderState state = read(slot, orderId);
            if (state != RETRY) {
                return state;
            }
        }
    }

    /**
     * @param afterOrderId only orders with a larger id (0 for all)
     * @param limit        at most this many
     * @return the account's open orders, oldest first
     */
    List<OrderState> openOrders(final String accountId, final long afterOrderId, final int limit) {
        final List<OrderState> result = new ArrayList<>(Math.min(limit, 64));
        long after = afterOrderId;
        while (result.size() < limit) {
            final int wanted = limit - result.size();
            final long[] open = view.openLists.read(accountId, after,
                    after > 0 ? view.slotOf(after) : OrderStateView.NONE, wanted);
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

    /** @return the slot's state if it still holds {@code orderId}, null if it no longer does, or {@link #RETRY} */
    private OrderState read(final int slot, final long orderId) {
        final OrderStateView v = view;
        final int c = slot >>> SHIFT;
        final int i = slot & MASK;
        final int[] version = v.versions[c];
        final int before = (int) INTS.getAcquire(version, i);
        if ((before & 1) != 0) {
            return RETRY;
        }
        final long id = v.ids[c][i];
        final String clientOrderId = v.clientOrderIds.get(slot);
        final String account = v.accounts[c][i];
        final int symbol = v.symbols[c][i];
        final int kind = v.kinds[c][i];
        final long price = v.prices[c][i];
        final long quantity = v.quantities[c][i];
        final long filledQuantity = v.filled[c][i];
        final long remainingQuantity = v.remaining[c][i];
        final long notional = v.notionals[c][i];
        final long sequence = v.sequences[c][i];
        final long created = v.createdAt[c][i];
        final long updated = v.updatedAt[c][i];
        final int count = v.fillCounts[c][i];
        if (count < 0 || count > v.fillsUsed) {
            return RETRY;
        }
        int entry = v.lastFills[c][i];
        final long[] fills = count == 0 ? null : new long[count * 4];
        final boolean[] taker = count == 0 ? null : new boolean[count];
        for (int f = count - 1; f >= 0; f--) {
            if (entry < 0 || entry >= v.fillsUsed) {
                return RETRY;   // the slot is being reused; the version check below would fail too
            }
            final int fc = entry >>> SHIFT;
            final int fi = entry & MASK;
            // a chunk made after the version this reader saw may not be visible yet: retry rather than fail
            final long[] tradeIds = v.fillTradeIds[fc];
            final long[] fillPrice = v.fillPrices[fc];
            final long[] fillQuantity = v.fillQuantities[fc];
            final long[] fillTime = v.fillTimes[fc];
            final int[] links = v.fillLinks[fc];
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
        return new OrderState(id, clientOrderId, account, symbol, OrderStateView.SIDES[kind & 0xff],
                OrderStateView.TYPES[(kind >>> OrderStateView.TYPE_SHIFT) & 0xf],
                OrderStateView.TIFS[(kind >>> 16) & 0x7f], (kind & (1 << 23)) != 0,
                OrderStateView.STPS[(kind >>> OrderStateView.STP_SHIFT) & 0x3], price, quantity,
                OrderStateView.STATUSES[(kind >>> 24) & 0xf], filledQuantity, remainingQuantity, notional,
                OrderStateView.REASONS[kind >>> 28], sequence, created, updated, last);
    }
}
