package io.orderentry.cluster;

import com.lmax.disruptor.EventHandler;
import io.aeron.Publication;
import io.aeron.cluster.client.AeronCluster;
import io.aeron.cluster.client.EgressListener;
import io.aeron.logbuffer.Header;
import io.aeron.security.AuthenticationException;
import io.orderentry.pipeline.CommandType;
import io.orderentry.pipeline.MatcherStage;
import io.orderentry.pipeline.OrderCommand;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import java.util.function.Supplier;

/**
 * The input ring's consumer in cluster mode, in place of the journal and the matcher: it sends each command into the
 * cluster's log through this member's cluster client, whichever member leads (Aeron's client follows the leader: a
 * request that reaches a follower's HTTP port goes to the leader without the caller noticing). The answer comes back
 * through this member's own {@link EngineService} once the command is committed and executed.
 *
 * <p>A command that cannot be sent (no leader: an election, or a majority of the members down; the leader pushing back
 * for longer than {@link #OFFER_MILLIS} ms) is answered at once {@code 503 JOURNAL_UNAVAILABLE}, as when the journal
 * cannot write: it was not sent, so it is certainly not executed. Edge refusals and ticks never go to the cluster: they
 * are published into this member's output ring here.
 *
 * <p>Threads: {@link #onEvent} on the input ring's consumer thread ({@code oe-cluster}); a keeper thread
 * ({@code oe-cluster-client}) connects the client, polls its egress (the leader's heartbeats and the news of a new
 * leader) and connects again when the client was closed. The client is used under {@code clientLock}.
 */
