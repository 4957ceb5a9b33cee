package io.orderentry.app;

import com.lmax.disruptor.RingBuffer;
import io.aeron.cluster.ClusterMember;
import io.aeron.cluster.service.Cluster;
import io.orderentry.cluster.ClusterCommands;
import io.orderentry.cluster.ClusterIngressStage;
import io.orderentry.cluster.ClusterSwitchClient;
import io.orderentry.cluster.ClusterNode;
import io.orderentry.cluster.ClusterConfig;
import io.orderentry.cluster.ClusterEvents;
import io.orderentry.cluster.EngineService;
import io.orderentry.cluster.LogPurger;
import io.orderentry.cluster.LogRetention;
import io.orderentry.http.rest.InputGateway;
import io.orderentry.journal.DirectoryLock;
import io.orderentry.journal.JournalManifest;
import io.orderentry.journal.JournalRecords;
import io.orderentry.marketdata.MarketDataStage;
import io.orderentry.ops.HealthComponent;
import io.orderentry.ops.MetricsText;
import io.orderentry.ops.ServiceStatus;
import io.orderentry.pipeline.EngineEvent;
import io.orderentry.pipeline.MatcherStage;
import io.orderentry.query.OrderStateView;
import io.orderentry.snapshot.ServiceState;
import java.io.IOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiFunction;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.agrona.concurrent.AgentTerminationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cluster mode's part of the service, in place of the single node's journal and recovery: joins the cluster
 * ({@link #join}: the member directory's lock, the Aeron node with the engine as its clustered service, the ingress
 * as the input ring's consumer, then the wait for a leader), sends the configured price bands into the log, asks for
 * periodic snapshots when this member leads, purges the log no member needs, registers the {@code cluster} part of
 * {@code /ready} and the member's figures, and leaves the cluster at stop.
 *
 * <p>Threads: {@link #join} and the start's steps on the starting thread; {@link #stopJobs} and {@link #leave} on the
 * stopping one; Aeron's errors ({@code clusterError}) on Aeron's agents; the snapshot timer on
 * {@code oe-cluster-snapshots}; a snapshot request on {@code oe-cluster-snapshot-request}.
 */
final class ClusterWiring {

    /** The service's logger: its lines keep the name the logs have always shown. */
    private static final Logger LOG = LoggerFactory.getLogger(OrderEntryService.class);
    /** A member further behind the cluster's commit position than this is not ready (about 5,000 commands). */
    private static final long READY_BEHIND_BYTES = 1 << 20;

    private final Config config;
    private final ClusterConfig settings;
    private final ServiceStatus status;
    private final MetricsText metrics;
    private final PersistenceWiring persistence;
    private final MatcherStage matcherStage;
    private final OrderStateView view;
    private final MarketDataStage marketData;
    private final List<String> symbols;
    private final Map<String, Integer> symbolIndex;
    private final Runnable onFailure;
    private volatile EngineService clusterService;
    private ClusterNode clusterNode;
    private volatile ClusterIngressStage clusterIngress;
    private LogRetention logRetention;
    private LogPurger logPurger;
    private final ClusterSnapshotRequests snapshotRequests;
    private volatile String clusterFailure;
    /** Set when this member cannot catch up because the log it lacks was purged; shown by /ready. */
    private volatile String catchUpFailure;
    /** A random number per start: a restarted member answers nothing it sent before. */
    private final long incarnation = new SecureRandom().nextLong();
    private final ClusterSwitchClient switches;

    /** @param onFailure stops the process when the member's Aeron agents stop after READY (as a failed stage does) */
    ClusterWiring(final Config config, final ClusterConfig settings, final ServiceStatus status,
                  final MetricsText metrics, final PersistenceWiring persistence, final MatcherStage matcherStage,
                  final OrderStateView view, final MarketDataStage marketData, final List<String> symbols,
                  final Map<String, Integer> symbolIndex, final Runnable onFailure) {
        this.config = config;
        this.settings = settings;
        this.status = status;
        this.metrics = metrics;
        this.persistence = persistence;
        this.matcherStage = matcherStage;
        this.view = view;
        this.marketData = marketData;
        this.symbols = symbols;
        this.symbolIndex = symbolIndex;
        this.onFailure = onFailure;
        this.snapshotRequests = new ClusterSnapshotRequests(config, settings, status, persistence, this::service);
        this.switches = new ClusterSwitchClient(message -> clusterIngress != null && clusterIngress.sendSwitch(message),
                () -> clusterIngress == null ? -1 : clusterIngress.leadershipTermId(),
                () -> clusterService == null ? 0 : clusterService.switchesArmed(),
                () -> clusterService == null ? 0 : clusterService.switchesFired(), settings.memberId(), incarnation);
    }

    /** @return the dead man's switch of cluster mode: one per account for the whole cluster, kept in the log */
    ClusterSwitchClient switches() {
        return switches;
    }

    /** @return the engine as the cluster's service; null before {@link #join} */
    EngineService service() {
        return clusterService;
    }

    /**
     * Joins the cluster: this member's part of the cluster instead of the journal. The engine runs as the clustered service
     * ({@link EngineService}) on the log the cluster replicates and replays; the input ring's
     * one consumer sends each command into that log ({@link ClusterIngressStage}). Returns once the
     * member's client reaches a leader, which needs a majority of the members running, and the engine has started
     * (loaded the newest cluster snapshot, if any). Starts the input ring in between: its consumer is the ingress.
     */
    void join(final Pipeline pipeline, final RingBuffer<EngineEvent> outputRing, final BooleanSupplier aborted,
              final Consumer<DirectoryLock> lockTaken,
              final BiFunction<String, RuntimeException, RuntimeException> failStart) {
        final String[] names = symbols.toArray(String[]::new);
        final ReentrantLock outputLock = new ReentrantLock();
        final CountDownLatch engineStarted = new CountDownLatch(1);
        final Map<String, String> manifest = JournalManifest.entries(config.instruments(), config.engine());
        final ClusterSnapshots snapshots = new ClusterSnapshots(settings.directory().resolve("snapshot-staging"),
                () -> new ServiceState(matcherStage.matcher(), view, marketData),
                () -> matcherStage.matcher().lastEventSequence(), persistence::persistedSequence, symbols, manifest,
                recorded -> JournalManifest.differences(recorded, manifest));
        // one codec per thread (the service's decodes, the ingress's encodes): each keeps its own buffers
        final Supplier<ClusterCommands> codec = () -> new ClusterCommands(new JournalRecords(names, symbolIndex,
                Path.of("cluster log")));
        logRetention = new LogRetention(Arrays.stream(settings.parsedMembers()).mapToInt(ClusterMember::id).toArray(),
                settings.memberId());
        clusterService = new EngineService(matcherStage, outputLock, codec.get(), settings.memberId(), incarnation,
                engineStarted::countDown, snapshots, () -> outputRing.remainingCapacity() == outputRing.getBufferSize(),
                logRetention);
        clusterService.answerSwitchesWith(switches);
        // PostgreSQL: every member spools the same events; the leader's writer writes them, the others follow its mark
        clusterService.onRole(role -> persistence.lead(role == Cluster.Role.LEADER));
        LOG.info("cluster: starting member {} of {} in {}", settings.memberId(), settings.members(),
                settings.directory().toAbsolutePath().normalize());
        try {
            // one process per member directory; held, it also proves that Aeron's mark files there are a dead
            // process's (ClusterNode waits for them to go stale rather than refusing a restart after a crash)
            lockTaken.accept(DirectoryLock.acquire(settings.directory(), "member.lock", "cluster member directory"));
        } catch (final IOException e) {
            throw failStart.apply(e.getMessage(), new IllegalStateException(e.getMessage(), e));
        }
        try {
            clusterNode = ClusterNode.launch(settings, clusterService, this::clusterError);
        } catch (final RuntimeException e) {
            throw failStart.apply("the cluster member could not start: " + e.getMessage(), e);
        }
        clusterIngress = new ClusterIngressStage(clusterNode::clientContext, matcherStage, outputLock, codec.get(),
                settings.memberId(), incarnation, clusterService);
        pipeline.startClusterInput(clusterIngress);
        clusterIngress.start();
        long nextLog = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!clusterIngress.connected() || engineStarted.getCount() > 0) {
            if (aborted.getAsBoolean()) {
                throw new StoppedDuringStart();
            }
            if (clusterFailure != null) {
                throw failStart.apply("the cluster member stopped: " + clusterFailure,
                        new IllegalStateException("the cluster member stopped: " + clusterFailure));
            }
            if (System.nanoTime() - nextLog > 0) {
                nextLog = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                LOG.info("cluster: waiting for a leader (a majority of the {} members must run)",
                        settings.parsedMembers().length);
            }
            try {
                Thread.sleep(20);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StoppedDuringStart();
            }
        }
    }

    /** @return the command sequence of the cluster snapshot the engine loaded at its start (0: none) */
    long loadedSnapshot() {
        return clusterService.snapshotCommand();   // the one onStart loaded, if any
    }

    /**
     * Sends the configured price bands into the log: every member sends its own (the same, when the members are
     * configured alike, as they must be), so the log says from which command on a band applies.
     */
    void sendPriceBands(final InputGateway gateway) {
        for (int symbol = 0; symbol < config.instruments().size(); symbol++) {
            if (!gateway.trySetPriceBand(symbol, config.tradingRules().priceBand(symbol))) {
                LOG.warn("cluster: the price band of {} could not be sent (the input ring is full)",
                        config.instruments().get(symbol).symbol());
            }
        }
    }

    /**
     * Sends the configured fee rates into the log, with balances, as {@link #sendPriceBands} sends the bands: every
     * member its own, so the log says from which command on a rate applies (a rate equal to the engine's changes
     * nothing).
     */
    void sendFees(final InputGateway gateway) {
        if (!config.assets().balances()) {
            return;
        }
        for (int symbol = 0; symbol < config.instruments().size(); symbol++) {
            if (!gateway.trySetFees(symbol, config.assets().makerFees()[symbol], config.assets().takerFees()[symbol])) {
                LOG.warn("cluster: the fee rates of {} could not be sent (the input ring is full)",
                        config.instruments().get(symbol).symbol());
            }
        }
    }

    /** Starts the periodic snapshots: see {@link ClusterSnapshotRequests#start}. */
    void startSnapshots() {
        snapshotRequests.start();
    }

    /** What {@code POST /admin/snapshot} does in cluster mode: see {@link ClusterSnapshotRequests#request}. */
    CompletionStage<Map<String, Object>> requestSnapshot() {
        return snapshotRequests.request();
    }

    /** Purges the archived log that no member needs any more, unless {@code ORDERS_CLUSTER_PURGE_LOG=false}. */
    void startLogPurge() {
        if (settings.purgeLog()) {
            logPurger = new LogPurger(clusterNode.clusterDirectory(), clusterNode::archiveClientContext, logRetention,
                    clusterIngress, settings.memberId());
            logPurger.start();
        } else {
            LOG.info("cluster: the archived log is kept whole (ORDERS_CLUSTER_PURGE_LOG=false)");
        }
    }

    /**
     * Aeron's errors, logged; one that terminates the consensus module or the service container (its agent cannot go
     * on: a snapshot that cannot be loaded, a log this member cannot follow) stops the process, as a failed stage does,
     * rather than leaving a member that answers 503 for ever.
     */
    private void clusterError(final Throwable error) {
        final String message = String.valueOf(error.getMessage());
        // an empty member asks the others to truncate to where its log ends ("invalid position 0: start=..."); an old
        // copy asks for a replay before the start of their logs ("... is less than recording start position ...")
        if (!(error instanceof AgentTerminationException) && (message.contains("invalid position")
                && message.contains("start=") || message.contains("less than recording start position"))) {
            // Aeron repeats this as long as the member tries: say once what it means and what to do
            if (catchUpFailure == null) {
                catchUpFailure = "this member lacks log that the other members have purged (" + message.trim()
                        + "): rebuild its directory from a copy of a stopped member's (docs/cluster.md, \"Replacing a"
                        + " member's disk\")";
                LOG.error("cluster: {}", catchUpFailure);
            }
            return;
        }
        final String event = ClusterEvents.expected(error);
        if (event != null) {
            // the leader's heartbeat timed out, a quorum went inactive: what every failover and restart reports
            LOG.warn("cluster: {} (a consensus event, expected while a member stops, starts or an election runs)",
                    event);
            return;
        }
        LOG.error("cluster: {}", error.toString(), error);
        if (error instanceof AgentTerminationException && clusterFailure == null) {
            clusterFailure = error.getMessage() + (error.getCause() == null ? "" : " (" + error.getCause() + ")");
            if (status.phase() == ServiceStatus.Phase.READY) {
                status.fail("the cluster member stopped: " + clusterFailure);
                onFailure.run();
            }
        }
    }

    /** Registers the {@code cluster} part of {@code /ready} and the member's figures. */
    void register() {
        final ClusterIngressStage ingress = clusterIngress;
        final EngineService service = clusterService;
        final ClusterNode node = clusterNode;
        final int members = settings.parsedMembers().length;
        status.addComponent(() -> {
            final Map<String, Object> details = new LinkedHashMap<>();
            final boolean inTerm = node.inTerm();
            final long behind = bytesBehind(node, service);
            details.put("memberId", settings.memberId());
            details.put("role", service.role().name());
            details.put("connectedToLeader", ingress.connected());
            details.put("inTerm", inTerm);
            details.put("appliedCommands", service.appliedCommands());
            details.put("logBytesBehind", behind);
            final String catchUp = catchUpFailure;
            if (catchUp != null && !inTerm) {
                details.put("failure", catchUp);
            }
            // a member serves once it is in the leader's term and has applied the log up to about where the cluster
            // is: not while it replays or catches up after a start, nor when it cannot get the log it lacks
            return new HealthComponent("cluster", ingress.connected() && inTerm && behind <= READY_BEHIND_BYTES,
                    details);
        });
        metrics.gauge("orders_cluster_connected", "1 while this member's client reaches a leader (orders can be sent)",
                () -> ingress.connected() ? 1 : 0);
        metrics.gauge("orders_cluster_leader", "1 while this member leads the cluster",
                () -> service.role() == Cluster.Role.LEADER ? 1 : 0);
        // where each member stands, for a dashboard of the cluster and its alerts (no leader, a member out of the term,
        // behind the commit): Prometheus tells the members apart by their scrape target
        for (final Cluster.Role each : Cluster.Role.values()) {
            metrics.gauge("orders_cluster_role", "1 for this member's role in the cluster, 0 for the others",
                    "role=\"" + each.name() + "\"", () -> service.role() == each ? 1 : 0);
        }
        metrics.gauge("orders_cluster_member_id", "This member's id (ORDERS_CLUSTER_MEMBER_ID)", settings::memberId);
        metrics.gauge("orders_cluster_members", "Members in the cluster's member list (ORDERS_CLUSTER_MEMBERS)",
                () -> members);
        metrics.gauge("orders_cluster_leader_member_id", "The leader of the newest leadership term this member applied"
                + " (-1: none yet)", service::leaderMemberId);
        metrics.gauge("orders_cluster_leadership_term_id", "The newest leadership term this member applied (-1: none"
                + " yet); every election that elects a leader starts one", service::leadershipTermId);
        metrics.gauge("orders_cluster_in_term", "1 while this member takes part in a leadership term: no election going"
                + " on and the log replicated up to where it joined", () -> node.inTerm() ? 1 : 0);
        metrics.gauge("orders_cluster_commit_position", "The log position the cluster committed, as this member knows"
                + " it", node::commitPosition);
        metrics.gauge("orders_cluster_applied_position", "The log position up to which this member's engine applied"
                + " the log", service::appliedPosition);
        metrics.gauge("orders_cluster_log_bytes_behind", "Committed log this member's engine has not applied yet, in"
                + " bytes (/ready holds a member back while it is far behind)",
                () -> bytesBehind(node, service));
        metrics.counter("orders_cluster_commands_sent_total", "Commands this member sent into the cluster's log",
                ingress::sent);
        metrics.counter("orders_cluster_commands_refused_total", "Commands answered 503 because they could not be sent"
                + " (no leader, or pushed back too long)", ingress::refused);
        metrics.counter("orders_cluster_connects_total", "Connections of this member's client to a leader",
                ingress::connects);
        metrics.gauge("orders_cluster_applied_commands", "Commands of the log this member's engine applied since start",
                service::appliedCommands);
        metrics.counter("orders_cluster_lost_commands_total", "Commands this member sent that a leader change lost"
                + " before they were committed (answered 503 JOURNAL_UNAVAILABLE: not executed)", service::lostCommands);
        metrics.counter("orders_cluster_undecodable_total", "Log messages skipped because they could not be decoded",
                service::undecodable);
        metrics.counter("orders_cluster_forged_keep_from_total", "keepFrom messages ignored because the session that"
                + " sent them is not the member they name", service::forgedKeepFrom);
        metrics.counter("orders_cluster_rejected_clients_total", "Clients of this member's cluster ingress or archive"
                + " rejected: they named no member or did not prove they know the cluster's secret",
                node::rejectedClients);
        final LogRetention retention = logRetention;
        metrics.gauge("orders_cluster_log_floor", "Log position before which no member needs the log (-1: not every"
                + " member has said where it keeps its log from since this one started)", retention::floor);
        final LogPurger purger = logPurger;
        if (purger != null) {
            metrics.gauge("orders_cluster_log_start_position", "Where this member's archived log starts (-1: not looked"
                    + " yet); it moves forward as the purge deletes what no member needs", purger::logStart);
            metrics.counter("orders_cluster_log_purged_bytes_total", "Bytes of the archived log this member deleted",
                    purger::purgedBytes);
            metrics.counter("orders_cluster_snapshots_purged_total", "Snapshot recordings this member deleted (older"
                    + " than its second newest snapshot)", purger::purgedSnapshots);
            metrics.counter("orders_cluster_log_purge_failures_total", "Rounds of the log purge that failed (logged;"
                    + " tried again)", purger::failures);
        }
        metrics.counter("orders_http_answers_timed_out_total", "Requests answered 503 OUTCOME_UNKNOWN because their"
                + " command did not come back from the log in time", status::answersTimedOut);
        metrics.counter("orders_http_late_answers_total", "Engine answers dropped because their request had already"
                + " been answered 503 OUTCOME_UNKNOWN", status::lateAnswers);
    }

    /** @return committed log this member's engine has not applied yet, in bytes: what {@code /ready} and the figure say */
    private static long bytesBehind(final ClusterNode node, final EngineService service) {
        return Math.max(0, node.commitPosition() - service.appliedPosition());
    }

    /** Stops the snapshot timer and the log purge: first in the stop, as they ask the cluster for work. */
    void stopJobs() {
        snapshotRequests.stop();
        if (logPurger != null) {
            logPurger.close();
        }
    }

    /** @return true once the Aeron node runs, so that a stop must leave the cluster */
    boolean launched() {
        return clusterNode != null;
    }

    /** Stops taking part in the cluster: the ingress, then the node (after the answers were written). */
    void leave() {
        switches.close();
        clusterIngress.close();
        clusterNode.close();
        LOG.info("cluster: member left the cluster");
    }
}
