package io.orderentry.persistence;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/** A sink that remembers the sequences of every batch it stored and can be told to fail. */
final class RecordingSink implements BatchSink {

    final List<List<Long>> batches = new ArrayList<>();
    private long persisted;
    private int failuresLeft;
    private boolean storeDespiteFailure;
    private volatile CountDownLatch gate;

    /** Every write waits until {@code gate} opens: a slow database, for a sink written by a lane thread. */
    void holdWritesUntil(final CountDownLatch gate) {
        this.gate = gate;
    }

    /** The next {@code count} writes throw without storing anything. */
    void failNext(final int count) {
        failuresLeft = count;
        storeDespiteFailure = false;
    }

    /** The next write stores the batch but then throws, as when a commit's answer is lost. */
    void storeButFailNext() {
        failuresLeft = 1;
        storeDespiteFailure = true;
    }

    /** Another writer (a cluster's leader) stored every event up to {@code mark}. */
    void storedElsewhereThrough(final long mark) {
        persisted = mark;
    }

    @Override
    public void connect() {
    }

    @Override
    public boolean connected() {
        return true;
    }

    @Override
    public void disconnect() {
    }

    @Override
    public long persistedSequence() {
        return persisted;
    }

    @Override
    public void write(final EventBatch batch, final ClaimTurn turn) throws SQLException {
        final CountDownLatch held = gate;
        if (held != null) {
            try {
                held.await();
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SQLException("interrupted while held", "57014", e);
            }
        }
        if (batch.firstSequence() != persisted + 1) {
            throw new IllegalStateException("gap: stored " + persisted + ", batch starts at " + batch.firstSequence());
        }
        if (failuresLeft > 0) {
            failuresLeft--;
            if (storeDespiteFailure) {
                store(batch);
            }
            throw new SQLException("injected failure", "08006");
        }
        store(batch);
    }

    private void store(final EventBatch batch) {
        final List<Long> sequences = new ArrayList<>();
        for (int i = 0; i < batch.size(); i++) {
            sequences.add(batch.get(i).eventSequence);
        }
        batches.add(sequences);
        persisted = batch.lastSequence();
    }
}
