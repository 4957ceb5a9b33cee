package io.orderentry.persistence;

import io.orderentry.persistence.PersistenceWriter.State;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the {@link PersistenceWriter} stands ({@link State}) and why, and the log of its changes: the database UP (at
 * start, or again after an outage and how long it lasted), DOWN (once, then a reminder every minute or when the
 * reason changes), and persistence STOPPED for good. It also paces the reconnection attempts: 50 ms after the first
 * failure, doubling up to the configured maximum, back to the start once the database is up.
 *
 * <p>Threads: changed by the writer thread only; {@link #state} and {@link #lastError} read by any thread.
 */
final class WriterStatus {

    /** The writer's log: these lines read as the writer's, as they did before they moved here. */
    private static final Logger LOG = LoggerFactory.getLogger(PersistenceWriter.class);
    private static final long FIRST_RETRY_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    private static final long STILL_DOWN_LOG_NANOS = TimeUnit.SECONDS.toNanos(60);

    private final JdbcUrl url;
    private final String user;
    private final long retryMaxNanos;
    private final PersistenceMetrics metrics;

    private volatile State state = State.CONNECTING;
    private volatile String lastError;
    private boolean everUp;
    private long retryNanos;
    private long downSinceNanos;
    private long lastDownLogNanos;

    WriterStatus(final JdbcUrl url, final String user, final long retryMaxNanos, final PersistenceMetrics metrics) {
        this.url = url;
        this.user = user;
        this.retryMaxNanos = retryMaxNanos;
        this.metrics = metrics;
    }

    /** @return where persistence stands; any thread */
    State state() {
        return state;
    }

    /** @return why the database is down or persistence failed; null while it works; any thread */
    String lastError() {
        return lastError;
    }

    /**
     * The writer connected and read the high-water mark {@code persisted}.
     *
     * @return the state before, to tell a start from the end of an outage
     */
    State up(final long persisted) {
        final State previous = state;
        state = State.UP;
        lastError = null;
        retryNanos = 0;
        if (everUp && previous == State.DOWN) {
            LOG.info("persistence: database UP again after {} s; high-water mark {}",
                    seconds(System.nanoTime() - downSinceNanos), persisted);
        } else {
            LOG.info("persistence: database UP at {} as '{}'; high-water mark {}", url, user, persisted);
        }
        everUp = true;
        return previous;
    }

    /** The database could not be reached or used ({@code e}); the writer stays at high-water mark {@code persisted}. */
    void down(final Exception e, final long persisted) {
        metrics.recordFailure();
        final String reason = DatabaseErrors.describe(e, url, user);
        final String previousReason = lastError;
        lastError = reason;
        final long now = System.nanoTime();
        final State previous = state;
        state = State.DOWN;
        if (previous == State.UP) {
            metrics.recordOutage();
            downSinceNanos = now;
            lastDownLogNanos = now;
            LOG.warn("persistence: database DOWN: {}. Order entry continues; events wait in the spool and are "
                    + "written when it is back (high-water mark {})", reason, persisted);
        } else if (previous == State.CONNECTING) {
            downSinceNanos = now;
            lastDownLogNanos = now;
            LOG.error("persistence: cannot use the database {}: {}. Order entry continues without it and /ready "
                    + "reports the database DOWN; retrying every {} ms at most", url, reason,
                    retryMaxNanos / 1_000_000);
        } else if (now - lastDownLogNanos >= STILL_DOWN_LOG_NANOS || !reason.equals(previousReason)) {
            lastDownLogNanos = now;
            LOG.warn("persistence: database still DOWN after {} s: {}", seconds(now - downSinceNanos), reason);
        }
    }

    /** Persistence stops for good: {@code what} went wrong, {@code e} (may be null) is why. */
    void failed(final String what, final Exception e, final long persisted) {
        state = State.FAILED;
        lastError = what + (e == null ? "" : ": " + DatabaseErrors.rootMessage(e));
        LOG.error("persistence: STOPPED, {}. Order entry continues; the database stays at high-water mark {} "
                + "until a restart", lastError, persisted, e);
    }

    /** The writer thread ended: STOPPED, unless persistence had failed. */
    void stopped() {
        if (state != State.FAILED) {
            state = State.STOPPED;
        }
    }

    /** @return how long to wait before the next attempt to reach the database */
    long nextRetryNanos() {
        retryNanos = retryNanos == 0 ? FIRST_RETRY_NANOS : Math.min(retryNanos * 2, retryMaxNanos);
        return retryNanos;
    }

    private static String seconds(final long nanos) {
        return String.format("%.1f", nanos / 1e9);
    }
}
