package io.orderentry.cluster;

import io.aeron.ExclusivePublication;
import io.aeron.Image;
import io.aeron.cluster.codecs.CloseReason;
import io.aeron.cluster.service.ClientSession;
import io.aeron.cluster.service.Cluster;
import io.aeron.cluster.service.ClusteredService;
import io.aeron.logbuffer.Header;
import io.orderentry.journal.JournalCorruptedException;
import io.orderentry.journal.UnknownSymbolException;
import io.orderentry.pipeline.MatcherStage;
import io.orderentry.pipeline.OrderCommand;
import org.agrona.DirectBuffer;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Lock;

/**
 * The engine as Aeron Cluster's clustered service: every member runs it over the same committed log, so every member's
 * engine, order view and market data are the same, and each member answers the HTTP requests it sent into the log.
 *
 * <p>Each message is one command ({@link ClusterCommands}); the service numbers the commands in log order (the
 * {@code sequence} the journal would give them, so the audit trail's record of a command is the same on every member)
 * and stamps them with the log's time in microseconds, so replaying the log anywhere gives the same events. A command
 * this member sent in this incarnation is executed as a live one (its answer goes to the waiting request); any other is
 * executed as the journal's replay executes a command (nobody here waits for it; the audit trail records it as recovered).
 *
 * <p>Threads: the service container's thread calls every method. It and {@link ClusterIngress}'s thread (edge
 * refusals, failures to send) both publish into the output ring through the one {@link MatcherStage}, under
 * {@code outputLock}, so that one command's events are never interleaved with another's.
 */
public final class EngineService implements ClusteredService {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(EngineService.class);

    private final MatcherStage stage;
    private final Lock outputLock;
    private final ClusterCommands codec;
    private final int member;
    private final long incarnation;
    private final OrderCommand command = new OrderCommand();
    private final ClusterCommands.Origin origin = new ClusterCommands.Origin();
    private final ByteBuffer scratch = ByteBuffer.allocate(ClusterCommands.maxMessageSize()).order(ByteOrder.LITTLE_ENDIAN);
    private final AtomicLong undecodable = new AtomicLong();
    private final Runnable onStarted;

    private long commandSequence;
    private long lastTimestampMicros;
    private volatile Cluster.Role role = Cluster.Role.FOLLOWER;
    private volatile long appliedCommands;

    /**
     * @param onStarted called on the service's thread once it has started (the log replay, if any, follows)
     */
    public EngineService(final MatcherStage stage, final Lock outputLock, final ClusterCommands codec, final int member,
                         final long incarnation, final Runnable onStarted) {
        this.stage = stage;
        this.outputLock = outputLock;
        this.codec = codec;
        this.member = member;
        this.incarnation = incarnation;
        this.onStarted = onStarted;
    }

    @Override
    public void onStart(final Cluster cluster, final Image snapshotImage) {
        if (snapshotImage != null) {
            // onTakeSnapshot refuses to write one (see there), so a log with a snapshot is not this version's
            throw new IllegalStateException("the cluster's log has a snapshot, which this version cannot load: it"
                    + " replays the whole log instead and never writes one");
        }
        outputLock.lock();
        try {
            stage.replayCompleted(0);
        } finally {
            outputLock.unlock();
        }
        LOG.info("cluster: member {} (incarnation {}) started its engine; the log follows", member,
                Long.toHexString(incarnation));
        onStarted.run();
    }

    @Override
    public void onSessionOpen(final ClientSession session, final long timestamp) {
        // every member's HTTP side is one client session; nothing to keep per session
    }

    @Override
    public void onSessionClose(final ClientSession session, final long timestamp, final CloseReason closeReason) {
        // its commands in the log stay; what it waited for is answered by its own timeout
    }

    @Override
    public void onSessionMessage(final ClientSession session, final long timestamp, final DirectBuffer buffer,
                                 final int offset, final int length, final Header header) {
        if (length > scratch.capacity()) {
            undecodable(header.position(), "a message of " + length + " bytes");
            return;
        }
        buffer.getBytes(offset, scratch.array(), 0, length);
        try {
            codec.decode(scratch, length, command, origin, header.position());
        } catch (final JournalCorruptedException | UnknownSymbolException e) {
            undecodable(header.position(), e.getMessage());
            return;
        }
        command.sequence = ++commandSequence;
        lastTimestampMicros = Math.max(lastTimestampMicros, timestamp);
        command.timestampMicros = lastTimestampMicros;
        final boolean mine = origin.member() == member && origin.incarnation() == incarnation;
        outputLock.lock();
        try {
            if (mine) {
                stage.onEvent(command, commandSequence, true);
            } else {
                stage.replay(command);
                command.releaseReferences();
            }
        } finally {
            outputLock.unlock();
        }
        appliedCommands = commandSequence;
    }

    /**
     * A message no member can decode (every member decodes the same bytes with the same code, so all skip it): it is
     * counted and logged, and takes no command sequence. Its sender's request, if any, is answered by the sender's
     * timeout.
     */
    private void undecodable(final long position, final String reason) {
        undecodable.incrementAndGet();
        LOG.error("cluster: skipped the log's message at position {}, which cannot be decoded: {}", position, reason);
    }

    @Override
    public void onTimerEvent(final long correlationId, final long timestamp) {
        // the service schedules no timers
    }

    /**
     * Refuses: this version keeps no cluster snapshot (a restarted member replays the whole log). Throwing makes the
     * consensus module report the snapshot as failed instead of recording one this version could not load.
     */
    @Override
    public void onTakeSnapshot(final ExclusivePublication snapshotPublication) {
        throw new UnsupportedOperationException("cluster snapshots are not supported by this version: a member"
                + " replays the whole log when it starts");
    }

    @Override
    public void onRoleChange(final Cluster.Role newRole) {
        role = newRole;
        LOG.info("cluster: member {} is now {}", member, newRole);
    }

    @Override
    public void onTerminate(final Cluster cluster) {
        LOG.info("cluster: member {} terminating after {} commands", member, commandSequence);
    }

    /** @return this member's role in the cluster; any thread */
    public Cluster.Role role() {
        return role;
    }

    /** @return commands applied from the log since start; any thread */
    public long appliedCommands() {
        return appliedCommands;
    }

    /** @return messages skipped as undecodable; any thread */
    public long undecodable() {
        return undecodable.get();
    }
}
