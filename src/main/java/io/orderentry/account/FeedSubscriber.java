package io.orderentry.account;

import java.util.List;

/**
 * One subscriber of an account's private feed: a stream connection's {@code orders} subscription. Implemented by the
 * HTTP edge, which hands every call over to the connection's event loop in call order (FIFO), so a subscriber
 * receives {@link #startsAfter} before any update that follows it, and {@link #marked} after every update it covers.
 *
 * <p>Threads: {@link #startsAfter}, {@link #marked} and {@link #updates} are called on the order stage's thread ({@code oe-orders}) and
 * must only hand over, never block or write to a socket; {@link #closed} may be read on any thread.
 */
public interface FeedSubscriber {

    /** @return the account whose orders this subscriber follows; never changes */
    String accountId();

    /** @return true once the subscription ended (unsubscribed, or its connection closed); then it stays true */
    boolean closed();

    /**
     * The subscriber is in its account's feed: updates numbered {@code sequence + 1} on follow (0: no update yet in
     * this process). The subscriber builds its snapshot itself, off the stage, in chunks ({@link SnapshotAssembly}),
     * keeping the updates meanwhile, then asks for a mark ({@link AccountFeedStage#mark}).
     */
    void startsAfter(long sequence);

    /**
     * The answer to {@link AccountFeedStage#mark}: every update numbered up to {@code sequence} has been handed to this
     * subscriber before this call, and every change the order view held when the mark was asked for has such an
     * update. The snapshot assembled is the account's open orders as after update {@code sequence}.
     */
    void marked(long sequence);

    /**
     * The account's updates of one ring batch, consecutive from the first one's sequence, each with its rendered bytes
     * ({@link FeedRenderer}) at the same index. Both lists are immutable and shared by every subscriber of the
     * account. A subscriber that got a snapshot at or after an update skips it.
     */
    void updates(List<OrderUpdate> updates, List<byte[]> rendered);
}
