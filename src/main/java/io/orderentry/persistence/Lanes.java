package io.orderentry.persistence;

import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes consecutive batches on several connections at once ("lanes"), so that PostgreSQL can parse and
 * index one batch while it commits the one before. Each lane is a thread with its own {@link BatchSink}.
 *
 * <p>The order of commits is the database's doing, with one rule from this class: each sink claims the
 * high-water mark near the end of its transaction ({@code ... WHERE last_sequence = <first - 1>}), in its
 * {@link ClaimTurn}, that is only after the batch before it has claimed. The claim then waits for the
 * previous batch's transaction and fails if that one did not commit. So batches become visible strictly in
 * sequence order, and a failed batch drags every later batch in flight down with it. This class hands out batches in
 * sequence order, collects their outcomes in that order and, on a failure, waits until every batch in
 * flight has settled and gives the uncommitted ones back so the caller can offer them again after
 * reconnecting.
 *
 * <p>With one lane and no thread ({@link #inline}) a batch is written on the caller's thread as it is
 * submitted, and the sink's own connection state and mark are used as they are: what the batching tests
 * drive with a sink they connect themselves.
 *
 * <p>Threads: {@link #connect}, {@link #submit}, {@link #reap}, {@link #disconnect} and {@link #close} are
 * called only by the persistence writer thread; the lane threads only run their sink's {@code write}.
 */
final class Lanes implements AutoCloseable {

    /** Told about each committed batch, in sequence order. */
    interface Committed {
        void batch(EventBatch batch, long writeNanos);
    }

    private static final Logger LOG = LoggerFactory.getLogger(Lanes.class);
    private static final long CLOSE_WAIT_MILLIS = 5_000;
    private static final long SETTLE_PAUSE_NANOS = 1_000_000;

    /** One batch on its way through one lane. */
    private static final class Job {
        final Lane lane;
        final EventBatch batch;
        volatile boolean done;
        Throwable failure;
        long writeNanos;

        Job(final Lane lane, final EventBatch batch) {
            this.lane = lane;
            this.batch = batch;
        }
    }

    private final class Lane implements Runnable {
        final BatchSink sink;
        final BlockingQueue<Job> inbox = new ArrayBlockingQueue<>(1);
        Thread thread;
        Job current;

        Lane(final BatchSink sink) {
            this.sink = sink;
        }

        boolean idle() {
            return current == null || current.done;
        }

        @Override
        public void run() {
            try {
                while (true) {
                    final Job job = inbox.take();
                    if (job.batch == null) {
                        return;
                    }
                    execute(job);
                }
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        void execute(final Job job) {
            final long start = clock.getAsLong();
            try {
                sink.write(job.batch, turn);
            } catch (final Throwable failure) {
                job.failure = failure;
            } finally {
                turn.pass(job.batch.lastSequence());
            }
            job.writeNanos = clock.getAsLong() - start;
            job.done = true;
            onDone.run();
        }
    }

    private final Lane[] lanes;
    private final boolean threaded;
    private final ClaimTurn turn;
    private final Runnable onDone;
    private final LongSupplier clock;
    private final ArrayDeque<Job> inFlight = new ArrayDeque<>();
    private int next;
    private long persisted = -1;
    private long lastSubmitted = -1;
    private boolean connected;

    private Lanes(final List<BatchSink> sinks, final boolean threaded, final String name, final Runnable onDone,
                  final LongSupplier clock) {
        if (sinks.isEmpty()) {
            throw new IllegalArgumentException("at least one lane is needed");
        }
        this.lanes = new Lane[sinks.size()];
        this.threaded = threaded;
        this.turn = threaded ? new ClaimTurn() : ClaimTurn.NONE;
        this.onDone = onDone;
        this.clock = clock;
        for (int i = 0; i < lanes.length; i++) {
            lanes[i] = new Lane(sinks.get(i));
            if (threaded) {
                final Thread thread = new Thread(lanes[i], name + "-" + (i + 1));
                thread.setDaemon(true);
                lanes[i].thread = thread;
                thread.start();
            }
        }
    }

    /** One lane that writes on the caller's thread as batches are submitted. */
    static Lanes inline(final BatchSink sink, final LongSupplier clock) {
        return new Lanes(List.of(sink), false, null, () -> { }, clock);
    }

    /**
     * One thread per sink, named {@code name-1}, {@code name-2}, ...
     *
     * @param onDone run by a lane thread after each batch it finished, to wake the caller
     */
    static Lanes threaded(final List<BatchSink> sinks, final String name, final Runnable onDone,
                          final LongSupplier clock) {
        return new Lanes(sinks, true, name, onDone, clock);
    }

    /**
     * (Re)connects every lane and reads the high-water mark. Only when nothing is in flight.
     *
     * @throws SQLException when a lane cannot connect; every lane is then disconnected
     */
    void connect() throws SQLException {
        requireSettled("connect");
        disconnect();
        try {
            readMarks(true);
            connected = true;
        } catch (final SQLException | RuntimeException e) {
            disconnect();
            throw e;
        }
    }

    /**
     * Rereads the high-water mark on every lane's connection, which another writer may have moved (cluster mode).
     * Only when nothing is in flight.
     *
     * @throws SQLException when a lane cannot read it; the caller disconnects
     */
    void refresh() throws SQLException {
        if (!inFlight.isEmpty()) {
            // a batch not yet collected would move the mark back below the one read here once it is
            throw new IllegalStateException("the mark is reread only once every batch in flight is collected");
        }
        readMarks(false);
    }

    /** Connects every lane's sink (or rereads its mark) and starts over from the highest mark they read. */
    private void readMarks(final boolean connect) throws SQLException {
        long mark = -1;
        for (final Lane lane : lanes) {
            if (connect) {
                lane.sink.connect();
            } else {
                lane.sink.refresh();
            }
            mark = Math.max(mark, lane.sink.persistedSequence());
        }
        persisted = mark;
        lastSubmitted = mark;
        turn.reset(mark);
    }

    /** @return true when no batch is being written */
    boolean settled() {
        for (final Job job : inFlight) {
            if (!job.done) {
                return false;
            }
        }
        return true;
    }

    /** @return true while every lane holds a connection (which may still turn out to be broken) */
    boolean connected() {
        return threaded ? connected : lanes[0].sink.connected();
    }

    /** Gives up every lane's connection. Only when nothing is in flight. */
    void disconnect() {
        requireSettled("disconnect");
        connected = false;
        for (final Lane lane : lanes) {
            lane.sink.disconnect();
        }
    }

    /** @return the last event known to be stored: the mark read at connect, or the last batch committed since */
    long persistedSequence() {
        return threaded ? persisted : lanes[0].sink.persistedSequence();
    }

    /** @return true when a batch can be submitted now: the next lane has nothing in flight */
    boolean canSubmit() {
        return connected() && lanes[next].idle() && inFlight.size() < lanes.length;
    }

    /**
     * Hands {@code batch} to the next lane. The batch is not touched by the caller until {@link #reap}
     * gives it back, committed or not.
     *
     * @throws IllegalStateException when the batch does not continue the last one submitted (a gap or an
     *                               overlap would follow), or no lane is free
     */
    void submit(final EventBatch batch) {
        if (!canSubmit()) {
            throw new IllegalStateException("no lane is free for a batch");
        }
        final long before = threaded ? lastSubmitted : persistedSequence();
        if (batch.firstSequence() != before + 1) {
            throw new IllegalStateException("the batch starts at event " + batch.firstSequence()
                    + " but the events before it end at " + before + "; refusing to leave a gap");
        }
        final Lane lane = lanes[next];
        next = (next + 1) % lanes.length;
        final Job job = new Job(lane, batch);
        lane.current = job;
        inFlight.addLast(job);
        lastSubmitted = batch.lastSequence();
        if (threaded) {
            if (!lane.inbox.offer(job)) {
                throw new IllegalStateException("lane " + lane.thread.getName() + " still holds a batch");
            }
        } else {
            lane.execute(job);
        }
    }

    /** @return events in batches submitted and not yet given back */
    int inFlightEvents() {
        int events = 0;
        for (final Job job : inFlight) {
            events += job.batch.size();
        }
        return events;
    }

    /** @return the engine timestamp of the oldest event in flight, or 0 if none */
    long oldestInFlightMicros() {
        final Job oldest = inFlight.peekFirst();
        return oldest == null ? 0 : oldest.batch.get(0).timestampMicros;
    }

    /**
     * Collects the batches that finished, oldest first, and stops at the first one still running.
     *
     * @param committed   told of each committed batch, in order; the batch is the caller's again
     * @param uncommitted after a failure, given every batch in flight that did not commit, in order
     * @return events committed by the batches collected
     * @throws SQLException the first failure in sequence order, once every batch in flight has settled
     */
    int reap(final Committed committed, final Consumer<EventBatch> uncommitted) throws SQLException {
        int events = 0;
        while (!inFlight.isEmpty() && inFlight.peekFirst().done) {
            final Job job = inFlight.peekFirst();
            if (job.failure != null) {
                settleAfterFailure(committed, uncommitted);
                throw rethrow(job.failure);
            }
            inFlight.removeFirst();
            persisted = job.batch.lastSequence();
            events += job.batch.size();
            committed.batch(job.batch, job.writeNanos);
        }
        return events;
    }

    private void settleAfterFailure(final Committed committed, final Consumer<EventBatch> uncommitted) {
        for (final Job job : inFlight) {
            while (!job.done) {
                // Parked, not spinning: a lane can take up to the server's idle-in-transaction timeout to give
                // up a claim that waits on a vanished predecessor; a lane that finishes wakes the caller.
                LockSupport.parkNanos(this, SETTLE_PAUSE_NANOS);
            }
        }
        boolean failed = false;
        while (!inFlight.isEmpty()) {
            final Job job = inFlight.removeFirst();
            if (!failed && job.failure == null) {
                persisted = job.batch.lastSequence();
                committed.batch(job.batch, job.writeNanos);
            } else {
                if (!failed && job.failure != null) {
                    failed = true;
                } else if (job.failure == null) {
                    LOG.warn("persistence: batch {}..{} committed after an earlier batch failed; the mark is reread"
                            + " before anything is written again", job.batch.firstSequence(), job.batch.lastSequence());
                }
                uncommitted.accept(job.batch);
            }
        }
        lastSubmitted = persisted;
        turn.reset(persisted);
    }

    private static SQLException rethrow(final Throwable failure) {
        if (failure instanceof SQLException sql) {
            return sql;
        }
        if (failure instanceof RuntimeException runtime) {
            throw runtime;
        }
        if (failure instanceof Error error) {
            throw error;
        }
        throw new IllegalStateException("a lane failed", failure);
    }

    private void requireSettled(final String what) {
        if (!settled()) {
            throw new IllegalStateException("cannot " + what + " while a batch is being written");
        }
    }

    /**
     * Stops the lane threads, waiting a bounded time for a batch in flight, and disconnects. Batches that did
     * not commit are rewritten from the journal at the next start.
     */
    @Override
    public void close() {
        if (threaded) {
            for (final Lane lane : lanes) {
                lane.inbox.offer(new Job(lane, null));
            }
            for (final Lane lane : lanes) {
                try {
                    lane.thread.join(CLOSE_WAIT_MILLIS);
                } catch (final InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                if (lane.thread.isAlive()) {
                    LOG.warn("persistence: lane {} did not finish its batch in time", lane.thread.getName());
                    lane.thread.interrupt();
                }
            }
        }
        inFlight.removeIf(job -> job.done);
        if (inFlight.isEmpty()) {
            disconnect();
        }
    }
}
