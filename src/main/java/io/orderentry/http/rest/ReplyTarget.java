package io.orderentry.http.rest;

import java.util.List;

/** Where the reply stage hands the answers for one HTTP verticle. */
public interface ReplyTarget {

    /**
     * Called on the reply thread with answers in engine order. Implementations must not block and
     * must move the work to their own event loop.
     */
    void deliver(List<Reply> replies);
}
