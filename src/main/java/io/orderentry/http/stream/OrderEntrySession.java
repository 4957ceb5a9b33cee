package io.orderentry.http.stream;

import io.orderentry.auth.ApiKey;
import io.orderentry.query.OrderState;
import io.orderentry.query.OrderStateView;
import java.util.Arrays;

/**
 * What one stream connection holds for order entry ({@link StreamOrderEntry}): the key it logged in with, whether its
 * orders are canceled when it closes, how many of its commands wait for the engine, and, with cancel on disconnect, the
 * orders placed through it that may still be open.
 *
 * <p>Bounds: the waiting commands are at most {@code ws.max.pending.orders} (the session refuses more); the placed
 * orders are kept only while open: when the list is full it drops the ones the order view shows final before it
 * grows, so it never holds more than the orders of this connection resting in the books (which the engine bounds)
 * plus those placed since the last sweep.
 *
 * <p>Threads: the session's event loop.
 */
final class OrderEntrySession {

    private static final int INITIAL = 64;

    private ApiKey key;
    private boolean cancelOnDisconnect;
    private int waiting;
    private long[] placed = new long[INITIAL];
    private int placedCount;

    /** @return the key the connection logged in with (or that its upgrade's header carried), or null */
    ApiKey key() {
        return key;
    }

    void loggedIn(final ApiKey key, final boolean cancelOnDisconnect) {
        this.key = key;
        this.cancelOnDisconnect = this.cancelOnDisconnect || cancelOnDisconnect;
    }

    boolean cancelOnDisconnect() {
        return cancelOnDisconnect;
    }

    /** @return the commands sent and not yet answered */
    int waiting() {
        return waiting;
    }

    void sent() {
        waiting++;
    }

    void answered() {
        waiting--;
    }

    /** Notes an order placed through this connection, for its cancel on disconnect; only while that is on. */
    void placed(final long orderId, final OrderStateView view) {
        if (!cancelOnDisconnect) {
            return;
        }
        for (int i = placedCount - 1; i >= 0 && i >= placedCount - 4; i--) {
            if (placed[i] == orderId) {
                return;     // a retry answered again: noted already
            }
        }
        if (placedCount == placed.length) {
            dropFinal(view);
            if (placedCount * 4 >= placed.length * 3) {
                placed = Arrays.copyOf(placed, placed.length * 2);
            }
        }
        placed[placedCount++] = orderId;
    }

    /** @return the orders placed through this connection that the view shows open now, oldest first */
    long[] openOrders(final OrderStateView view) {
        dropFinal(view);
        return Arrays.copyOf(placed, placedCount);
    }

    /** @return how many placed orders are noted (open, or final since the last sweep) */
    int noted() {
        return placedCount;
    }

    private void dropFinal(final OrderStateView view) {
        int kept = 0;
        for (int i = 0; i < placedCount; i++) {
            final OrderState order = view.get(placed[i]);
            if (order != null && order.status().isOpen()) {
                placed[kept++] = placed[i];
            }
        }
        placedCount = kept;
    }
}
