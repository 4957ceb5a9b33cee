package io.orderentry.http.rest;

import java.util.List;

/** Where the reply stage hands the answers for one HTTP verticle. */
public interface ReplyTarget {

    /**
     * Called on the reply thread with answers in engine order. Implementations must not block and
     * must move the work to their own event loop.
     *
     * @param handedNanos {@code System.nanoTime()} when the reply stage handed them over, for the stage latencies
     */
    void deliver(List<Reply> replies, long handedNanos);
}
