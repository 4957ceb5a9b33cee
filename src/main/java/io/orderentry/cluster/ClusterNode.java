package io.orderentry.cluster;

import io.aeron.Counter;
import io.aeron.archive.Archive;
import io.aeron.archive.ArchiveThreadingMode;
import io.aeron.archive.checksum.Checksums;
import io.aeron.archive.client.AeronArchive;
import io.aeron.cluster.ClusterMember;
import io.aeron.cluster.ClusteredMediaDriver;
import io.aeron.cluster.ConsensusModule;
import io.aeron.cluster.ElectionState;
import io.aeron.cluster.client.AeronCluster;
import io.aeron.cluster.service.ClusterClock;
import io.aeron.cluster.service.ClusteredService;
import io.aeron.cluster.service.ClusteredServiceContainer;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import org.agrona.CloseHelper;
import org.agrona.ErrorHandler;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NoOpLock;

import java.io.File;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * One member of the cluster, in this process: Aeron's media driver, archive (which records the replicated log) and
 * consensus module, and the service container that runs the {@link EngineService}. The log is under
 * {@code directory/archive}, the cluster's own state under {@code directory/cluster}, Aeron's shared-memory files under
 * {@code directory/aeron} (deleted at each start: they hold nothing durable).
 *
 * <p>Every Aeron client that connects to this member, to the cluster's ingress (when it leads) or to its archive (over
 * IPC, as its own consensus module and service container do, or over UDP, as another member's archive replicating from
 * it), must prove it knows the members' shared {@link ClusterSecret} ({@link MemberAuthenticator}); this member's own
 * clients prove it with {@link MemberCredentials}. docs/cluster.md, "Who may talk to a member".
 *
 * <p>Every agent shares one thread per component and backs off to a 1 ms park when idle: the members of a cluster on
 * one small machine would otherwise spin its cores away from the HTTP side.
 */
