package io.orderentry.engine;

/**
 * A resting order: one node of its price level's FIFO list. Pooled and reused by the {@link Matcher};
 * only resting orders have a node. Kept lean (three longs, four references) so that a million of them
 * fit easily in a small heap: price, side and symbol are those of {@link #level}.
 *
 * <p>Owned and mutated only by the matcher thread.
 */
final class Order {

    long orderId;
    long quantity;
    long filled;
    String accountId;
    PriceLevel level;
    Order prev;
    Order next;

    void init(final long orderId, final String accountId, final long quantity, final long filled) {
        this.orderId = orderId;
        this.accountId = accountId;
        this.quantity = quantity;
        this.filled = filled;
    }

    long remaining() {
        return quantity - filled;
    }

    /** Drops every reference so that a pooled node keeps nothing alive. */
    void clear() {
        accountId = null;
        level = null;
        prev = null;
        next = null;
    }
}