public final class ClusterIngressStage implements EventHandler<OrderCommand>, AutoCloseable {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ClusterIngressStage.class);
    /** How long a command waits for the leader's back pressure to clear before it is answered 503. */
    static final long OFFER_MILLIS = 20;
    private static final long RECONNECT_LOG_EVERY_NANOS = TimeUnit.SECONDS.toNanos(30);
    /** A keepalive a second: the cluster closes a client session it has not heard from for 10 s. */
    private static final long KEEP_ALIVE_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final Supplier<AeronCluster.Context> contexts;
    private final MatcherStage stage;
    private final Lock outputLock;
    private final ClusterCommands codec;
    private final int member;
    private final long incarnation;
    private final Object clientLock = new Object();
    private final UnsafeBuffer sendBuffer = new UnsafeBuffer(new byte[0]);
    private final Thread keeper;
    private final InFlight inFlight;

    private AeronCluster client;   // guarded by clientLock
    private volatile boolean connected;
    private volatile boolean running = true;
    private volatile long sent;
    private volatile long refused;
    private volatile long connects;

    /**
     * @param contexts makes a new client context for each connection attempt (a context is used once)
     */
    public ClusterIngressStage(final Supplier<AeronCluster.Context> contexts, final MatcherStage stage,
                          final Lock outputLock, final ClusterCommands codec, final int member,
                          final long incarnation, final EngineService service) {
        this.inFlight = service.inFlight();
        this.contexts = contexts;
        this.stage = stage;
        this.outputLock = outputLock;
        this.codec = codec;
        this.member = member;
        this.incarnation = incarnation;
        this.keeper = new Thread(this::keep, "oe-cluster-client");
        this.keeper.setDaemon(true);
    }

    /** Starts connecting; {@link #connected()} says when commands can go. */
    public void start() {
        keeper.start();
    }

    @Override
    public void onEvent(final OrderCommand command, final long sequence, final boolean endOfBatch) {
        command.journalFailed = false;
        if (command.type != CommandType.REJECTED && command.type != CommandType.TICK) {
            final Sent outcome = send(command);
            if (outcome != Sent.REFUSED) {
                command.releaseReferences();   // in the log, or already answered as lost by a new term
                return;
            }
            command.journalFailed = true;
            refused++;
        }
        outputLock.lock();
        try {
            stage.onEvent(command, sequence, endOfBatch);   // publishes the refusal, the tick or the 503
        } finally {
            outputLock.unlock();
        }
    }

    /** What became of a command {@link #send} was given. */
    private enum Sent {
        /** It is in the leader's log (its answer comes through the engine). */
        SENT,
        /** It was not sent: the caller answers 503. */
        REFUSED,
        /** It was not sent, but a new term already answered it as lost (see {@link InFlight#withdraw}). */
        ANSWERED
    }

    private Sent send(final OrderCommand command) {
        if (!connected) {
            return Sent.REFUSED;
        }
        final ByteBuffer message;
        try {
            message = codec.encode(command, member, incarnation);
        } catch (final IllegalArgumentException e) {
            LOG.error("cluster: a command could not be encoded and was answered 503: {}", e.getMessage());
            return Sent.REFUSED;
        }
        sendBuffer.wrap(message.array(), 0, message.limit());
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(OFFER_MILLIS);
        synchronized (clientLock) {
            InFlight.Sent tracked = null;
            while (client != null && !client.isClosed()) {
                if (tracked == null && command.replyTo >= 0) {
                    tracked = inFlight.sent(command.requestId, command.replyTo, client.leadershipTermId(),
                            command.type);
                }
                final long result = client.offer(sendBuffer, 0, message.limit());
                if (result > 0) {
                    sent++;
                    return Sent.SENT;
                }
                if (result != Publication.BACK_PRESSURED && result != Publication.ADMIN_ACTION
                        || System.nanoTime() - deadline > 0) {
                    break;   // NOT_CONNECTED (no leader), CLOSED, MAX_POSITION_EXCEEDED, or pushed back too long
                }
                client.pollEgress();
                Thread.onSpinWait();
            }
            // not sent; unless a new term already answered it as lost (it was tracked), the caller answers it
            return tracked != null && !inFlight.withdraw(tracked) ? Sent.ANSWERED : Sent.REFUSED;
        }
    }

    /**
     * Sends this member's {@code keepFrom} into the log ({@link LogPurger}): it needs the log from {@code position} on.
     *
     * @return whether it went (not connected, or pushed back: the purger sends it again later)
     */
    public boolean sendKeepFrom(final long position) {
        final ByteBuffer message = ClusterCommands.encodeKeepFrom(member, position);
        synchronized (clientLock) {
            if (client == null || client.isClosed()) {
                return false;
            }
            return client.offer(new UnsafeBuffer(message), 0, message.limit()) > 0;
        }
    }

    /**
     * Sends an arming of a dead man's switch ({@link ClusterSwitchClient}) into the log, waiting up to
     * {@link #OFFER_MILLIS} ms while the leader pushes back.
     *
     * @return whether it went (false: not connected, or pushed back too long; the caller answers 503)
     */
    public boolean sendSwitch(final ByteBuffer message) {
        final UnsafeBuffer bytes = new UnsafeBuffer(message);
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(OFFER_MILLIS);
        synchronized (clientLock) {
            while (client != null && !client.isClosed()) {
                final long result = client.offer(bytes, 0, message.limit());
                if (result > 0) {
                    return true;
                }
                if (result != Publication.BACK_PRESSURED && result != Publication.ADMIN_ACTION
                        || System.nanoTime() - deadline > 0) {
                    return false;
                }
                client.pollEgress();
                Thread.onSpinWait();
            }
            return false;
        }
    }

    /** @return the leadership term this member's client knows, or -1 while it is not connected; any thread */
    public long leadershipTermId() {
        synchronized (clientLock) {
            return client == null || client.isClosed() ? -1 : client.leadershipTermId();
        }
    }

    /** The keeper thread: connect, poll, and connect again when the client is closed. */
    private void keep() {
        long lastLog = System.nanoTime() - RECONNECT_LOG_EVERY_NANOS;
        long lastKeepAlive = System.nanoTime();
        while (running) {
            final AeronCluster current;
            synchronized (clientLock) {
                current = client;
            }
            if (current == null || current.isClosed()) {
                connected = false;
                try {
                    final AeronCluster fresh = AeronCluster.connect(contexts.get());
                    synchronized (clientLock) {
                        if (client != null) {
                            client.close();
                        }
                        client = fresh;
                    }
                    connects++;
                    connected = true;
                    LOG.info("cluster: member {} connected to the cluster; leader is member {}", member,
                            fresh.leaderMemberId());
                } catch (final RuntimeException e) {
                    if (!running) {
                        return;
                    }
                    if (System.nanoTime() - lastLog >= RECONNECT_LOG_EVERY_NANOS) {
                        lastLog = System.nanoTime();
                        LOG.warn("cluster: member {} cannot reach a leader ({}{}); orders are answered 503 until it"
                                + " can, tried again continuously, logged every 30 s", member, e.toString(),
                                e instanceof AuthenticationException ? ": the leader rejected this member's client;"
                                        + " is ORDERS_CLUSTER_SECRET_FILE the same secret on every member?" : "");
                    }
                    sleep(100);
                }
                continue;
            }
            int work;
            synchronized (clientLock) {
                work = current.isClosed() ? 0 : current.pollEgress();
                if (!current.isClosed() && System.nanoTime() - lastKeepAlive >= KEEP_ALIVE_NANOS) {
                    // the session lives as long as the leader hears from it: orders count, so do these
                    current.sendKeepAlive();
                    lastKeepAlive = System.nanoTime();
                    work++;
                }
                connected = !current.isClosed();
            }
            if (work == 0) {
                sleep(1);
            }
        }
    }

    private static void sleep(final long millis) {
        try {
            Thread.sleep(millis);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** @return whether the client is connected to a leader now; any thread */
    public boolean connected() {
        return connected;
    }

    /** @return commands sent into the log, since start */
    public long sent() {
        return sent;
    }

    /** @return commands answered 503 because they could not be sent, since start */
    public long refused() {
        return refused;
    }

    /** @return connections made to the cluster (1 + reconnections), since start */
    public long connects() {
        return connects;
    }

    @Override
    public void close() {
        running = false;
        keeper.interrupt();
        try {
            keeper.join(5_000);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (clientLock) {
            if (client != null) {
                client.close();
                client = null;
            }
            connected = false;
        }
    }

    /**
     * Ignores what the cluster sends this client (answers come through this member's own engine), but logs the news of
     * a new leader, which the client follows by itself: the moment this member's orders can reach the log again after a
     * failover (bench/cluster.sh failover reads it for its breakdown).
     */
    public static final class IgnoreEgress implements EgressListener {
        private final int member;

        public IgnoreEgress(final int member) {
            this.member = member;
        }

        @Override
        public void onMessage(final long clusterSessionId, final long timestamp, final DirectBuffer buffer,
                              final int offset, final int length, final Header header) {
            // the service sends nothing on egress
        }

        @Override
        public void onNewLeader(final long clusterSessionId, final long leadershipTermId, final int leaderMemberId,
                                final String ingressEndpoints) {
            LOG.info("cluster: member {}'s client follows the new leader, member {} (term {})", member, leaderMemberId,
                    leadershipTermId);
        }
    }
}
