package io.orderentry.query;

/**
 * Which final orders the {@link OrderStateView} keeps answering for: the last {@code retainedFinalOrders} that became
 * final, in a ring that forgets the oldest first, and beyond them any whose clientOrderId the engine's dedup window
 * still remembers (at most the window's size of them), so that a retry is always answered with its order. Open
 * orders are not its business: the engine bounds them.
 *
 * <p>It keeps the dedup window's order ids itself (the engine's {@code Matcher} holds the same ones), because the
 * view sees only events: each placed order with a clientOrderId enters the window, and a final order kept only for
 * retries is forgotten when the window forgets it.
 *
 * <p>Threads: the view's writer thread only (the order stage's, or the one that restores a snapshot).
 * {@link OrderStateViewSnapshot} and {@link OrderStateViewRestore} read and fill the ring directly.
 */
final class FinalOrderRetention {

    private final OrderStateView view;
    /** The ids of the retained final orders; the next to be replaced at {@code finalCount % length}. */
    final long[] finalOrders;
    /** Advances by one per final order retained and per pinned order kept past the ring's oldest end. */
    long finalCount;
    /**
     * The ids of the last {@code dedupWindow} orders that carried a clientOrderId, oldest at
     * {@code windowCount % length} once full: the engine's dedup window (Matcher), kept here too so that a final
     * order a retry can still name is never forgotten. Empty when the window is 0 (tests of the view alone).
     */
    private final long[] windowIds;
    private long windowCount;
    /** Final orders past the retained count that are kept because the dedup window still names them. */
    private final LongSet pinned = new LongSet();

    /**
     * @param view                the view whose orders this forgets
     * @param retainedFinalOrders how many final orders to keep answering for
     * @param dedupWindow         the engine's dedup window; 0 keeps no order for retries
     */
    FinalOrderRetention(final OrderStateView view, final int retainedFinalOrders, final int dedupWindow) {
        this.view = view;
        this.finalOrders = new long[retainedFinalOrders];
        this.windowIds = new long[dedupWindow];
    }

    /** An order with a clientOrderId was placed: the engine's dedup window remembers it, so does this. */
    void placedWithClientOrderId(final long orderId) {
        if (windowIds.length == 0) {
            return;
        }
        final int slot = (int) (windowCount % windowIds.length);
        if (windowCount >= windowIds.length && pinned.remove(windowIds[slot])) {
            view.forget(windowIds[slot]);   // kept only for retries, which can no longer name it
        }
        windowIds[slot] = orderId;
        windowCount++;
    }

    /** An order became final: it is retained, and the oldest retained one forgotten unless a retry may name it. */
    void closed(final long orderId) {
        final int slot = (int) (finalCount % finalOrders.length);
        if (finalCount >= finalOrders.length) {
            final long oldest = finalOrders[slot];
            if (inDedupWindow(oldest)) {
                pinned.add(oldest);   // a retry may still name it: kept until the dedup window forgets it
            } else {
                view.forget(oldest);
            }
        }
        finalOrders[slot] = orderId;
        finalCount++;
    }

    /**
     * Sets the dedup window's order ids, oldest first, and keeps or forgets the final orders the view holds beyond
     * its ring accordingly; see {@link OrderStateView#restoreDedupWindow}.
     */
    void restoreDedupWindow(final long[] orderIdsOldestFirst) {
        windowCount = 0;
        if (windowIds.length == 0) {
            return;
        }
        final int from = Math.max(0, orderIdsOldestFirst.length - windowIds.length);
        for (int k = from; k < orderIdsOldestFirst.length; k++) {
            placedWithClientOrderId(orderIdsOldestFirst[k]);
        }
        // the final orders the snapshot holds beyond its ring are the ones kept for retries
        final LongSet inRing = new LongSet();
        for (int k = 0; k < Math.min(finalCount, finalOrders.length); k++) {
            inRing.add(finalOrders[k]);
        }
        view.forEachFinalOrder(id -> {
            if (!inRing.contains(id)) {
                if (inDedupWindow(id)) {
                    pinned.add(id);
                } else {
                    view.forget(id);
                }
            }
        });
    }

    /** @return whether the engine still remembers {@code orderId}'s clientOrderId, so a retry may name it */
    private boolean inDedupWindow(final long orderId) {
        if (windowCount == 0) {
            return false;
        }
        final long oldest = windowCount < windowIds.length ? windowIds[0]
                : windowIds[(int) (windowCount % windowIds.length)];
        return orderId >= oldest && view.holdsWithClientOrderId(orderId);
    }
}
