package io.orderentry.query;

import io.orderentry.engine.OrderStatus;
import io.orderentry.engine.OrderType;
import io.orderentry.engine.RejectReason;
import io.orderentry.engine.SelfTradePrevention;
import io.orderentry.engine.Side;
import io.orderentry.engine.TimeInForce;

/**
 * The {@link OrderStateView} that a snapshot writer or reader works on, and the view's chunked arrays, held here so
 * that the loops over them read a field of their own rather than the view's on every access. The outer arrays never
 * change (their chunks are allocated as slots are), so holding them is safe for the view's life. Used on the view's
 * writer thread, or while no writer runs.
 */
abstract class ViewArrays {

    // the view's encodings, shared by the snapshot's writer and reader
    static final int SHIFT = SlotVersions.SHIFT;
    static final int MASK = SlotVersions.MASK;
    static final int TYPE_SHIFT = OrderStateView.TYPE_SHIFT;
    static final int STP_SHIFT = OrderStateView.STP_SHIFT;
    static final Side[] SIDES = OrderStateView.SIDES;
    static final OrderType[] TYPES = OrderStateView.TYPES;
    static final SelfTradePrevention[] STPS = OrderStateView.STPS;
    static final TimeInForce[] TIFS = OrderStateView.TIFS;
    static final OrderStatus[] STATUSES = OrderStateView.STATUSES;
    static final RejectReason[] REASONS = OrderStateView.REASONS;
    static final int NO_ACCOUNT = -1;
    static final int NO_CLIENT_ORDER_ID = -1;


    final OrderStateView view;
    // the view's chunked arrays (the outer arrays never change; their chunks are allocated as slots are)
    final long[][] ids;
    final long[][] prices;
    final long[][] quantities;
    final long[][] filled;
    final long[][] remaining;
    final long[][] notionals;
    final long[][] sequences;
    final long[][] createdAt;
    final long[][] updatedAt;
    final int[][] symbols;
    final int[][] kinds;
    final int[][] lastFills;
    final int[][] fillCounts;
    final String[][] accounts;
    final ClientOrderIds clientOrderIds;
    final long[][] fillTradeIds;
    final long[][] fillPrices;
    final long[][] fillQuantities;
    final long[][] fillTimes;
    final int[][] fillLinks;

    ViewArrays(final OrderStateView view) {
        this.view = view;
        this.ids = view.ids;
        this.prices = view.prices;
        this.quantities = view.quantities;
        this.filled = view.filled;
        this.remaining = view.remaining;
        this.notionals = view.notionals;
        this.sequences = view.sequences;
        this.createdAt = view.createdAt;
        this.updatedAt = view.updatedAt;
        this.symbols = view.symbols;
        this.kinds = view.kinds;
        this.lastFills = view.lastFills;
        this.fillCounts = view.fillCounts;
        this.accounts = view.accounts;
        this.clientOrderIds = view.clientOrderIds;
        this.fillTradeIds = view.fillTradeIds;
        this.fillPrices = view.fillPrices;
        this.fillQuantities = view.fillQuantities;
        this.fillTimes = view.fillTimes;
        this.fillLinks = view.fillLinks;
    }
}
