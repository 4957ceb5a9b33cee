package io.orderentry.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Thousands of stalled subscribers found at one heartbeat are closed a round at a time, not all at once. */
class PacedCloserTest {

    /** A connection: compared by identity, as sessions are. */
    private static final class Connection {
        final int id;

        Connection(final int id) {
            this.id = id;
        }
    }

    @Test
    void closesAtMostOneRoundAtATimeOldestFirstAndEachConnectionOnce() {
        final List<Connection> connections = new ArrayList<>();
        for (int i = 0; i < 250; i++) {
            connections.add(new Connection(i));
        }
        final List<Integer> closed = new ArrayList<>();
        final PacedCloser<Connection> closer = new PacedCloser<>(100, c -> closed.add(c.id));
        connections.forEach(closer::add);
        connections.forEach(closer::add);   // found too slow again at the next heartbeat, before its turn came
        assertEquals(250, closer.waiting());
        closer.round();
        assertEquals(100, closed.size());
        assertEquals(0, closed.get(0));
        assertEquals(99, closed.get(99));
        closer.round();
        closer.round();
        assertEquals(250, closed.size(), "each connection closed once");
        assertEquals(249, closed.get(249));
        closer.round();
        assertEquals(250, closed.size(), "an empty round closes nothing");
        closer.add(connections.get(7));
        closer.round();
        assertEquals(7, closed.get(250), "once its turn came and went, it may be queued again");
    }

    @Test
    void leavesTheDecisionToCloseToTheConnectionWhoseTurnHasCome() {
        final List<Integer> asked = new ArrayList<>();
        final List<Integer> closed = new ArrayList<>();
        final PacedCloser<Integer> closer = new PacedCloser<>(10, id -> {
            asked.add(id);
            if (id % 2 == 0) {   // the odd ones caught up meanwhile
                closed.add(id);
            }
        });
        for (int i = 0; i < 6; i++) {
            closer.add(i);
        }
        closer.round();
        assertEquals(List.of(0, 1, 2, 3, 4, 5), asked);
        assertEquals(List.of(0, 2, 4), closed);
    }
}
