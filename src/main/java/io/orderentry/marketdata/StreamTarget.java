package io.orderentry.marketdata;

import java.util.List;

/** Where the market data consumer hands the stream updates of each batch: the WebSocket fan-out. */
public interface StreamTarget {

    /**
     * Called on the market data consumer thread once per batch that changed something a subscriber wants.
     * Implementations encode each update once and move the work to the event loops; they must not block and
     * must not touch sockets here. The list is theirs.
     *
     * @param updates         the batch's updates, in order
     * @param batchStartNanos {@link System#nanoTime()} when the consumer took the batch's first event
     */
    void deliver(List<StreamUpdate> updates, long batchStartNanos);

    /**
     * Waits until every event loop has written the last delivered batch to its subscribers, or until
     * {@code maxNanos} have passed, whichever comes first.
     */
    void awaitDelivered(long maxNanos);
}
