package io.orderentry.account;

import io.orderentry.pipeline.BatchStage;
import io.orderentry.pipeline.EngineEvent;
import io.orderentry.query.OrderState;
import io.orderentry.query.OrderStateView;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The private {@code orders} stream of each account: a part of the output ring's order stage, after the
 * {@link OrderStateView}, so that in {@link #apply} the view already holds the order as this very event left it.
 *
 * <h2>Feeds</h2>
 * Each account that has had a subscriber in this process has a feed: its sequence (the number of updates of the
 * account since its feed began; 0 at each process start, so a client always starts from a snapshot) and its
 * subscribers. Every sequenced engine event that changes an order of such an account ({@link OrderEvent}: the maker's
 * and the taker's account for a trade), and with balances every change of one of its balances (a balance message),
 * takes the feed's next sequence and the order's state from the view; at
 * {@link #endOfBatch} each update is rendered once ({@link FeedRenderer}) and each subscriber is handed the account's
 * updates of the batch in one call. An event of an account without a feed costs one map look-up.
 *
 * <h2>Subscribing</h2>
 * A subscription is not added by the event loop that asked for it but by this stage, through {@link #subscribe}: the
 * stage takes the pending requests at every end of batch, after handing out the batch's updates, adds each new
 * subscriber to its feed and tells it the feed's current sequence ({@link FeedSubscriber#startsAfter}). It does not
 * read the account's open orders: this thread also sends every order answer, and an account may have thousands, so
 * the subscriber reads them itself, off this thread and in bounded chunks, from the view (which any thread may read),
 * keeping the updates that arrive meanwhile ({@link SnapshotAssembly}). When it has read them it asks for a mark
 * ({@link #mark}); the stage answers between two batches with the feed's sequence ({@link FeedSubscriber#marked}), and
 * the subscriber's snapshot is the orders it read with its kept updates up to the mark laid over them: exactly the
 * open orders after that update, every change either in it or after it, never both and never neither (the proof is at
 * {@link SnapshotAssembly}). The caller wakes the stage with a tick through the input ring; any later batch would do
 * too. A subscriber that fell behind subscribes again the same way and starts again from a fresh sequence. A request
 * costs the stage one map look-up and one hand-over, whatever the account's size.

 * <h2>Ending</h2>
 * {@link #unsubscribe} (any thread) takes a subscriber out of its feed; one whose subscription ends while it waits to
 * be added is dropped by the stage, which checks {@link FeedSubscriber#closed} after adding it. A feed left without
 * subscribers keeps its sequence; past {@value #IDLE_FEEDS_KEPT} feeds, the ones without subscribers are forgotten
 * when a new one is made (their accounts' next subscribers start again from sequence 0), so that subscribing with
 * ever new account names cannot grow the map without bound.
 *
 * <p>Threads: {@link #apply} and {@link #endOfBatch} on the order stage's thread, the only writer of feeds' sequences;
 * {@link #subscribe} and {@link #unsubscribe} on any thread (the event loops). Allocates only for accounts with a feed.
 */
public final class AccountFeedStage implements BatchStage<EngineEvent> {

    /** Feeds kept without subscribers, at most; see the class comment. */
    static final int IDLE_FEEDS_KEPT = 10_000;

    /** One account's feed. */
    private static final class Feed {
        final String accountId;
        final List<FeedSubscriber> subscribers = new CopyOnWriteArrayList<>();
        /** The sequence of the account's last update; order stage thread only. */
        long sequence;
        /** This batch's updates, in sequence order; order stage thread only. */
        List<OrderUpdate> batch = new ArrayList<>();

        Feed(final String accountId) {
            this.accountId = accountId;
        }
    }

    /** A subscriber's request to the stage: to join its feed, or a mark. */
    private record Request(FeedSubscriber subscriber, boolean mark) {
    }

    private final OrderStateView view;
    private final FeedRenderer renderer;
    private final Map<String, Feed> feeds = new ConcurrentHashMap<>();
    /** Subscribes and marks, in the order asked for. */
    private final Queue<Request> pending = new ConcurrentLinkedQueue<>();
    /** Feeds with updates in the current batch, in the order of their first one. */
    private final List<Feed> touched = new ArrayList<>();
    private final AtomicInteger subscribers = new AtomicInteger();

    /** @param renderer renders each update once, for every subscriber of its account */
    public AccountFeedStage(final OrderStateView view, final FeedRenderer renderer) {
        this.view = view;
        this.renderer = renderer;
    }

    /**
     * Asks for {@code subscriber} to be added to its account's feed and told the feed's sequence
     * ({@link FeedSubscriber#startsAfter}); done by the stage at its next end of batch, so wake it after calling (a tick
     * through the input ring). Calling it again for a subscriber already in its feed tells it the sequence again, for a
     * fresh snapshot. Any thread.
     */
    public void subscribe(final FeedSubscriber subscriber) {
        pending.add(new Request(subscriber, false));
    }

    /**
     * Asks for {@code subscriber} to be told, at the stage's next end of batch, the feed's sequence then
     * ({@link FeedSubscriber#marked}), after every update up to it; wake the stage after calling. Call it once the
     * subscriber has read the open orders it builds its snapshot from. Any thread.
     */
    public void mark(final FeedSubscriber subscriber) {
        pending.add(new Request(subscriber, true));
    }

    /** Takes {@code subscriber}, whose {@link FeedSubscriber#closed} is already true, out of its feed. Any thread. */
    public void unsubscribe(final FeedSubscriber subscriber) {
        if (!subscriber.closed()) {
            throw new IllegalArgumentException("close the subscription before taking it out of its feed");
        }
        final Feed feed = feeds.get(subscriber.accountId());
        if (feed != null && feed.subscribers.remove(subscriber)) {
            subscribers.decrementAndGet();
        }
    }

    /** @return subscriptions in the accounts' feeds now, for metrics; any thread */
    public int subscribers() {
        return subscribers.get();
    }

    /** @return accounts with a feed, for metrics and tests; any thread */
    public int feeds() {
        return feeds.size();
    }

    @Override
    public void apply(final EngineEvent event, final long sequence) {
        switch (event.type) {
            case ORDER_ACCEPTED -> changed(event.accountId, OrderEvent.ACCEPTED, event.orderId);
            case TRADE -> {
                changed(event.takerAccountId, OrderEvent.FILL, event.takerOrderId);
                changed(event.makerAccountId, OrderEvent.FILL, event.makerOrderId);
            }
            case ORDER_AMENDED -> changed(event.accountId, OrderEvent.AMENDED, event.orderId);
            case ORDER_UPDATED -> {
                final OrderEvent change = OrderEvent.ofUpdate(event.status);
                if (change != null) {
                    changed(event.accountId, change, event.orderId);
                }
            }
            case BALANCE_CHANGED -> balanceChanged(event);
            default -> {
                // not an engine event: no order changed
            }
        }
    }

    /** Hands out the batch's updates, then takes the pending subscribes and marks, in the order asked for. */
    @Override
    public void endOfBatch() {
        for (int i = 0; i < touched.size(); i++) {
            deliver(touched.get(i));
        }
        touched.clear();
        for (Request next = pending.poll(); next != null; next = pending.poll()) {
            if (next.mark()) {
                answerMark(next.subscriber());
            } else {
                add(next.subscriber());
            }
        }
    }

    private void answerMark(final FeedSubscriber subscriber) {
        final Feed feed = feeds.get(subscriber.accountId());
        if (subscriber.closed() || feed == null) {
            return;     // ended meanwhile (its feed may even be forgotten): nobody waits for the mark
        }
        subscriber.marked(feed.sequence);
    }

    private void changed(final String accountId, final OrderEvent change, final long orderId) {
        final Feed feed = accountId == null ? null : feeds.get(accountId);
        if (feed == null) {
            return;
        }
        feed.sequence++;
        if (feed.subscribers.isEmpty()) {
            return;     // counted, so that a later subscriber's sequence goes on from here; nobody to render it for
        }
        final OrderState order = view.get(orderId);
        if (order == null) {
            throw new IllegalStateException("the order view does not hold order " + orderId + " right after its "
                    + change + " event");
        }
        if (feed.batch.isEmpty()) {
            touched.add(feed);
        }
        feed.batch.add(new OrderUpdate(feed.sequence, change, order));
    }

    private void balanceChanged(final EngineEvent event) {
        final Feed feed = feeds.get(event.accountId);
        if (feed == null) {
            return;
        }
        feed.sequence++;
        if (feed.subscribers.isEmpty()) {
            return;
        }
        if (feed.batch.isEmpty()) {
            touched.add(feed);
        }
        feed.batch.add(new OrderUpdate(feed.sequence, null, null,
                new OrderUpdate.Balance(event.asset, event.available, event.held, event.eventSequence)));
    }

    private void deliver(final Feed feed) {
        final List<OrderUpdate> updates = List.copyOf(feed.batch);
        feed.batch.clear();
        final List<byte[]> rendered = new ArrayList<>(updates.size());
        for (int i = 0; i < updates.size(); i++) {
            rendered.add(renderer.render(feed.accountId, updates.get(i)));
        }
        final List<byte[]> shared = List.copyOf(rendered);
        for (final FeedSubscriber subscriber : feed.subscribers) {
            if (!subscriber.closed()) {
                subscriber.updates(updates, shared);
            }
        }
    }

    private void add(final FeedSubscriber subscriber) {
        if (subscriber.closed()) {
            return;
        }
        Feed feed = feeds.get(subscriber.accountId());
        if (feed == null) {
            if (feeds.size() >= IDLE_FEEDS_KEPT) {
                feeds.values().removeIf(idle -> idle.subscribers.isEmpty() && idle.batch.isEmpty());
            }
            feed = new Feed(subscriber.accountId());
            feeds.put(subscriber.accountId(), feed);
        }
        subscriber.startsAfter(feed.sequence);
        if (feed.subscribers.contains(subscriber)) {
            return;     // a fresh snapshot for a subscriber that fell behind: it stays where it is
        }
        feed.subscribers.add(subscriber);
        subscribers.incrementAndGet();
        if (subscriber.closed() && feed.subscribers.remove(subscriber)) {
            subscribers.decrementAndGet();     // it ended while it was being added, after its unsubscribe looked
        }
    }
}
