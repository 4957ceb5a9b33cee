package io.orderentry.engine;

/**
 * All orders resting at one price on one side of a book, oldest first (time priority), with their
 * total remaining quantity. Pooled and reused by the {@link Matcher}; a level in a book is never
 * empty.
 *
 * <p>Owned and mutated only by the matcher thread.
 */
final class PriceLevel {

    BookSide side;
    long price;
    long totalQuantity;
    int orderCount;
    Order head;
    Order tail;

    void init(final BookSide side, final long price) {
        this.side = side;
        this.price = price;
    }

    /** Appends an order at the back of the queue and adds its remaining quantity to the total. */
    void append(final Order order) {
        order.level = this;
        order.prev = tail;
        order.next = null;
        if (tail == null) {
            head = order;
        } else {
            tail.next = order;
        }
        tail = order;
        totalQuantity += order.remaining();
        orderCount++;
    }

    /** Unlinks an order from anywhere in the queue and subtracts its remaining quantity from the total. */
    void remove(final Order order) {
        final Order prev = order.prev;
        final Order next = order.next;
        if (prev == null) {
            head = next;
        } else {
            prev.next = next;
        }
        if (next == null) {
            tail = prev;
        } else {
            next.prev = prev;
        }
        totalQuantity -= order.remaining();
        orderCount--;
    }

    boolean isEmpty() {
        return orderCount == 0;
    }

    /** Drops every reference so that a pooled level keeps nothing alive. */
    void clear() {
        side = null;
        head = null;
        tail = null;
        totalQuantity = 0;
        orderCount = 0;
    }
}
