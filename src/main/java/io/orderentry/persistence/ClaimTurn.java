package io.orderentry.persistence;

import java.sql.SQLException;

/**
 * The order in which batches written at once on several connections (see {@link Lanes}) claim the
 * high-water mark.
 *
 * <p>A batch's transaction claims the mark with {@code UPDATE high_water_mark ... WHERE last_sequence =
 * <first - 1>}. PostgreSQL makes that statement wait while the previous batch's transaction holds the
 * row, and then checks the condition again against what that transaction committed: the commits chain
 * in sequence order. But the row is held only from the previous batch's own claim on. Had the later
 * batch claimed first, it would see the old mark, match nothing and take a healthy predecessor for a
 * failed one. So a batch waits here until every batch before it has issued its claim (or ended without
 * one), and says so itself once its own claim statement has returned.
 *
 * <p>Threads: {@link #await} and {@link #pass} are called by the lane threads, {@link #reset} by the
 * writer thread while no batch is in flight.
 */
final class ClaimTurn {

    /** A turn that never waits: for one sink written on the caller's thread, whose predecessor has always ended. */
    static final ClaimTurn NONE = new ClaimTurn(false);

    private final boolean ordered;
    private long claimedThrough = -1;

    /** A turn that orders the claims of batches written at once. */
    ClaimTurn() {
        this(true);
    }

    private ClaimTurn(final boolean ordered) {
        this.ordered = ordered;
    }

    /** Starts over after a (re)connect: the batches through {@code mark} are stored, so theirs is done. */
    synchronized void reset(final long mark) {
        claimedThrough = mark;
        notifyAll();
    }

    /**
     * Waits until the batch that ends with event {@code before} has claimed the mark or ended.
     *
     * @throws SQLException when the thread is interrupted while waiting (the interrupt stays set); the batch
     *                      then has not claimed anything and can be written again
     */
    synchronized void await(final long before) throws SQLException {
        while (ordered && claimedThrough < before) {
            try {
                wait();
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SQLException("interrupted while waiting for the batch before event " + (before + 1)
                        + " to claim the high-water mark", "57014", e);
            }
        }
    }

    /** Lets the batch after the one ending with event {@code last} claim; passing a turn twice is harmless. */
    synchronized void pass(final long last) {
        if (last > claimedThrough) {
            claimedThrough = last;
            notifyAll();
        }
    }
}
