package io.orderentry.persistence;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The catch-up the {@link PersistenceWriter} does after a start, an outage or a leadership change, when the database
 * lags the engine: logged when it begins and when the database holds every event it lacked, with its rate, and
 * counted in the metrics. An outage in the middle abandons it; the writer begins a new one when it is back.
 *
 * <p>Threads: the writer thread only.
 */
final class CatchUp {

    /** The writer's log: these lines read as the writer's, as they did before they moved here. */
    private static final Logger LOG = LoggerFactory.getLogger(PersistenceWriter.class);

    private final PersistenceMetrics metrics;
    private boolean active;
    private String cause;
    private long from;
    private long target;
    private long startNanos;

    CatchUp(final PersistenceMetrics metrics) {
        this.metrics = metrics;
    }

    /** The database is at {@code persisted} and the engine at {@code seen}, after {@code why}: the catch-up begins. */
    void begin(final String why, final long persisted, final long seen) {
        active = true;
        cause = why;
        from = persisted;
        target = seen;
        startNanos = System.nanoTime();
        LOG.info("persistence: catching up {} events after the {} (database at {}, engine at {})",
                seen - persisted, why, persisted, seen);
    }

    /** The database went away: the catch-up is over without an end to report. */
    void abandon() {
        active = false;
    }

    /** A batch was committed and the database is now at {@code persisted}: ends the catch-up once it is far enough. */
    void written(final long persisted) {
        if (active && persisted >= target) {
            active = false;
            final long nanos = System.nanoTime() - startNanos;
            final long events = persisted - from;
            metrics.recordCatchUp(events, nanos);
            LOG.info("persistence: caught up after the {}: {} events in {} ms ({} events/s); high-water mark {}",
                    cause, events, nanos / 1_000_000, events * 1_000_000_000L / Math.max(1, nanos), persisted);
        }
    }
}
