package io.orderentry.persistence;

import java.io.IOException;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import javax.sql.DataSource;
import org.flywaydb.core.api.FlywayException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The persistence writer thread. It sets the database up (creates and migrates it), then tails the
 * spool from the database's high-water mark and hands batches through the {@link Batcher} to the
 * {@link Lanes}, whose threads write them into PostgreSQL on connections of their own, up to one batch
 * per lane at once. No other thread talks to PostgreSQL for persistence.
 *
 * <p>When the database fails, the writer keeps the failed batches, reconnects with a growing pause (up to
 * the configured maximum) and carries on from the stored high-water mark; meanwhile the stage keeps
 * spooling, so order entry never notices. {@link WriterStatus} logs every state change once, with a reminder every
 * minute while the database stays away, and {@link CatchUp} the catch-up that follows.
 * A contradiction (a gap, a database ahead of the journal, a second writer) or an unreadable spool
 * stops persistence for good ({@link State#FAILED}); trading goes on and a restart rebuilds the spool.
 *
 * <p>Cluster mode ({@code shared}): every member's writer runs, but only the leader's writes ({@link #lead},
 * {@link Leadership}); the others reread the high-water mark once a second and delete the spool it covers. A mark
 * moved by another member (the previous leader finishing a batch) is where it goes on from, not a contradiction: the
 * members' events are the same.
 *
 * <p>Threads: {@link #run} is the writer thread. {@link #awaitFirstAttempt}, {@link #start} and
 * {@link #stop} are called by the service's main thread, {@link #lead} by the cluster's service thread; the state
 * accessors by any thread.
 */
public final class PersistenceWriter implements Runnable {

    /** Where persistence stands. */
    public enum State {
        /** No attempt to reach the database has finished yet. */
        CONNECTING,
        /** Connected; batches are being written. */
        UP,
        /** The database cannot be reached or used; events wait in the spool. */
        DOWN,
        /** Persistence stopped on a contradiction or an unreadable spool; a restart is needed. */
        FAILED,
        /** The writer has stopped with the service. */
        STOPPED
    }

    private static final Logger LOG = LoggerFactory.getLogger(PersistenceWriter.class);
    /**
     * How long the writer sleeps when the spool has nothing new. Batches wait up to {@code persistence.batch.millis}
     * (100 ms) anyway, so 5 ms adds little to the database's lag; at 1 ms the idle writer woke a thousand times a
     * second (2.3% of a core with no order coming in) and under load read the spool in smaller pieces.
     */
    private static final long IDLE_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
    /** Cluster mode: how long a member that does not lead sleeps between looks at its spool; leadership wakes it. */
    private static final long FOLLOW_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    private static final long NOT_STARTED_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    private static final long STOP_FLUSH_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final JdbcUrl url;
    private final DataSource pool;
    private final DatabaseBootstrap bootstrap;
    private final Lanes lanes;
    private final SpoolReader reader;
    private final Batcher batcher;
    private final WriterStatus status;
    private final CatchUp catchUp;
    private final Leadership leadership;
    private final CountDownLatch firstAttempt = new CountDownLatch(1);
    private final CountDownLatch finished = new CountDownLatch(1);

    private volatile PersistenceStage stage;
    private volatile long journalLastSequence;
    private volatile boolean stopRequested;
    private volatile Thread thread;
    private volatile long persisted = -1;
    private volatile long oldestPendingMicros;
    private volatile long lastPersistedMicros;

    private boolean migrated;
    private boolean started;

    PersistenceWriter(final JdbcUrl url, final String user, final DataSource pool, final DatabaseBootstrap bootstrap,
                      final List<BatchSink> sinks, final SpoolReader reader, final int batchSize,
                      final long batchMillis, final long retryMaxMillis, final PersistenceMetrics metrics,
                      final boolean shared) {
        this.url = url;
        this.pool = pool;
        this.bootstrap = bootstrap;
        this.lanes = Lanes.threaded(sinks, "persistence-lane", this::wake, System::nanoTime);
        this.reader = reader;
        this.batcher = new Batcher(reader, lanes, batchSize, TimeUnit.MILLISECONDS.toNanos(batchMillis),
                System::nanoTime);
        this.batcher.onCommitted((batch, nanos) -> metrics.recordBatch(batch.size(), nanos));
        this.leadership = new Leadership(shared, batcher, lanes);
        this.status = new WriterStatus(url, user, TimeUnit.MILLISECONDS.toNanos(retryMaxMillis), metrics);
        this.catchUp = new CatchUp(metrics);
    }

    /**
     * Waits until the first attempt to set the database up has succeeded or failed, at most {@code millis}.
     *
     * @return the database's high-water mark, or -1 if it is not known (yet)
     */
    long awaitFirstAttempt(final long millis) {
        try {
            if (!firstAttempt.await(millis, TimeUnit.MILLISECONDS)) {
                LOG.warn("persistence: the database at {} did not answer within {} ms; starting without its "
                        + "high-water mark (the whole journal is spooled, events it already has are skipped later)",
                        url, millis);
            }
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return persisted;
    }

    /**
     * Lets the writer take events from the spool, once recovery has replayed the journal.
     *
     * @param spoolingStage       the stage that fills the spool
     * @param journalLastSequence the last engine event sequence after replay; a database ahead of it
     *                            belongs to another journal
     */
    void start(final PersistenceStage spoolingStage, final long journalLastSequence) {
        this.journalLastSequence = journalLastSequence;
        this.stage = spoolingStage;
        wake();
    }

    /**
     * Cluster mode: whether this member leads the cluster. Only the leader's writer writes; the others spool the same
     * events, follow the database's high-water mark once a second and delete the spool it covers, so that whichever
     * member leads next goes on from the mark. Does nothing on a single node, whose writer always writes.
     */
    void lead(final boolean lead) {
        if (leadership.lead(lead)) {
            wake();
        }
    }

    /** @return true while this writer writes: always on a single node, on the leader in cluster mode */
    boolean writing() {
        return leadership.writing();
    }

    /**
     * Asks the writer to write what the stage has spooled (bounded by 10 s) and to stop, and waits for it.
     * Call it after the output ring has drained.
     */
    void stop(final long waitMillis) {
        stopRequested = true;
        wake();
        try {
            if (!finished.await(Math.min(STOP_FLUSH_NANOS + TimeUnit.SECONDS.toNanos(5),
                    TimeUnit.MILLISECONDS.toNanos(waitMillis)), TimeUnit.NANOSECONDS)) {
                LOG.warn("persistence: the writer did not stop in time; events it did not write are rewritten "
                        + "from the journal at the next start");
            }
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void run() {
        thread = Thread.currentThread();
        try {
            while (!stopRequested && status.state() != State.FAILED) {
                if (!lanes.connected()) {
                    final boolean connected = connect();
                    firstAttempt.countDown();
                    if (!connected) {
                        fillWhileDown();
                        pause(status.nextRetryNanos());
                        continue;
                    }
                }
                if (stage == null) {
                    pause(NOT_STARTED_PAUSE_NANOS);
                } else if (!started) {
                    started = true;
                    onStartedOrConnected("startup");
                } else if (leadership.changing()) {
                    changeRole();
                } else if (leadership.writing()) {
                    step();
                } else {
                    follow();
                }
            }
            flushOnStop();
        } catch (final RuntimeException e) {
            fail("the writer failed", e);
        } finally {
            firstAttempt.countDown();
            lanes.close();
            closeReader();
            status.stopped();
            finished.countDown();
        }
    }

    /** @return where persistence stands */
    public State state() {
        return status.state();
    }

    /** @return why the database is down or persistence failed; null while it works */
    public String lastError() {
        return status.lastError();
    }

    /** @return the database's high-water mark as last seen by the writer; -1 before it was first read */
    public long persistedSequence() {
        return persisted;
    }

    /** @return the engine timestamp of the oldest event read but not yet committed; 0 if none */
    public long oldestPendingMicros() {
        return oldestPendingMicros;
    }

    /** @return the engine timestamp of the last event committed; 0 before the first commit */
    public long lastPersistedMicros() {
        return lastPersistedMicros;
    }

    /** @return bytes of spool segments deleted because the database holds their events */
    long deletedSpoolBytes() {
        return reader.deletedBytes();
    }

    private void step() {
        try {
            final int written = batcher.poll(false);
            oldestPendingMicros = batcher.oldestPendingMicros();
            if (written > 0) {
                afterWrite(written);
            } else if (spoolFailedAndWritten()) {
                fail("the spool stopped: " + stage.failure(), null);
            } else {
                pause(Math.min(IDLE_PAUSE_NANOS, batcher.nanosToSleep()));
            }
        } catch (final SQLException e) {
            onWriteFailure(e, true);
        } catch (final IOException e) {
            fail("reading the spool failed", e);
        } catch (final IllegalStateException e) {
            fail(leadership.shared() ? "the database contradicts the cluster's log (a member whose snapshot is newer"
                    + " than the database's high-water mark has no spool for the events between them; see"
                    + " docs/cluster.md)" : "the database contradicts the journal", e);
        }
    }

    /**
     * A batch, or a read of the mark, failed with {@code e}. In cluster mode that may be another member that stored the
     * events first ({@link PostgresSink#MARK_MOVED}): the writer rereads the mark and goes on after it. Otherwise the
     * database is down: the writer disconnects and, if {@code pauseIfDown}, waits before it tries again.
     */
    private void onWriteFailure(final SQLException e, final boolean pauseIfDown) {
        if (leadership.shared() && PostgresSink.MARK_MOVED.equals(e.getSQLState())) {
            LOG.info("persistence: {}", e.getMessage());
            try {
                lanes.refresh();
                persisted = lanes.persistedSequence();
                return;
            } catch (final SQLException down) {
                onWriteFailure(down, pauseIfDown);   // a reread of the mark is never MARK_MOVED: the database is down
                return;
            }
        }
        onDatabaseDown(e);
        lanes.disconnect();
        if (pauseIfDown) {
            pause(status.nextRetryNanos());
        }
    }

    /** Cluster mode: acts on a change of leadership ({@link Leadership#change}). */
    private void changeRole() {
        try {
            if (leadership.change(persisted)) {
                persisted = lanes.persistedSequence();
                LOG.info("persistence: this member leads; it writes after the database's high-water mark {} (engine"
                        + " at {})", persisted, stage.lastSeenSequence());
                onStartedOrConnected("leadership change");
            } else if (leadership.changing()) {
                pause(IDLE_PAUSE_NANOS);   // batches of an earlier leadership are still in flight
            }
        } catch (final SQLException e) {
            onWriteFailure(e, true);
        } catch (final IOException e) {
            fail("reading the spool failed", e);
        }
    }

    /** Cluster mode, on a member that does not lead: follows the mark and deletes the spool it covers. */
    private void follow() {
        try {
            persisted = leadership.follow();
            oldestPendingMicros = batcher.oldestPendingMicros();
        } catch (final SQLException e) {
            onWriteFailure(e, true);   // also a batch of its leadership that the new leader stored first
            return;
        } catch (final IOException e) {
            fail("reading the spool failed", e);
            return;
        }
        trimSpool();
        pause(FOLLOW_PAUSE_NANOS);
    }

    /** Deletes the spool segments the database holds; a failure costs only their disk space. */
    private void trimSpool() {
        try {
            reader.deleteThrough(persisted);
        } catch (final IOException e) {
            LOG.warn("persistence: deleting a written spool segment failed; the spool keeps its disk space", e);
        }
    }

    private boolean connect() {
        try {
            if (!migrated) {
                final String version = bootstrap.run(pool);
                migrated = true;
                LOG.info("persistence: database {} is at schema version {}", url, version);
            }
            lanes.connect();
        } catch (final SQLException | FlywayException e) {
            onDatabaseDown(e);
            return false;
        }
        persisted = lanes.persistedSequence();
        final State previous = status.up(persisted);
        if (started) {
            onStartedOrConnected(previous == State.DOWN ? "outage" : "startup");
        }
        return true;
    }

    private void onStartedOrConnected(final String cause) {
        final long seen = Math.max(journalLastSequence, stage.lastSeenSequence());
        if (leadership.shared() && (!leadership.writing() || persisted >= seen)) {
            return;   // a member that follows, or one still replaying the log the leader has written
        }
        if (persisted > seen) {
            fail("the database holds events up to " + persisted + " but the journal ends at " + seen
                    + ": it belongs to another journal. Point db.url/ORDERS_DB_URL at a fresh database or restore"
                    + " the journal", null);
            return;
        }
        if (seen > persisted) {
            catchUp.begin(cause, persisted, seen);
        }
    }

    private void afterWrite(final int written) {
        persisted = lanes.persistedSequence();
        lastPersistedMicros = batcher.lastWrittenMicros();
        trimSpool();
        catchUp.written(persisted);
    }

    /** The database cannot be reached or used: {@code e} says why. */
    private void onDatabaseDown(final Exception e) {
        status.down(e, persisted);
        catchUp.abandon();
    }

    private void fillWhileDown() {
        if (stage == null) {
            return;
        }
        try {
            batcher.fill();
            oldestPendingMicros = batcher.oldestPendingMicros();
        } catch (final IOException e) {
            fail("reading the spool failed", e);
        }
    }

    private boolean spoolFailedAndWritten() {
        return stage.failure() != null && batcher.pendingEvents() == 0 && persisted >= stage.spooledSequence();
    }

    /**
     * Writes what the stage spooled before the rings drained, within 10 s. A database that is down gets one
     * connection attempt, so that stopping is not held up by an outage: the journal still has the events.
     */
    private void flushOnStop() {
        if (stage == null || status.state() == State.FAILED || !leadership.writing()) {
            return;   // in cluster mode only the leader writes: a follower leaves its events to it
        }
        final long target = stage.spooledSequence();
        final long before = Math.max(stage.skipThrough(), persisted);
        if (target <= before) {
            return;
        }
        final long start = System.nanoTime();
        final long deadline = start + STOP_FLUSH_NANOS;
        boolean reconnected = false;
        while (persisted < target && System.nanoTime() < deadline && status.state() != State.FAILED) {
            if (!lanes.connected()) {
                if (reconnected || !connect()) {
                    break;
                }
                reconnected = true;
            }
            if (!started) {
                started = true;
                onStartedOrConnected("startup");
                continue;
            }
            try {
                final int written = batcher.poll(true);
                if (written > 0) {
                    afterWrite(written);
                } else if (batcher.pendingEvents() == 0 && reader.lastSequence() >= target) {
                    break;
                } else {
                    LockSupport.parkNanos(this, IDLE_PAUSE_NANOS);
                }
            } catch (final SQLException e) {
                onWriteFailure(e, false);
            } catch (final IOException e) {
                fail("reading the spool failed", e);
            }
        }
        if (persisted >= target) {
            LOG.info("persistence: flushed {} events at shutdown in {} ms; the database holds every event up to {}",
                    persisted - before, (System.nanoTime() - start) / 1_000_000, persisted);
        } else {
            LOG.warn("persistence: stopping with events {} to {} not in the database ({}); the next start writes "
                    + "them from the journal", Math.max(before, persisted) + 1, target, status.lastError());
        }
    }

    private void fail(final String what, final Exception e) {
        status.failed(what, e, persisted);
    }

    private void pause(final long nanos) {
        if (nanos > 0 && !stopRequested) {
            LockSupport.parkNanos(this, nanos);
        }
    }

    private void wake() {
        final Thread writer = thread;
        if (writer != null) {
            LockSupport.unpark(writer);
        }
    }

    private void closeReader() {
        try {
            reader.close();
        } catch (final IOException e) {
            LOG.warn("persistence: closing the spool reader failed", e);
        }
    }
}
