package io.orderentry.journal;

import java.time.Instant;

/** The wall clock in microseconds since the epoch, the production clock of {@link JournalStage}. */
public final class WallClock {

    private WallClock() {
    }

    /** @return the current time in microseconds since the epoch; may go backwards when the clock is set */
    public static long currentTimeMicros() {
        final Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }
}
