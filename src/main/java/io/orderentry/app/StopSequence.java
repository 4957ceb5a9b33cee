package io.orderentry.app;

import io.orderentry.http.rest.InputGateway;
import io.orderentry.journal.DirectoryLock;
import io.orderentry.ops.DiskUsage;
import io.orderentry.ops.MetricsText;
import io.orderentry.ops.ServiceStatus;
import io.orderentry.persistence.PersistenceService;
import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The service's stop, step by step, within one budget. The order, and why:
 * <ol>
 * <li>the recovery's abort, when a stop comes during the replay (the replay ends at its next record);</li>
 * <li>STOPPING, the dead man's switch closed and the input gateway closed: no new command, no switch firing, and a
 *     request that passed the readiness check just before is waited for, so the drains answer everything taken;</li>
 * <li>the input ring drained: every accepted command journaled and executed ({@link Pipeline#stopInput});</li>
 * <li>cluster mode: its jobs stopped, the answers sent through the log written, then the member leaves the cluster,
 *     before the output ring drains (the engine publishes into it);</li>
 * <li>the output ring drained ({@link Pipeline#stopOutput}), then the answers written to their connections;</li>
 * <li>persistence: the spool written to the database as far as it can be in its time;</li>
 * <li>the audit trail and the journal closed (not when a stage thread did not stop: closing under it could cut a
 *     record in half, and the next start recovers them as after a crash), then the final snapshot, which covers
 *     every journaled command, and the audit archiving;</li>
 * <li>authentication's reload, the journal (or member directory) lock, and last the HTTP server, so that every
 *     answer above reaches its client; then {@code /metrics}.</li>
 * </ol>
 * The crash-recovery and drain tests depend on this order.
 *
 * <p>Every step that waits takes at most what is left of {@link #BUDGET_MILLIS}, and at least
 * {@link #MIN_STEP_MILLIS}, so the worst case is the budget plus one such minimum per step ({@link #STEPS}).
 *
 * <p>Threads: the stopping thread (the shutdown hook, {@code Main} after a failed start, the starting thread when it
 * fails the start, or {@code fail-fast-stop} after a stage failed); one stop at a time ({@code stop} is
 * synchronized and runs once).
 */
final class StopSequence {

    /** The service's logger: its lines keep the name the logs have always shown. */
    private static final Logger LOG = LoggerFactory.getLogger(OrderEntryService.class);
    /** The longest one step of a stop may take: a ring's drain, the answers' writing, the recovery's abort. */
    static final long STEP_MILLIS = 10_000;
    /**
     * The whole stop, from the signal to the last snapshot, within this: every step takes at most what is left of it
     * (and at least {@link #MIN_STEP_MILLIS}), so the worst case is this plus one such minimum per step, 45 s,
     * under compose's {@code stop_grace_period} (60 s) and so never cut short by a SIGKILL.
     */
    static final long BUDGET_MILLIS = 38_000;
    /** What a step of the stop gets even when the budget is spent, so that no step is skipped outright. */
    static final long MIN_STEP_MILLIS = 1_000;
    /**
     * The steps of a stop that wait: the recovery's abort, the input ring (drain, then its stages' join), the output
     * ring (the same), the answers, persistence, the final snapshot, the HTTP server.
     */
    static final int STEPS = 7;
    /** How long a halted ring's stage threads may take to leave their batch. */
    private static final long STAGE_JOIN_MILLIS = 5_000;
    /** Longest a graceful stop waits for the final snapshot. */
    private static final long SNAPSHOT_STOP_MILLIS = 20_000;

    /** What the start opened so far; any of them null when the start did not get that far. */
    record Parts(HttpWiring http, InputGateway gateway, Pipeline pipeline, ClusterWiring cluster,
                 PersistenceWiring persistence, AuditWiring audit, JournalWiring journal, SnapshotWiring snapshots,
                 DirectoryLock journalLock, DiskUsage diskUsage, MetricsText metrics) {
    }

    private final ServiceStatus status;
    private final long deadline;

    /** Starts the stop's budget. */
    StopSequence(final ServiceStatus status) {
        this.status = status;
        this.deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(BUDGET_MILLIS);
    }

    /** Waits, within one step, for a start that is replaying to end; called from another thread than the start's. */
    void awaitRecovery(final CountDownLatch startEnded) {
        LOG.info("stopping during recovery: the replay stops at its next record");
        try {
            if (!startEnded.await(millisLeft(STEP_MILLIS), TimeUnit.MILLISECONDS)) {
                LOG.warn("recovery did not stop in time; stopping anyway");
            }
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Runs the steps after the recovery's abort, in the order the class comment gives. */
    void run(final Parts parts) {
        LOG.info("stopping: refusing new orders, draining the rings (at most {} s in all)", BUDGET_MILLIS / 1000);
        status.phase(ServiceStatus.Phase.STOPPING);
        if (parts.http() != null) {
            // a stopping service takes no more commands, so no switch fires from here on
            parts.http().closeDeadMansSwitch();
        }
        if (parts.gateway() != null) {
            // a request that passed the readiness check just before STOPPING may still be publishing: wait for it, and
            // refuse any later one, so that the drain below answers everything the ring took
            parts.gateway().close();
        }
        boolean stagesStopped = true;
        if (parts.pipeline() != null) {
            stagesStopped = parts.pipeline().stopInput(millisLeft(STEP_MILLIS), millisLeft(STAGE_JOIN_MILLIS));
        }
        if (parts.cluster() != null) {
            parts.cluster().stopJobs();
        }
        if (parts.cluster() != null && parts.cluster().launched()) {
            // what the input ring sent is answered through the log: wait for it, then stop taking part in the cluster
            // before the output ring drains (the engine publishes into it)
            awaitAnswersWritten(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millisLeft(STEP_MILLIS)));
            parts.cluster().leave();
        }
        if (parts.pipeline() != null) {
            stagesStopped &= parts.pipeline().stopOutput(millisLeft(STEP_MILLIS), millisLeft(STAGE_JOIN_MILLIS));
        }
        awaitAnswersWritten(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millisLeft(STEP_MILLIS)));
        if (parts.persistence() != null) {
            parts.persistence().stop(millisLeft(PersistenceService.STOP_WAIT_MILLIS));
        }
        if (!stagesStopped) {
            // a stage thread is still inside a batch (a write or force that does not return): closing the journal or
            // the audit trail under it could cut a record in half; the process exits and recovery reads what is there
            LOG.error("stopped without closing the journal and the audit trail: a stage thread did not stop; the next"
                    + " start recovers them as after a crash");
        }
        if (stagesStopped && parts.audit() != null) {
            parts.audit().close();
        }
        if (stagesStopped && parts.journal() != null) {
            parts.journal().close();
        }
        parts.snapshots().close(millisLeft(SNAPSHOT_STOP_MILLIS));
        if (parts.audit() != null) {
            parts.audit().stopArchiving();
        }
        if (parts.http() != null) {
            parts.http().closeAuth();
        }
        if (parts.journalLock() != null) {
            try {
                parts.journalLock().close();
            } catch (final IOException e) {
                LOG.error("releasing the journal lock failed", e);
            }
        }
        if (parts.http() != null) {
            parts.http().closeServer(millisLeft(STEP_MILLIS));
        }
        if (parts.diskUsage() != null) {
            parts.diskUsage().close();
        }
        parts.metrics().close();
        LOG.info("stopped");
    }

    /** @return the milliseconds of the budget left, at most {@code most}, at least {@link #MIN_STEP_MILLIS} */
    private long millisLeft(final long most) {
        return millisLeft(deadline, most);
    }

    /**
     * @return the milliseconds of the stop's budget left before {@code deadline}, at most {@code most}, at least
     *     {@link #MIN_STEP_MILLIS}
     */
    static long millisLeft(final long deadline, final long most) {
        return Math.max(MIN_STEP_MILLIS,
                Math.min(most, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
    }

    /** Lets the event loops write the answers the drained rings produced before the server closes. */
    private void awaitAnswersWritten(final long deadline) {
        while (status.waitingRequests() > 0 && System.nanoTime() < deadline) {
            try {
                Thread.sleep(5);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        if (status.waitingRequests() > 0) {
            LOG.warn("{} request(s) still unanswered at the stop's deadline; their commands are journaled and will be"
                    + " found by clientOrderId after restart", status.waitingRequests());
        } else {
            LOG.info("drained: every accepted command is journaled, executed and answered");
        }
    }
}
