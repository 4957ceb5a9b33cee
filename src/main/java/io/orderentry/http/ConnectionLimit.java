package io.orderentry.http;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The bound on open HTTP and WebSocket connections across all event loops, so that idle or abandoned sockets cannot
 * take the file descriptors the journal, the audit trail and the spool need for their next file. A connection over
 * the bound is closed as soon as it is accepted (before any request is read), and counted. Thread safe.
 */
public final class ConnectionLimit {

    private final int max;
    private final AtomicInteger open = new AtomicInteger();
    private final AtomicLong refused = new AtomicLong();

    /** @param max the most connections open at once */
    public ConnectionLimit(final int max) {
        if (max < 1) {
            throw new IllegalArgumentException("max must be >= 1, was " + max);
        }
        this.max = max;
    }

    /** @return true if the connection may stay (then {@link #closed} must follow it), false if it must be closed */
    public boolean tryOpen() {
        while (true) {
            final int now = open.get();
            if (now >= max) {
                refused.incrementAndGet();
                return false;
            }
            if (open.compareAndSet(now, now + 1)) {
                return true;
            }
        }
    }

    /** Counts a connection admitted by {@link #tryOpen} as closed. */
    public void closed() {
        open.decrementAndGet();
    }

    /** @return connections open now */
    public int open() {
        return open.get();
    }

    /** @return connections closed at accept because the bound was reached, since start */
    public long refused() {
        return refused.get();
    }

    /** @return the bound */
    public int max() {
        return max;
    }
}
