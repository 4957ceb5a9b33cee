package io.orderentry.cluster;

import io.aeron.cluster.service.Cluster;
import io.orderentry.engine.RejectReason;
import io.orderentry.journal.JournalCorruptedException;
import io.orderentry.pipeline.CommandType;
import io.orderentry.pipeline.OrderCommand;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The dead man's switch's part of {@link EngineService}'s work: it applies the log's switch messages to the cluster's
 * {@link ClusterSwitches} (asking the consensus module for their timers), answers this member's own armings through its
 * {@link ClusterSwitchClient}, and turns a fired timer into the account's cancel-all, which the service sequences and
 * executes like any command of the log.
 *
 * <p>Threads: the service's thread; {@link #armedCount()} and {@link #firedCount()} any.
 */
final class SwitchLog {

    private final ClusterSwitches switches = new ClusterSwitches();
    private final OrderCommand fired = new OrderCommand();
    private final int member;
    private final long incarnation;
    private volatile ClusterSwitchClient answers;
    private Cluster cluster;

    /** The consensus module's timers, scheduled from the service's thread; offers are retried while pushed back. */
    private final ClusterSwitches.Timers timers = new ClusterSwitches.Timers() {
        @Override
        public void schedule(final long correlationId, final long deadlineMicros) {
            while (!cluster.scheduleTimer(correlationId, deadlineMicros)) {
                cluster.idleStrategy().idle();
            }
        }

        @Override
        public void cancel(final long correlationId) {
            cluster.cancelTimer(correlationId);
        }
    };

    SwitchLog(final int member, final long incarnation) {
        this.member = member;
        this.incarnation = incarnation;
    }

    void answerWith(final ClusterSwitchClient client) {
        this.answers = client;
    }

    /** @param started the cluster the service started in: its timers are the switches' */
    void start(final Cluster started) {
        this.cluster = started;
    }

    /**
     * Arms, refreshes or disarms an account's switch as of the log's time {@code nowMicros}, on every member alike;
     * the member that sent it answers its request.
     *
     * @return null, or why the message cannot be applied (every member skips it alike)
     */
    String apply(final ByteBuffer message, final int length, final long position, final long nowMicros) {
        final ClusterCommands.SwitchMessage decoded;
        try {
            decoded = ClusterCommands.decodeSwitch(message, length, position);
        } catch (final JournalCorruptedException e) {
            return e.getMessage();
        }
        final ClusterSwitchClient client = decoded.member() == member && decoded.incarnation() == incarnation
                ? answers : null;
        final long triggerAt;
        try {
            triggerAt = switches.arm(decoded.account(), decoded.timeoutSeconds(), decoded.keyId(), nowMicros, timers);
        } catch (final IllegalArgumentException e) {
            if (client != null) {
                client.refused(decoded.requestId(), e.getMessage());
            }
            return e.getMessage();
        }
        if (client != null) {
            client.applied(decoded.requestId(), triggerAt);
        }
        return null;
    }

    /**
     * @return the cancel-all of the account whose switch timer {@code correlationId} fires (cause
     *         {@code CANCEL_ALL_AFTER}, nobody waiting; its sequence and time are the caller's to set), or null when
     *         that timer's switch was refreshed or disarmed since
     */
    OrderCommand fire(final long correlationId) {
        final ClusterSwitches.Fired switchOf = switches.fire(correlationId);
        if (switchOf == null) {
            return null;
        }
        fired.reset();
        fired.type = CommandType.CANCEL_ALL;
        fired.accountId = switchOf.account();
        fired.symbol = -1;
        fired.cancelAllCause = RejectReason.CANCEL_ALL_AFTER;
        fired.keyId = switchOf.keyId();
        fired.replyTo = -1;
        return fired;
    }

    /** A new leadership term: this member's armings sent in earlier terms and not applied are answered as lost. */
    void newTerm(final long leadershipTermId) {
        final ClusterSwitchClient client = answers;
        if (client != null) {
            client.newTerm(leadershipTermId);
        }
    }

    /** @return the switches as the section that starts the cluster's snapshot */
    byte[] section() {
        return switches.section();
    }

    /** Restores the switches from a snapshot's section body. */
    void restore(final byte[] body) throws IOException {
        switches.restore(body);
    }

    int armedCount() {
        return switches.armedCount();
    }

    long firedCount() {
        return switches.firedCount();
    }
}
