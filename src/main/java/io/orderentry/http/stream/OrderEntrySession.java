package io.orderentry.http.stream;

import io.orderentry.auth.ApiKey;
import java.security.SecureRandom;

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
 * <p>Threads: the session's event loop.
 */
final class OrderEntrySession {

    private static final SecureRandom NUMBERS = new SecureRandom();

    private ApiKey key;
    private String accountId;
    private long session;
    private boolean placed;
    private int waiting;

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

    /** @return the commands sent and not yet answered */
    int waiting() {
        return waiting;
    }

    void sent() {
        waiting++;
    }

    void answered() {
        waiting--;
    }
}
