package io.orderentry.account;

import io.orderentry.query.OrderState;
import java.util.List;

/**
 * One subscriber of an account's private feed: a stream connection's {@code orders} subscription. Implemented by the
 * HTTP edge, which hands every call over to the connection's event loop in call order (FIFO), so a subscriber
 * receives its snapshot before any update that follows it.
 *
 * <p>Threads: {@link #snapshot} and {@link #updates} are called on the order stage's thread ({@code oe-orders}) and
 * must only hand over, never block or write to a socket; {@link #closed} may be read on any thread.
 */
public interface FeedSubscriber {

    /** @return the account whose orders this subscriber follows; never changes */
    String accountId();

    /** @return true once the subscription ended (unsubscribed, or its connection closed); then it stays true */
    boolean closed();

    /**
     * The account's open orders, oldest first, exactly as they are after the update numbered {@code sequence} (0: no
     * update yet in this process). Updates numbered {@code sequence + 1} on follow.
     */
    void snapshot(long sequence, List<OrderState> openOrders);

    /**
     * The account's updates of one ring batch, consecutive from the first one's sequence, each with its rendered bytes
     * ({@link FeedRenderer}) at the same index. Both lists are immutable and shared by every subscriber of the
     * account. A subscriber that got a snapshot at or after an update skips it.
     */
    void updates(List<OrderUpdate> updates, List<byte[]> rendered);
}
