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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

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
 * <p>Threads: the service container's thread calls every method. It and {@link ClusterIngressStage}'s thread (edge
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
    private final AtomicLong lostCommands = new AtomicLong();
    private final AtomicLong forgedKeepFrom = new AtomicLong();
    private static final long FORGED_LOG_EVERY_NANOS = TimeUnit.SECONDS.toNanos(10);
    private long lastForgedLog;
    private final InFlight inFlight = new InFlight();
    private final OrderCommand failed = new OrderCommand();
    private final Runnable onStarted;
    private final StateSnapshots snapshots;
    private final BooleanSupplier outputDrained;
    private final LogRetention retention;

    /** Commands applied, in log order (the journal's sequence); written by the service thread only, read by any. */
    private volatile long commandSequence;
    private long lastTimestampMicros;
    private volatile Cluster.Role role = Cluster.Role.FOLLOWER;
    private volatile int leaderMemberId = -1;
    private volatile long leadershipTermId = -1;
    private volatile long snapshotCommand;
    /** The log position of the last message this member's engine applied; written by the service thread only. */
    private volatile long appliedPosition;
    private Cluster cluster;
    private volatile Consumer<Cluster.Role> roleListener = role -> { };
    private final SwitchLog switches;

    /**
     * @param onStarted     called on the service's thread once it has started (the log replay, if any, follows)
     * @param snapshots     writes and restores the state in the snapshot format
     * @param outputDrained whether every consumer of the output ring has applied every published event
     * @param retention     told what part of the log each member still needs, as the members say it in the log
     */
    public EngineService(final MatcherStage stage, final Lock outputLock, final ClusterCommands codec, final int member,
                         final long incarnation, final Runnable onStarted, final StateSnapshots snapshots,
                         final BooleanSupplier outputDrained, final LogRetention retention) {
        this.retention = retention;
        this.snapshots = snapshots;
        this.outputDrained = outputDrained;
        this.stage = stage;
        this.outputLock = outputLock;
        this.codec = codec;
        this.member = member;
        this.incarnation = incarnation;
        this.onStarted = onStarted;
        this.switches = new SwitchLog(member, incarnation);
    }

    /**
     * @param listener told of this member's role on the service's thread: the role it starts in, then every change
     *                 (PostgreSQL persistence writes on the leader only). Set before the member is launched.
     */
    public void onRole(final Consumer<Cluster.Role> listener) {
        this.roleListener = listener;
    }

    /** @param answers told of this member's switch armings as the log applies them; set before the member is launched */
    public void answerSwitchesWith(final ClusterSwitchClient answers) {
        switches.answerWith(answers);
    }

    @Override
    public void onStart(final Cluster cluster, final Image snapshotImage) {
        this.cluster = cluster;
        switches.start(cluster);
        role = cluster.role();
        roleListener.accept(role);
        if (snapshotImage != null) {
            loadSnapshot(snapshotImage);
        }
        outputLock.lock();
        try {
            stage.replayCompleted(commandSequence);
        } finally {
            outputLock.unlock();
        }
        appliedPosition = cluster.logPosition();
        LOG.info("cluster: member {} (incarnation {}) started its engine at command {}; the log follows", member,
                Long.toHexString(incarnation), commandSequence);
        onStarted.run();
    }

    /** Reads the snapshot's bytes into a file and restores the state from it (the log after it follows). */
    private void loadSnapshot(final Image image) {
        final long started = System.nanoTime();
        final long[] position = SnapshotReceiver.load(image, snapshots, switches);
        commandSequence = position[0];
        lastTimestampMicros = position[1];
        snapshotCommand = commandSequence;
        LOG.info("cluster: member {} loaded the cluster's snapshot at command {} ({} bytes) in {} ms", member,
                commandSequence, position[2], (System.nanoTime() - started) / 1_000_000);
    }

    @Override
    public void onSessionOpen(final ClientSession session, final long timestamp) {
        // every member's HTTP side is one client session; nothing to keep per session
        appliedPosition = cluster.logPosition();
    }

    @Override
    public void onSessionClose(final ClientSession session, final long timestamp, final CloseReason closeReason) {
        // its commands in the log stay; what it waited for is answered by its own timeout
        appliedPosition = cluster.logPosition();
    }

    @Override
    public void onSessionMessage(final ClientSession session, final long timestamp, final DirectBuffer buffer,
                                 final int offset, final int length, final Header header) {
        appliedPosition = header.position();
        if (length > scratch.capacity()) {
            undecodable(header.position(), "a message of " + length + " bytes");
            return;
        }
        buffer.getBytes(offset, scratch.array(), 0, length);
        if (ClusterCommands.isKeepFrom(scratch, length)) {
            onKeepFrom(session, header.position());
            return;   // no command: no sequence, nothing published
        }
        if (ClusterCommands.isSwitch(scratch, length)) {
            // no command either (the switch's timer may make one later); the member that sent it answers it
            lastTimestampMicros = Math.max(lastTimestampMicros, timestamp);
            final String refused = switches.apply(scratch, length, header.position(), lastTimestampMicros);
            if (refused != null) {
                undecodable(header.position(), refused);
            }
            return;
        }
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
                if (command.replyTo >= 0) {
                    inFlight.seen(command.requestId, command.replyTo, this::notExecuted);
                }
                stage.onEvent(command, commandSequence, true);
            } else {
                stage.replay(command);
                command.releaseReferences();
            }
        } finally {
            outputLock.unlock();
        }
    }

    /**
     * A member's {@code keepFrom}, accepted only from the session of the member it names: the principal Aeron recorded
     * with the session when the {@link MemberAuthenticator} admitted it ("member N"), the same on every member and in
     * every replay. Any other is counted and logged, and changes nothing (a forged one could hold the log's purge or
     * let it delete what a stopped member still needs).
     */
    private void onKeepFrom(final ClientSession session, final long position) {
        final int named = ClusterCommands.keepFromMember(scratch);
        final int sender = session == null ? MemberCredentials.NO_MEMBER
                : MemberCredentials.memberOf(session.encodedPrincipal());
        if (sender != named) {
            final long count = forgedKeepFrom.incrementAndGet();
            if (System.nanoTime() - lastForgedLog < FORGED_LOG_EVERY_NANOS && count > 1) {
                return;
            }
            lastForgedLog = System.nanoTime();
            LOG.warn("cluster: ignored a keepFrom at log position {} naming member {}: its session ({}) is {}; {} such"
                    + " since start", position, named, session == null ? "none" : session.id(),
                    sender == MemberCredentials.NO_MEMBER ? "no member's" : "member " + sender + "'s", count);
            // logged every 10 s at most: a log recorded before members authenticated holds one every few seconds
            return;
        }
        retention.onKeepFrom(named, ClusterCommands.keepFromPosition(scratch));
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

    /**
     * A switch's timer, fired by the leader and applied by every member at the same log position: the account's
     * open orders are canceled by a cancel-all with cause {@code CANCEL_ALL_AFTER}, which takes the next command
     * sequence here as in every member's audit trail. Nobody waits for its answer. A timer whose switch was refreshed
     * or disarmed since does nothing.
     */
    @Override
    public void onTimerEvent(final long correlationId, final long timestamp) {
        appliedPosition = cluster.logPosition();
        final OrderCommand fired = switches.fire(correlationId);
        if (fired == null) {
            return;
        }
        fired.sequence = ++commandSequence;
        lastTimestampMicros = Math.max(lastTimestampMicros, timestamp);
        fired.timestampMicros = lastTimestampMicros;
        final String account = fired.accountId;
        outputLock.lock();
        try {
            stage.replay(fired);
        } finally {
            fired.releaseReferences();
            outputLock.unlock();
        }
        LOG.info("cluster: the dead man's switch of account {} fired: its open orders are canceled (command {})",
                account, commandSequence);
    }

    /** @return the cluster's dead man's switches armed now (the same on every member); any thread */
    public int switchesArmed() {
        return switches.armedCount();
    }

    /** @return switches this member applied as fired since its start (the same count on every member); any thread */
    public long switchesFired() {
        return switches.firedCount();
    }

    /**
     * Writes the state in the snapshot format into the cluster's snapshot, under the output lock: first waits for the
     * output ring's consumers to apply every event (the order view and the market data are theirs), so the snapshot
     * holds the state after exactly {@code commandSequence} commands; then writes it straight into the publication,
     * which Aeron's archive records. Aeron takes it on every member at the same log position and applies no log
     * message on the member until this returns: the engine pauses for the write (docs/cluster.md, "Operations",
     * "Snapshot"). A member that starts loads the newest and replays the log after it.
     */
    @Override
    public void onTakeSnapshot(final ExclusivePublication publication) {
        final long started = System.nanoTime();
        appliedPosition = cluster.logPosition();
        final SnapshotStream out = new SnapshotStream(publication, cluster.idleStrategy());
        outputLock.lock();
        try {
            while (!outputDrained.getAsBoolean()) {
                // the consumers need the cores this thread would spin on (three members share two here)
                LockSupport.parkNanos(50_000);
            }
            out.write(switches.section());
            snapshots.write(commandSequence, lastTimestampMicros, out);
            snapshotCommand = commandSequence;
        } catch (final IOException e) {
            throw new UncheckedIOException("the cluster's snapshot could not be written: " + e.getMessage(), e);
        } finally {
            outputLock.unlock();
        }
        LOG.info("cluster: member {} wrote the cluster's snapshot at command {} ({} bytes) in {} ms; its engine applied"
                + " nothing meanwhile", member, commandSequence, out.bytes, (System.nanoTime() - started) / 1_000_000);
    }

    /**
     * A new leadership term starts in the log: what this member sent in an earlier term and has not seen is not in the
     * log, and never will be. Its requests are answered now, as not executed ({@code 503 JOURNAL_UNAVAILABLE}).
     */
    @Override
    public void onNewLeadershipTermEvent(final long leadershipTermId, final long logPosition, final long timestamp,
                                         final long termBaseLogPosition, final int leaderMemberId,
                                         final int logSessionId, final TimeUnit timeUnit, final int appVersion) {
        outputLock.lock();
        try {
            inFlight.newTerm(leadershipTermId, this::notExecuted);
        } finally {
            outputLock.unlock();
        }
        switches.newTerm(leadershipTermId);
        appliedPosition = logPosition;
        this.leadershipTermId = leadershipTermId;
        this.leaderMemberId = leaderMemberId;
        LOG.info("cluster: member {} applies leadership term {} of leader member {}", member, leadershipTermId,
                leaderMemberId);
    }

    /** Answers a request whose command did not reach the log: not executed. Under the output lock. */
    private void notExecuted(final InFlight.Sent sent) {
        lostCommands.incrementAndGet();
        failed.reset();
        failed.type = sent.type();
        failed.requestId = sent.requestId();
        failed.replyTo = sent.replyTo();
        failed.journalFailed = true;
        stage.onEvent(failed, 0, true);
    }

    /** @return this member's sent commands that are not yet back from the log; for the ingress */
    InFlight inFlight() {
        return inFlight;
    }

    /** @return commands this member sent that a leader change lost (their requests answered 503), since start */
    public long lostCommands() {
        return lostCommands.get();
    }

    @Override
    public void onRoleChange(final Cluster.Role newRole) {
        role = newRole;
        LOG.info("cluster: member {} is now {}", member, newRole);
        roleListener.accept(newRole);
    }

    @Override
    public void onTerminate(final Cluster cluster) {
        LOG.info("cluster: member {} terminating after {} commands", member, commandSequence);
    }

    /** @return this member's role in the cluster; any thread */
    public Cluster.Role role() {
        return role;
    }

    /** @return the command sequence of the newest snapshot this member wrote or loaded, 0 for none; any thread */
    public long snapshotCommand() {
        return snapshotCommand;
    }

    /**
     * @return the log position up to which this member's engine has applied the log (the last message it saw, of
     *         whatever kind); compared with the commit position, how far it is behind; any thread
     */
    public long appliedPosition() {
        return appliedPosition;
    }

    /** @return the leader's member id of the newest leadership term this member applied, -1 before any; any thread */
    public int leaderMemberId() {
        return leaderMemberId;
    }

    /** @return the newest leadership term this member applied, -1 before any; any thread */
    public long leadershipTermId() {
        return leadershipTermId;
    }

    /** @return commands applied from the log since start; any thread */
    public long appliedCommands() {
        return commandSequence;
    }

    /** @return {@code keepFrom} messages ignored because their session is not the member they name; any thread */
    public long forgedKeepFrom() {
        return forgedKeepFrom.get();
    }

        /** @return messages skipped as undecodable; any thread */
    public long undecodable() {
        return undecodable.get();
    }
}
