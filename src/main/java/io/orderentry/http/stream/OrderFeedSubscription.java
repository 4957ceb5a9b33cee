package io.orderentry.http.stream;

import io.orderentry.account.FeedSubscriber;
import io.orderentry.account.OrderUpdate;
import io.orderentry.account.SnapshotAssembly;
import io.vertx.core.Context;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One stream connection's subscription to an account's orders, as the order stage sees it: each call hops onto the
 * connection's event loop (one task per call, run in call order) and goes to its {@link OrderChannel}.
 *
 * <p>Hand-over bound: at most {@code maxQueued} updates may wait for the loop. Past that the stage's next updates are
 * dropped and the loop, when it gets to it, asks for a fresh snapshot, which covers them; the order stage never waits
 * for a loop. A subscription replaced or ended is never reused: messages still on their way for it are ignored.
 *
 * <p>Threads: {@link #startsAfter}, {@link #marked} and {@link #updates} on the order stage's thread; the rest on the event loop.
 */
final class OrderFeedSubscription implements FeedSubscriber {

    /** Where the calls land on the loop: the loop's {@link OrderChannel}. */
    interface Receiver {
        /** The subscription is in its feed; updates after {@code sequence} follow: build the snapshot. */
        void startsAfter(OrderFeedSubscription subscription, long sequence);

        /** The mark asked for once the open orders were read: every update up to {@code sequence} came before. */
        void marked(OrderFeedSubscription subscription, long sequence);

        void updates(OrderFeedSubscription subscription, List<OrderUpdate> updates, List<byte[]> frames);

        /** Updates were dropped since the last {@link #overrunHandled}: ask for a fresh snapshot. */
        void overrun(OrderFeedSubscription subscription);
    }

    private final Receiver channel;
    private final StreamSession session;
    private final Context context;
    private final String accountId;
    private final String keyId;
    private final int maxQueued;
    private final AtomicInteger queued = new AtomicInteger();
    private final AtomicBoolean overrun = new AtomicBoolean();
    private volatile boolean closed;
    /** The snapshot being built, or null; on the loop only. */
    private SnapshotAssembly assembly;

    /**
     * @param keyId     the API key that admitted the subscription, or null with authentication off
     * @param maxQueued updates that may wait for the loop before the next are dropped for a fresh snapshot
     */
    OrderFeedSubscription(final Receiver channel, final StreamSession session, final Context context,
                          final String accountId, final String keyId, final int maxQueued) {
        this.channel = channel;
        this.session = session;
        this.context = context;
        this.accountId = accountId;
        this.keyId = keyId;
        this.maxQueued = maxQueued;
    }

    @Override
    public String accountId() {
        return accountId;
    }

    /** @return the key that admitted the subscription, or null with authentication off */
    String keyId() {
        return keyId;
    }

    @Override
    public boolean closed() {
        return closed;
    }

    /** Ends the subscription; called on the loop before it is taken out of its feed. */
    void close() {
        closed = true;
    }

    StreamSession session() {
        return session;
    }

    /** @return the snapshot being built, or null; on the loop */
    SnapshotAssembly assembly() {
        return assembly;
    }

    /** Sets (or with null, drops) the snapshot being built; on the loop. */
    void assembly(final SnapshotAssembly building) {
        assembly = building;
    }

    @Override
    public void startsAfter(final long sequence) {
        if (!closed) {
            context.runOnContext(ignored -> channel.startsAfter(this, sequence));
        }
    }

    @Override
    public void marked(final long sequence) {
        if (!closed) {
            context.runOnContext(ignored -> channel.marked(this, sequence));
        }
    }

    @Override
    public void updates(final List<OrderUpdate> updates, final List<byte[]> rendered) {
        if (closed) {
            return;
        }
        final int count = updates.size();
        if (queued.addAndGet(count) > maxQueued) {
            queued.addAndGet(-count);
            if (overrun.compareAndSet(false, true)) {
                context.runOnContext(ignored -> channel.overrun(this));
            }
            return;
        }
        context.runOnContext(ignored -> {
            queued.addAndGet(-count);
            channel.updates(this, updates, rendered);
        });
    }

    /** The loop has asked for the fresh snapshot that covers the dropped updates; a later overrun asks again. */
    void overrunHandled() {
        overrun.set(false);
    }
}
