package io.orderentry.engine;

/**
 * A resting order: one node of its price level's FIFO list and of its account's list of open orders. Pooled and
 * reused by the {@link Matcher}; only resting orders have a node. Kept lean (four longs, two small fields, six
 * references) so that a million of them fit easily in a small heap: price, side and symbol are those of
 * {@link #level}.
 *
 * <p>Owned and mutated only by the matcher thread.
 */
final class Order {

    long orderId;
    long quantity;
    long filled;
    /** Kept for amends: a repriced postOnly order that would cross is rejected. */
    boolean postOnly;
    /** Kept for amends: a repriced order trades as a taker with its own mode. */
    SelfTradePrevention stp;
    String accountId;
    /** The stream connection it was placed through with cancel on disconnect, 0 for none. */
    long session;
    /** With balances: its account's row in the {@link BalanceTable} (rows never move), so a trade looks nothing up. */
    int balanceRow = -1;
    PriceLevel level;
    Order prev;
    Order next;
    /** The account's list, see {@link AccountOrders}. */
    Order accountPrev;
    Order accountNext;

    void init(final long orderId, final String accountId, final long quantity, final long filled,
              final boolean postOnly, final SelfTradePrevention stp, final long session) {
        this.orderId = orderId;
        this.session = session;
        this.accountId = accountId;
        this.quantity = quantity;
        this.filled = filled;
        this.postOnly = postOnly;
        this.stp = stp;
    }

    long remaining() {
        return quantity - filled;
    }

    /** Drops every reference so that a pooled node keeps nothing alive. */
    void clear() {
        balanceRow = -1;
        accountId = null;
        stp = null;
        level = null;
        prev = null;
        next = null;
        accountPrev = null;
        accountNext = null;
    }
}
