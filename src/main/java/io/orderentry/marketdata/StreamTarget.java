package io.orderentry.marketdata;

import java.util.List;

/** Where the market data consumer hands the stream updates for one event loop. */
public interface StreamTarget {

    /**
     * Called on the market data consumer thread once per batch with the updates that loop's
     * subscribers want, in order. Implementations must not block and must not touch sockets here:
     * they move the list to their own event loop (e.g. {@code runOnContext}). The list is theirs.
     */
    void deliver(List<StreamUpdate> updates);
}
