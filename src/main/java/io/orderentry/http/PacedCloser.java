package io.orderentry.http;

import java.util.ArrayDeque;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Connections due to be closed, closed at most {@code perRound} at a time: when thousands of stream subscribers stop
 * reading at once (a client host that hangs), the slow-client timer finds them all at the same heartbeat, and closing
 * them in one go held their event loop, and the orders it serves, for 60-80 ms (loadtest/RESULTS.md, "Issue 13").
 *
 * <p>Threads: one event loop.
 *
 * @param <T> the connection
 */
public final class PacedCloser<T> {

    private final int perRound;
    private final Consumer<T> close;
    private final ArrayDeque<T> due = new ArrayDeque<>();
    private final Set<T> queued = Collections.newSetFromMap(new IdentityHashMap<>());

    /**
     * @param perRound the most connections one {@link #round} closes
     * @param close    closes one connection; it may decide not to (one that caught up meanwhile)
     */
    public PacedCloser(final int perRound, final Consumer<T> close) {
        if (perRound < 1) {
            throw new IllegalArgumentException("perRound must be >= 1");
        }
        this.perRound = perRound;
        this.close = close;
    }

    /** Queues a connection to be closed; one already queued keeps its place. */
    public void add(final T connection) {
        if (queued.add(connection)) {
            due.add(connection);
        }
    }

    /** Closes the next {@code perRound} queued connections, oldest first. */
    public void round() {
        for (int i = 0; i < perRound && !due.isEmpty(); i++) {
            final T next = due.poll();
            queued.remove(next);
            close.accept(next);
        }
    }

    /** @return connections waiting to be closed */
    int waiting() {
        return due.size();
    }
}
