package io.orderentry.persistence;

import java.io.IOException;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cluster mode ({@code shared}): whether this member's {@link PersistenceWriter} writes. Every member spools the same
 * events, but only the leader writes them; the others follow the database's high-water mark. A member that stops
 * leading submits no more batches (those in flight finish; those that fail are left to the next leader); one that
 * starts leading first collects the batches still in flight from an earlier leadership, then rereads the mark (the
 * previous leader's last batches included) and writes after it; one that follows collects its batches in flight and
 * rereads the mark once a second, so that its spool can be deleted up to it. On a single node the writer always
 * writes and nothing here changes.
 *
 * <p>Threads: {@link #lead} on the cluster's service thread, {@link #writing} on any; the rest on the writer thread.
 */
final class Leadership {

    /** The writer's log: these lines read as the writer's, as they did before they moved here. */
    private static final Logger LOG = LoggerFactory.getLogger(PersistenceWriter.class);
    /** How often a member that does not lead rereads the database's high-water mark. */
    private static final long FOLLOW_REFRESH_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final boolean shared;
    private final Batcher batcher;
    private final Lanes lanes;
    private volatile boolean leading;
    private volatile boolean writing;
    private long nextRefreshNanos;

    /** @param shared whether this is a cluster member, which writes only once it is told it leads */
    Leadership(final boolean shared, final Batcher batcher, final Lanes lanes) {
        this.shared = shared;
        this.batcher = batcher;
        this.lanes = lanes;
        this.writing = !shared;
        batcher.submitting(!shared);
    }

    /** @return whether this is a cluster member, whose writer writes only while it leads */
    boolean shared() {
        return shared;
    }

    /** @return true if this changed what the writer should do (wake it): only in cluster mode */
    boolean lead(final boolean lead) {
        if (shared) {
            leading = lead;
        }
        return shared;
    }

    /** @return true while the writer writes: always on a single node, on the leader in cluster mode; any thread */
    boolean writing() {
        return writing;
    }

    /** @return whether this member was told it leads, or no longer does, and its writer has not acted on it yet */
    boolean changing() {
        return shared && leading != writing;
    }

    /**
     * Acts on a change of leadership: stops writing at once when this member no longer leads, or starts when it leads
     * and no batch of an earlier leadership is still in flight (collecting those meanwhile).
     *
     * @param persisted the high-water mark as the writer last saw it, for the log
     * @return true if this member now writes from the database's mark as it is now, which the lanes reread
     */
    boolean change(final long persisted) throws SQLException, IOException {
        if (!leading) {
            batcher.submitting(false);
            writing = false;
            LOG.info("persistence: this member no longer leads; it stops writing at high-water mark {} and follows"
                    + " the database's", persisted);
            return false;
        }
        if (lanes.inFlightEvents() > 0) {
            batcher.poll(false);   // collects its batches from an earlier leadership; submits none yet
            return false;
        }
        lanes.refresh();
        batcher.submitting(true);
        writing = true;
        return true;
    }

    /**
     * On a member that does not lead: collects batches still in flight from its leadership and rereads the
     * high-water mark once a second, reading its spool past the events stored.
     *
     * @return the database's high-water mark as last read
     */
    long follow() throws SQLException, IOException {
        batcher.poll(false);
        final long now = System.nanoTime();
        if (now - nextRefreshNanos >= 0 && lanes.inFlightEvents() == 0) {
            nextRefreshNanos = now + FOLLOW_REFRESH_NANOS;
            lanes.refresh();
            batcher.poll(false);
        }
        return lanes.persistedSequence();
    }
}
