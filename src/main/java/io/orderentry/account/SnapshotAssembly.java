package io.orderentry.account;

import io.orderentry.query.OrderState;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * One orders snapshot being built off the order stage, in chunks, by whoever follows the account (an event loop),
 * so that a subscribe never makes {@code oe-orders}, the thread that sends every order answer, read an account's
 * whole open-order list.
 *
 * <h2>How it stays exact</h2>
 * The stage puts the subscriber in its feed between two batches and tells it the feed's sequence {@code S}
 * ({@link FeedSubscriber#startsAfter}); every update after {@code S} goes to the subscriber from then on, and this
 * assembly keeps them ({@link #updates}). Meanwhile {@link #readChunk} reads the account's open orders from the order
 * view, at most {@code chunk} at a time and in ascending order id, while the stage goes on: each order read is exactly
 * as some event left it, at {@code S} or later. Once the reading is done the follower asks the stage for a mark
 * ({@link AccountFeedStage#mark}); the stage answers, between two batches, with its sequence {@code F}
 * ({@link FeedSubscriber#marked}), after handing out every update up to {@code F}, so that every event the reads saw
 * has its update, numbered at most {@code F}, in this assembly. {@link #complete} then lays each kept update up to
 * {@code F} over the orders read, in sequence order (an open order replaces what was read, a final one removes it):
 * an order changed after {@code S} ends as its last update up to {@code F} left it, an order not changed was read as it
 * is at {@code F}, and an order open at {@code F} that the reads missed (it opened behind the reading's position) has
 * an update. The result is the account's open orders exactly as after update {@code F}, and the updates after
 * {@code F} follow it.
 *
 * <p>Bounds: each {@link #readChunk} reads at most {@code chunk} orders; at most {@code maxUpdates} updates are kept,
 * past which {@link #updates} answers false and the follower starts again (a fresh {@code startsAfter}).
 *
 * <p>Not thread-safe: used on the follower's thread only (the connection's event loop).
 */
public final class SnapshotAssembly {

    /** Reads open orders; {@code OrderStateView::openOrders}, which any thread may call. */
    @FunctionalInterface
    public interface OpenOrders {
        /** @return up to {@code limit} of the account's open orders with ids above {@code afterOrderId}, ascending */
        List<OrderState> read(String accountId, long afterOrderId, int limit);
    }

    private final String accountId;
    private final long startSequence;
    private final int maxUpdates;
    private final TreeMap<Long, OrderState> orders = new TreeMap<>();
    private final List<OrderUpdate> kept = new ArrayList<>();
    private long cursor;
    private boolean read;

    /**
     * @param startSequence the feed's sequence when the subscriber joined it ({@link FeedSubscriber#startsAfter})
     * @param maxUpdates    updates that may be kept while the snapshot is built
     */
    public SnapshotAssembly(final String accountId, final long startSequence, final int maxUpdates) {
        if (maxUpdates < 1) {
            throw new IllegalArgumentException("maxUpdates must be at least 1");
        }
        this.accountId = accountId;
        this.startSequence = startSequence;
        this.maxUpdates = maxUpdates;
    }

    /** @return the feed's sequence the assembly started after */
    public long startSequence() {
        return startSequence;
    }

    /**
     * Reads the next at most {@code chunk} open orders from {@code view}.
     *
     * @return true once every open order has been read: ask the stage for a mark then
     */
    public boolean readChunk(final OpenOrders view, final int chunk) {
        if (read) {
            return true;
        }
        final List<OrderState> next = view.read(accountId, cursor, chunk);
        for (final OrderState order : next) {
            orders.put(order.orderId(), order);
        }
        if (!next.isEmpty()) {
            cursor = next.get(next.size() - 1).orderId();
        }
        read = next.size() < chunk;
        return read;
    }

    /** @return whether every open order has been read */
    public boolean read() {
        return read;
    }

    /**
     * Keeps the account's updates that follow {@code startSequence}, consecutive as the feed hands them out.
     *
     * @return false when more than {@code maxUpdates} would be kept: start again
     * @throws IllegalStateException when an update is not the next one: a bug in the hand-over
     */
    public boolean updates(final List<OrderUpdate> updates) {
        for (final OrderUpdate update : updates) {
            if (update.sequence() <= startSequence) {
                continue;
            }
            final long expected = kept.isEmpty() ? startSequence + 1 : kept.get(kept.size() - 1).sequence() + 1;
            if (update.sequence() != expected) {
                throw new IllegalStateException("orders update " + update.sequence() + " where " + expected
                        + " was due for account " + accountId + ": the hand-over lost updates");
            }
            if (kept.size() == maxUpdates) {
                return false;
            }
            kept.add(update);
        }
        return true;
    }

    /**
     * @param markSequence the stage's sequence at the mark ({@link FeedSubscriber#marked}); every update up to it has
     *                     been passed to {@link #updates}
     * @return the account's open orders as after update {@code markSequence}, oldest (lowest id) first
     * @throws IllegalStateException before the reading is done, or when updates up to the mark are missing
     */
    public List<OrderState> complete(final long markSequence) {
        if (!read) {
            throw new IllegalStateException("the open orders of " + accountId + " are not read yet");
        }
        final long lastKept = kept.isEmpty() ? startSequence : kept.get(kept.size() - 1).sequence();
        if (lastKept < markSequence) {
            throw new IllegalStateException("the mark " + markSequence + " of account " + accountId
                    + " came before its updates (the last kept is " + lastKept + ")");
        }
        for (final OrderUpdate update : kept) {
            if (update.sequence() > markSequence) {
                break;
            }
            final OrderState order = update.order();
            if (order == null) {
                continue;   // a balance's change: no order in the snapshot changed
            }
            if (order.status().isOpen()) {
                orders.put(order.orderId(), order);
            } else {
                orders.remove(order.orderId());
            }
        }
        return List.copyOf(orders.values());
    }
}