public final class ClusterNode implements AutoCloseable {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ClusterNode.class);
    /** How long Aeron's mark files stay "active" after their process is gone (its liveness timeout, 10 s). */
    static final long STALE_MARK_MILLIS = 10_000;

    private final ClusteredMediaDriver driver;
    private final ClusteredServiceContainer container;
    private final String aeronDirectory;
    private final String ingressEndpoints;
    private final String egressHost;
    private final AeronArchive.Context archiveClient;
    private final File clusterDirectory;
    private final ClusterSecret secret;
    private final int memberId;
    private final MemberAuthenticator[] authenticators;
    private volatile boolean closed;

    private ClusterNode(final ClusteredMediaDriver driver, final ClusteredServiceContainer container,
                        final String aeronDirectory, final String ingressEndpoints, final String egressHost,
                        final AeronArchive.Context archiveClient, final File clusterDirectory,
                        final ClusterSecret secret, final int memberId, final MemberAuthenticator[] authenticators) {
        this.authenticators = authenticators;
        this.secret = secret;
        this.memberId = memberId;
        this.archiveClient = archiveClient;
        this.clusterDirectory = clusterDirectory;
        this.driver = driver;
        this.container = container;
        this.aeronDirectory = aeronDirectory;
        this.ingressEndpoints = ingressEndpoints;
        this.egressHost = egressHost;
    }

    /** Starts this member; returns once its components run (the election and the log's replay go on after). */
    public static ClusterNode launch(final ClusterConfig settings, final ClusteredService service,
                                     final ErrorHandler errors) {
        final ClusterMember[] members = settings.parsedMembers();
        final ClusterMember self = settings.self();
        final File base = settings.directory().toAbsolutePath().toFile();
        final String aeronDirectory = new File(base, "aeron").getPath();
        final String host = ClusterConfig.host(self.archiveEndpoint());
        final Supplier<IdleStrategy> idle = ClusterNode::idle;
        final int[] memberIds = settings.memberIds();
        final MemberCredentials archiveCredentials = new MemberCredentials(settings.secret(),
                ClusterSecret.Purpose.ARCHIVE, settings.memberId());

        final MediaDriver.Context driverContext = new MediaDriver.Context()
                .aeronDirectoryName(aeronDirectory)
                .threadingMode(ThreadingMode.SHARED)
                .sharedIdleStrategy(idle.get())
                .termBufferSparseFile(true)
                .dirDeleteOnStart(true)
                .dirDeleteOnShutdown(true)
                .errorHandler(errors);
        // one per component: Aeron asks its supplier once, on launch
        final MemberAuthenticator ingressAuthenticator = new MemberAuthenticator(settings.secret(),
                ClusterSecret.Purpose.INGRESS, memberIds);
        final MemberAuthenticator archiveAuthenticator = new MemberAuthenticator(settings.secret(),
                ClusterSecret.Purpose.ARCHIVE, memberIds);
        // this archive's client of another member's archive, replicating the log or a snapshot from it
        final AeronArchive.Context replicationClient = new AeronArchive.Context()
                .credentialsSupplier(archiveCredentials)
                .controlResponseChannel("aeron:udp?endpoint=" + host + ":0");
        final Archive.Context archiveContext = new Archive.Context()
                .aeronDirectoryName(aeronDirectory)
                .archiveDir(new File(base, "archive"))
                .segmentFileLength(settings.segmentBytes())
                // a CRC32C per recorded frame (in its session id field; a replay rewrites that field): after a crash
                // the archive checks the last frame of the log's newest segment, and without a checksum it takes a
                // complete frame whose bytes past a page boundary are zeros for a torn write and refuses to start
                .recordChecksum(Checksums.crc32c())
                .fileSyncLevel(settings.fsync() ? 1 : 0)
                .catalogFileSyncLevel(settings.fsync() ? 1 : 0)
                .archiveId(settings.memberId())
                .controlChannel("aeron:udp?endpoint=" + self.archiveEndpoint())
                .archiveClientContext(replicationClient)
                // every control session, local (IPC) or remote (UDP), proves it knows the cluster's secret
                .authenticatorSupplier(() -> archiveAuthenticator)
                .localControlChannel("aeron:ipc?term-length=64k")
                .replicationChannel("aeron:udp?endpoint=" + host + ":0")
                .recordingEventsEnabled(false)
                .threadingMode(ArchiveThreadingMode.SHARED)
                .idleStrategySupplier(idle)
                .errorHandler(errors);
        final AeronArchive.Context archiveClient = new AeronArchive.Context()
                .credentialsSupplier(archiveCredentials)
                .lock(NoOpLock.INSTANCE)
                .controlRequestChannel(archiveContext.localControlChannel())
                .controlRequestStreamId(archiveContext.localControlStreamId())
                .controlResponseChannel(archiveContext.localControlChannel())
                .aeronDirectoryName(aeronDirectory);
        final ConsensusModule.Context consensus = new ConsensusModule.Context()
                .clusterMemberId(settings.memberId())
                .clusterMembers(settings.members())
                .clusterDir(new File(base, "cluster"))
                .archiveContext(archiveClient.clone())
                .serviceCount(1)
                .logChannel("aeron:udp?term-length=" + settings.logTermLength())
                .ingressChannel("aeron:udp")
                // a cluster client is admitted only if it proves it knows the secret; its session is "member N"
                .authenticatorSupplier(() -> ingressAuthenticator)
                .replicationChannel("aeron:udp?endpoint=" + host + ":0")
                .clusterClock(new MicrosecondClock())
                .fileSyncLevel(settings.fsync() ? 1 : 0)
                // a failover's time is the leader timeout (detection), then the election's canvass, which waits the
                // election timeout for the dead member's vote, and a random nomination delay of up to half of it:
                // both are scaled to the leader timeout (docs/cluster.md, "Failover time")
                .leaderHeartbeatTimeoutNs(TimeUnit.MILLISECONDS.toNanos(settings.leaderTimeoutMillis()))
                .leaderHeartbeatIntervalNs(TimeUnit.MILLISECONDS.toNanos(settings.heartbeatIntervalMillis()))
                .electionTimeoutNs(TimeUnit.MILLISECONDS.toNanos(settings.electionTimeoutMillis()))
                .idleStrategySupplier(idle)
                .errorHandler(errors);
        ClusteredMediaDriver driver = null;
        try {
            driver = onceMarkFilesAreStale(() -> ClusteredMediaDriver.launch(driverContext.clone(),
                    archiveContext.clone(), consensus.clone()));
            final ClusteredServiceContainer.Context containerContext = new ClusteredServiceContainer.Context()
                    .aeronDirectoryName(aeronDirectory)
                    .archiveContext(archiveClient.clone())
                    .clusterDir(new File(base, "cluster"))
                    .clusteredService(service)
                    .serviceId(0)
                    .idleStrategySupplier(idle)
                    .errorHandler(errors);
            final ClusteredServiceContainer container = onceMarkFilesAreStale(
                    () -> ClusteredServiceContainer.launch(containerContext.clone()));
            return new ClusterNode(driver, container, aeronDirectory, ClusterMember.ingressEndpoints(members), host,
                    archiveClient, new File(base, "cluster"), settings.secret(), settings.memberId(),
                    new MemberAuthenticator[] {ingressAuthenticator, archiveAuthenticator});
        } catch (final RuntimeException e) {
            CloseHelper.quietClose(driver);
            throw e;
        }
    }

    /**
     * Launches Aeron components ({@code launch}: the driver, archive and consensus module; then the service container).
     * Aeron refuses to start while the mark files of the archive, the consensus module or the service container look
     * active, which they do for {@value #STALE_MARK_MILLIS} ms after their process died
     * (kill -9, a crash): the caller holds the directory's lock, so no live process owns them, and this waits for them
     * to go stale instead of failing a restart that comes right after a crash.
     */
    private static <T> T onceMarkFilesAreStale(final Supplier<T> launch) {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(STALE_MARK_MILLIS + 5_000);
        boolean logged = false;
        while (true) {
            try {
                return launch.get();
            } catch (final RuntimeException e) {
                if (!String.valueOf(e.getMessage()).contains("active mark file detected")
                        || System.nanoTime() - deadline > 0) {
                    throw e;
                }
                if (!logged) {
                    logged = true;
                    LOG.warn("cluster: the mark file of the process that ran this member before is still fresh ({});"
                            + " waiting for it to go stale (at most {} s)", e.getMessage(), STALE_MARK_MILLIS / 1000);
                }
                try {
                    Thread.sleep(500);
                } catch (final InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    /** @return a new context for this member's cluster client (each connection attempt takes a fresh one) */
    public AeronCluster.Context clientContext() {
        return new AeronCluster.Context()
                .aeronDirectoryName(aeronDirectory)
                .ingressChannel("aeron:udp")
                .ingressEndpoints(ingressEndpoints)
                .egressChannel("aeron:udp?endpoint=" + egressHost + ":0")
                .egressListener(new ClusterIngressStage.IgnoreEgress(memberId))
                .credentialsSupplier(new MemberCredentials(secret, ClusterSecret.Purpose.INGRESS, memberId))
                .messageTimeoutNs(TimeUnit.SECONDS.toNanos(2));
    }

    /** @return a new context for a client of this member's own archive (over IPC), for one connection */
    public AeronArchive.Context archiveClientContext() {
        return new AeronArchive.Context()
                .controlRequestChannel(archiveClient.controlRequestChannel())
                .controlRequestStreamId(archiveClient.controlRequestStreamId())
                .controlResponseChannel(archiveClient.controlResponseChannel())
                .credentialsSupplier(archiveClient.credentialsSupplier())
                .aeronDirectoryName(aeronDirectory);
    }

    /**
     * @return whether this member's consensus module takes part in a leadership term: no election going on, and its
     *         log replicated up to the point where it joined the term (a member that cannot get the log it lacks stays
     *         out); any thread
     */
    public boolean inTerm() {
        if (closed) {
            return false;   // the counters' memory goes with the driver
        }
        final Counter state = driver.consensusModule().context().electionStateCounter();
        return state != null && !state.isClosed() && state.get() == ElectionState.CLOSED.code();
    }

    /** @return the log position the cluster committed, as this member knows it; any thread */
    public long commitPosition() {
        if (closed) {
            return 0;
        }
        final Counter commit = driver.consensusModule().context().commitPositionCounter();
        return commit == null || commit.isClosed() ? 0 : commit.get();
    }

    /**
     * @return clients this member's consensus module (as leader) and archive rejected since start: they named no member,
     *         or did not prove they know the cluster's secret; any thread
     */
    public long rejectedClients() {
        long total = 0;
        for (final MemberAuthenticator each : authenticators) {
            total += each.rejected();
        }
        return total;
    }

    /** @return the consensus module's directory: the recording log (which recordings are the log and the snapshots) */
    public File clusterDirectory() {
        return clusterDirectory;
    }

    private static IdleStrategy idle() {
        return new BackoffIdleStrategy(10, 20, TimeUnit.MICROSECONDS.toNanos(1), TimeUnit.MILLISECONDS.toNanos(1));
    }

    /** Closes the service container, then the consensus module, archive and driver. */
    @Override
    public void close() {
        closed = true;
        CloseHelper.closeAll(container, driver);
    }

    /** The log's clock, in microseconds: the engine's timestamps are microseconds. */
    static final class MicrosecondClock implements ClusterClock {
        @Override
        public TimeUnit timeUnit() {
            return TimeUnit.MICROSECONDS;
        }

        @Override
        public long time() {
            return io.orderentry.journal.WallClock.currentTimeMicros();
        }
    }
}
