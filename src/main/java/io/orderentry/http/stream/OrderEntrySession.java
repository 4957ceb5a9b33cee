package io.orderentry.http.stream;

import io.orderentry.auth.ApiKey;
import java.security.SecureRandom;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * What one stream connection holds for order entry ({@link StreamOrderEntry}): the key it logged in with and the
 * account it acts for, whether its orders are canceled when it closes (and the number its orders carry for that), and
 * how many of its commands wait for the engine.
 *
 * <p>Cancel on disconnect is the engine's to carry out: every order placed through the connection carries its
 * {@link #session} number, a random 64-bit number unique to the connection (never 0, never reused in practice, also
 * across restarts and cluster members), and the one command sent when it closes cancels what of the account's orders
 * with that number still rests. So the connection holds nothing per order, and orders whose answers had not come back
 * when it closed are covered as well: their places are ahead of the cancel in the input ring.
 *
 * <h2>Answers in order, per order</h2>
 * API.md lets answers come out of request order only when they concern different orders. Commands that reach the
 * engine are answered in the order they were sent, but a command answered at the edge (a refusal) or resolved there (a
 * clientOrderId looked up in the order view) could overtake one still in flight for the same order: a cancel by
 * clientOrderId sent right behind its place would not find the order yet. So each command names the orders it concerns
 * by keys ({@code i:<orderId>}, {@code c:<clientOrderId>}); while a command with one of those keys waits for the
 * engine, a later command concerning the same order is held, in arrival order, and runs once that answer has gone out.
 * Held commands count as waiting, so the connection's bound covers them too.
 *
 * <p>Threads: the session's event loop.
 */
final class OrderEntrySession {

    private static final SecureRandom NUMBERS = new SecureRandom();

    private ApiKey key;
    private String accountId;
    private long session;
    private boolean placed;
    private int waiting;
    /** The keys of the orders commands in flight concern, with how many concern each. */
    private final Map<String, Integer> busy = new HashMap<>();
    /** Commands held until the orders they concern have none in flight, in arrival order. */
    private final ArrayDeque<Held> held = new ArrayDeque<>();
    /** Set while {@link #release} runs a held command again. */
    private boolean releasing;

    /** A command held back, and the keys of the orders it concerns. */
    private record Held(String[] keys, Runnable command) {
    }

    /** @return the key the connection logged in with (or that its upgrade's header carried), or null */
    ApiKey key() {
        return key;
    }

    /** @return the account the connection acts for (its key's, or with authentication off its login's), or null */
    String accountId() {
        return accountId;
    }

    /**
     * Binds the connection to a key and an account for its life; {@code cancelOnDisconnect} turns it on (once on, a
     * later login of the same key cannot turn it off: orders already placed carry the number).
     */
    void loggedIn(final ApiKey key, final String accountId, final boolean cancelOnDisconnect) {
        this.key = key;
        this.accountId = accountId;
        if (cancelOnDisconnect && session == 0) {
            long number = 0;
            while (number == 0) {
                number = NUMBERS.nextLong();
            }
            session = number;
        }
    }

    boolean cancelOnDisconnect() {
        return session != 0;
    }

    /** @return the number the connection's orders carry for its cancel on disconnect, 0 when that is off */
    long session() {
        return session;
    }

    /** An order was sent through the connection: its close has something to cancel. */
    void placedOne() {
        placed = true;
    }

    /** @return whether any order was sent through the connection with cancel on disconnect on */
    boolean placedAny() {
        return placed && session != 0;
    }

    /** @return the commands sent and not yet answered, and those held behind them */
    int waiting() {
        return waiting;
    }

    /**
     * Holds {@code command} if a command in flight (or one held before it) concerns one of the orders of {@code keys}.
     *
     * @return true if it was held: it runs once those are answered; false: run it now
     */
    boolean holdIfBusy(final String[] keys, final Runnable command) {
        if (releasing) {
            // a held command being run again: it was the first of its orders' held ones, so only a command in flight
            // holds it, back at the head of the queue, where it was
            if (!concernsBusy(keys)) {
                return false;
            }
            held.addFirst(new Held(keys, command));
            waiting++;
            return true;
        }
        if (!concernsBusy(keys) && !concernsHeld(keys)) {
            return false;
        }
        held.addLast(new Held(keys, command));
        waiting++;
        return true;
    }

    /** A command concerning the orders of {@code keys} went to the engine. */
    void sent(final String[] keys) {
        waiting++;
        for (final String key : keys) {
            busy.merge(key, 1, Integer::sum);
        }
    }

    /**
     * The engine's answer to a command concerning the orders of {@code keys} has gone out: runs, in arrival order, the
     * held commands no command in flight concerns any more.
     */
    void answered(final String[] keys) {
        waiting--;
        for (final String key : keys) {
            busy.computeIfPresent(key, (k, n) -> n == 1 ? null : n - 1);
        }
        release();
    }

    /**
     * Runs the first held command that neither a command in flight nor an earlier held one concerns the orders of,
     * then looks again (what it did may have made its orders busy, or answered at once), until none can run. It ends:
     * a command it runs either goes to the engine (its orders busy from then on), is answered at once (gone), or is
     * held again at the head because a command in flight concerns it (and so is not ready again in this call).
     */
    private void release() {
        while (true) {
            final Set<String> blocked = new HashSet<>(busy.keySet());
            Held ready = null;
            for (final Held command : held) {
                if (!intersects(command.keys(), blocked)) {
                    ready = command;
                    break;
                }
                Collections.addAll(blocked, command.keys());   // an earlier held command of the same order goes first
            }
            if (ready == null) {
                return;
            }
            held.remove(ready);
            waiting--;
            releasing = true;
            try {
                ready.command().run();
            } finally {
                releasing = false;
            }
        }
    }

    private static boolean intersects(final String[] keys, final Set<String> set) {
        for (final String key : keys) {
            if (set.contains(key)) {
                return true;
            }
        }
        return false;
    }

    private boolean concernsBusy(final String[] keys) {
        for (final String key : keys) {
            if (busy.containsKey(key)) {
                return true;
            }
        }
        return false;
    }

    private boolean concernsHeld(final String[] keys) {
        for (final Held command : held) {
            for (final String key : command.keys()) {
                for (final String mine : keys) {
                    if (key.equals(mine)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }
}
