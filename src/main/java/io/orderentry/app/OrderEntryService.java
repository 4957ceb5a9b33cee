package io.orderentry.app;

import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.WaitStrategy;
import com.lmax.disruptor.dsl.Disruptor;
import com.lmax.disruptor.dsl.ProducerType;
import io.aeron.cluster.ClusterMember;
import io.aeron.cluster.ClusterTool;
import io.aeron.cluster.service.Cluster;
import io.orderentry.account.AccountFeeds;
import io.orderentry.audit.AuditHandler;
import io.orderentry.audit.AuditTrail;
import io.orderentry.cluster.ClusterCommands;
import io.orderentry.cluster.ClusterIngress;
import io.orderentry.cluster.ClusterNode;
import io.orderentry.cluster.ClusterSettings;
import io.orderentry.cluster.EngineService;
import io.orderentry.cluster.LogPurger;
import io.orderentry.cluster.LogRetention;
import io.orderentry.config.ConfigException;
import io.orderentry.engine.CommandResult;
import io.orderentry.engine.MarketBandRule;
import io.orderentry.engine.Matcher;
import io.orderentry.engine.OrderStatus;
import io.orderentry.http.HealthComponent;
import io.orderentry.http.InputGateway;
import io.orderentry.http.Json;
import io.orderentry.http.MetricsText;
import io.orderentry.http.ReplyStage;
import io.orderentry.http.ServiceStatus;
import io.orderentry.http.StreamFanOut;
import io.orderentry.http.StreamMetrics;
import io.orderentry.instrument.Instrument;
import io.orderentry.instrument.TradingRules;
import io.orderentry.journal.DirectoryLock;
import io.orderentry.journal.JournalRecovery;
import io.orderentry.journal.JournalHandler;
import io.orderentry.journal.JournalManifest;
import io.orderentry.journal.JournalRecords;
import io.orderentry.journal.JournalWriter;
import io.orderentry.journal.WallClock;
import io.orderentry.marketdata.MarketDataStage;
import io.orderentry.persistence.PersistenceService;
import io.orderentry.pipeline.EngineEvent;
import io.orderentry.pipeline.MatcherMetrics;
import io.orderentry.pipeline.MatcherStage;
import io.orderentry.pipeline.OrderCommand;
import io.orderentry.pipeline.RingShutdown;
import io.orderentry.query.OrderStateView;
import io.orderentry.snapshot.ServiceState;
import io.orderentry.snapshot.SnapshotConfig;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.agrona.concurrent.AgentTerminationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wires the pipeline and owns its life: startup, recovery and shutdown, in that order.
 *
 * The consumer graph of both rings is {@link Pipeline}.
 *
 * Startup: the HTTP port opens first so that {@code /health} and {@code /ready} answer (503 while
 * recovering); then the journal is replayed through the matcher into the output ring; once every
 * consumer has caught up the input ring starts and orders are accepted. Shutdown reverses it.
 */
public final class OrderEntryService {

    private static final Logger LOG = LoggerFactory.getLogger(OrderEntryService.class);
    /** The longest one step of a stop may take: a ring's drain, the answers' writing, the recovery's abort. */
    private static final long STOP_STEP_MILLIS = 10_000;
    /**
     * The whole stop, from the signal to the last snapshot, within this: every step takes at most what is left of it
     * (and at least {@link #MIN_STOP_STEP_MILLIS}), so the worst case is this plus one such minimum per step, 45 s,
     * under compose's {@code stop_grace_period} (60 s) and so never cut short by a SIGKILL.
     */
    static final long STOP_BUDGET_MILLIS = 38_000;
    /** What a step of the stop gets even when the budget is spent, so that no step is skipped outright. */
    static final long MIN_STOP_STEP_MILLIS = 1_000;
    /** The steps of a stop that wait: see {@link #stop}. */
    static final int STOP_STEPS = 7;
    /** How long a halted ring's stage threads may take to leave their batch. */
    private static final long STAGE_JOIN_MILLIS = 5_000;
    private final List<Thread> inputThreads = new CopyOnWriteArrayList<>();
    private volatile boolean starting;
    private volatile boolean abortStart;
    private volatile Thread startThread;
    private final CountDownLatch startEnded = new CountDownLatch(1);
    private final List<Thread> outputThreads = new CopyOnWriteArrayList<>();
    /** Longest a graceful stop waits for the final snapshot. */
    private static final long SNAPSHOT_STOP_MILLIS = 20_000;

    private final Config config;
    private final ServiceStatus status = new ServiceStatus();
    private final MetricsText metrics = new MetricsText();
    private final MatcherMetrics matcherMetrics = new MatcherMetrics();
    private final StreamMetrics streamMetrics = new StreamMetrics();

    private HttpWiring http;
    private Disruptor<EngineEvent> output;
    private Disruptor<OrderCommand> input;
    private DirectoryLock journalLock;
    private JournalWriter journal;
    private OrderStateView view;
    private AuditHandler audit;
    private AuditTrail auditTrail;
    private InputGateway gateway;
    private MarketDataStage marketData;
    private AccountFeeds orderFeeds;
    private StreamFanOut streamFanOut;
    private final SnapshotWiring snapshots;
    private AuditWiring auditWiring;
    private JournalWiring journalWiring;
    private Map<String, Integer> symbolIndex;
    private volatile long recoveredFromSnapshot;
    private volatile long replayedRecords;
    private MatcherStage matcherStage;
    private ClusterNode clusterNode;
    private ClusterIngress clusterIngress;
    private EngineService clusterService;
    private LogRetention logRetention;
    private LogPurger logPurger;
    private volatile String clusterFailure;
    /** Set when this member cannot catch up because the log it lacks was purged; shown by /ready. */
    private volatile String catchUpFailure;
    /** A member further behind the cluster's commit position than this is not ready (about 5,000 commands). */
    private static final long READY_BEHIND_BYTES = 1 << 20;
    private ScheduledExecutorService clusterSnapshotTimer;
    private PersistenceWiring persistence;
    private volatile boolean stopped;

    public OrderEntryService(final Config config) {
        this.config = config;
        this.snapshots = new SnapshotWiring(config, status, metrics);
    }

    /** Starts everything and returns once orders are accepted; throws if recovery fails. */
    public void start() {
        startThread = Thread.currentThread();
        starting = true;
        try {
            startUp();
        } finally {
            starting = false;
            startEnded.countDown();
        }
    }

    /**
     * Thrown out of {@link #start} when {@link #stop} is called while the journal is being replayed: the replay stops
     * at its next record and the stop then drains and closes what recovery opened. Nothing is lost: the journal is
     * only read during the replay, and the next start replays it again.
     */
    public static final class StoppedDuringStart extends RuntimeException {
        private static final long serialVersionUID = 1L;

        StoppedDuringStart() {
            super("stopped during recovery");
        }
    }

    private void startUp() {
        final long started = System.nanoTime();
        final String memory = HeapSizing.warning(config, Runtime.getRuntime().maxMemory());
        if (memory != null) {
            LOG.warn(memory);
        }
        LOG.info("starting: journal {} (sync {}), audit {} (sync {}), instruments {}, input ring {}, output ring {},"
                + " wait strategy {}", config.journalDir().toAbsolutePath().normalize(), config.journalSync(),
                config.audit().directory().toAbsolutePath().normalize(), config.audit().sync(), symbols(),
                config.inputRingSize(), config.outputRingSize(), config.waitStrategy());

        try {
            auditWiring = AuditWiring.open(config, status, metrics);
        } catch (final IOException e) {
            throw failStart("the audit trail cannot be opened: " + e.getMessage(),
                    new IllegalStateException("the audit trail cannot be opened: " + e.getMessage(), e));
        }
        auditTrail = auditWiring.trail();
        view = new OrderStateView(config.retainedFinalOrders(), config.engineLimits().dedupWindow());
        audit = new AuditHandler(auditTrail, status::auditFailed, status::auditResumed, view::holdsOnApplyingThread);
        persistence = PersistenceWiring.open(config, status, metrics);
        final ReplyStage replies = new ReplyStage(view, config.httpInstances());
        orderFeeds = new AccountFeeds(view, Json.orderFeedRenderer(config.instruments()));
        marketData = new MarketDataStage(config.instruments().size(), config.httpInstances(), config.marketData());
        streamFanOut = new StreamFanOut(config.instruments(), config.httpInstances(), streamMetrics,
                config.marketData().fanOutCpuPercent());
        marketData.register(streamFanOut);
        // Two producers, one after the other: the recovering thread replays the journal into this ring,
        // then the matcher thread takes over. MULTI makes that hand-over legal for the sequencer.
        final WaitStrategy outputWait = WaitStrategies.of(config.waitStrategy());
        output = new Disruptor<>(EngineEvent::new, config.outputRingSize(), ServiceThreads.stages("out", outputThreads), ProducerType.MULTI,
                outputWait);
        output.setDefaultExceptionHandler(new FailFastHandler<>("output", status, this::stopFromFailure));
        Pipeline.wireOutput(output, view, audit, replies, orderFeeds, marketData, persistence.stage());
        final RingBuffer<EngineEvent> outputRing = output.start();

        matcherStage = new MatcherStage(sink -> new Matcher(config.instruments().size(), config.engineLimits(), sink),
                outputRing, matcherMetrics);
        final WaitStrategy inputWait = WaitStrategies.of(config.waitStrategy());
        input = new Disruptor<>(OrderCommand::new, config.inputRingSize(), ServiceThreads.stages("in", inputThreads), ProducerType.MULTI,
                inputWait);
        input.setDefaultExceptionHandler(new FailFastHandler<>("input", status, this::stopFromFailure));

        gateway = new InputGateway(input.getRingBuffer(), config.httpLimits().refusalsAuditedPerSecond());
        http = new HttpWiring(config, status, metrics, streamMetrics);
        http.start(view, replies, gateway, marketData, streamFanOut, orderFeeds, this::snapshotNow);
        if (config.cluster().isPresent()) {
            startCluster(config.cluster().get(), outputRing, inputWait, started);
            return;
        }
        symbolIndex = symbolIndex(config);
        final SingleNodeRecovery recovering = new SingleNodeRecovery(config, symbols(), symbolIndex, auditTrail,
                persistence, matcherStage, view, marketData, () -> abortStart, lock -> journalLock = lock);
        final JournalRecovery recovery = recover(recovering);
        matcherStage.replayCompleted(recovery.lastSequence());
        recovering.awaitConsumers(outputRing);
        persistence.start(matcherStage.matcher().lastEventSequence());

        try {
            journalWiring = JournalWiring.open(config, status, metrics, symbols(), recovery);
        } catch (final IOException e) {
            throw failStart("the journal cannot be opened for writing: " + e.getMessage(),
                    new UncheckedIOException("the journal cannot be opened for writing", e));
        }
        journal = journalWiring.writer();
        final JournalHandler journalHandler = new JournalHandler(journal, input.getRingBuffer(),
                WallClock::currentTimeMicros);
        Pipeline.wireInput(input, inputWait, journalHandler, matcherStage);
        final int[] bandChanges = recovering.priceBandChanges();   // read before the matcher thread owns the engine
        input.start();
        journalPriceBandChanges(bandChanges);
        snapshots.start(symbolIndex, journal::lastSequence, persistence::persistedSequence);
        auditWiring.startArchiving();
        journalWiring.register();
        registerHealthAndMetrics(outputRing);
        journalWiring.registerRejections(journalHandler);
        streamMetrics.register(metrics, marketData.view(), marketData.subscribers(), orderFeeds);
        status.phase(ServiceStatus.Phase.READY);
        LOG.info("ready: accepting orders on {}:{} after {} ms; next order id {}, next trade id {}",
                config.httpHost(), config.httpPort(), (System.nanoTime() - started) / 1_000_000,
                matcherStage.matcher().lastOrderId() + 1, matcherStage.matcher().lastTradeId() + 1);
    }

    /**
     * Cluster mode: this member's part of the cluster instead of the journal. The engine runs as the clustered service
     * ({@link EngineService}) on the log the cluster replicates and replays; the input ring's
     * one consumer sends each command into that log ({@link ClusterIngress}). READY once the
     * member's client reaches a leader, which needs a majority of the members running.
     */
    private void startCluster(final ClusterSettings settings,
                              final RingBuffer<EngineEvent> outputRing, final WaitStrategy inputWait,
                              final long started) {
        symbolIndex = symbolIndex(config);
        final String[] names = config.instruments().stream().map(Instrument::symbol).toArray(String[]::new);
        final long incarnation = new SecureRandom().nextLong();
        final ReentrantLock outputLock = new ReentrantLock();
        final CountDownLatch engineStarted = new CountDownLatch(1);
        final Map<String, String> manifest = JournalManifest.entries(config.instruments(), config.engineLimits());
        final ClusterSnapshots snapshots = new ClusterSnapshots(settings.directory().resolve("snapshot-staging"),
                () -> new ServiceState(matcherStage.matcher(), view, marketData),
                () -> matcherStage.matcher().lastEventSequence(), persistence::persistedSequence, symbols(), manifest,
                recorded -> JournalManifest.differences(recorded, manifest));
        // one codec per thread (the service's decodes, the ingress's encodes): each keeps its own buffers
        final Supplier<ClusterCommands> codec = () -> new ClusterCommands(new JournalRecords(names, symbolIndex,
                Path.of("cluster log")));
        logRetention = new LogRetention(Arrays.stream(settings.parsedMembers()).mapToInt(ClusterMember::id).toArray(),
                settings.memberId());
        clusterService = new EngineService(matcherStage, outputLock, codec.get(), settings.memberId(), incarnation,
                engineStarted::countDown, snapshots, () -> outputRing.remainingCapacity() == outputRing.getBufferSize(),
                logRetention);
        // PostgreSQL: every member spools the same events; the leader's writer writes them, the others follow its mark
        clusterService.onRole(role -> persistence.lead(role == Cluster.Role.LEADER));
        LOG.info("cluster: starting member {} of {} in {}", settings.memberId(), settings.members(),
                settings.directory().toAbsolutePath().normalize());
        try {
            // one process per member directory; held, it also proves that Aeron's mark files there are a dead
            // process's (ClusterNode waits for them to go stale rather than refusing a restart after a crash)
            journalLock = DirectoryLock.acquire(settings.directory(), "member.lock", "cluster member directory");
        } catch (final IOException e) {
            throw failStart(e.getMessage(), new IllegalStateException(e.getMessage(), e));
        }
        try {
            clusterNode = ClusterNode.launch(settings, clusterService, this::clusterError);
        } catch (final RuntimeException e) {
            throw failStart("the cluster member could not start: " + e.getMessage(), e);
        }
        clusterIngress = new ClusterIngress(clusterNode::clientContext, matcherStage, outputLock, codec.get(),
                settings.memberId(), incarnation, clusterService);
        Pipeline.wireClusterInput(input, inputWait, clusterIngress);
        input.start();
        clusterIngress.start();
        long nextLog = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!clusterIngress.connected() || engineStarted.getCount() > 0) {
            if (abortStart) {
                throw new StoppedDuringStart();
            }
            if (clusterFailure != null) {
                throw failStart("the cluster member stopped: " + clusterFailure,
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
        recoveredFromSnapshot = clusterService.snapshotCommand();   // the one onStart loaded, if any
        // the log's end is not known here (the members replay it as it comes); the writer compares the spool's progress
        persistence.start(0);
        // the configured bands, as commands in the log: every member sends its own (the same, when the members are
        // configured alike, as they must be), so the log says from which command on a band applies
        for (int symbol = 0; symbol < config.instruments().size(); symbol++) {
            if (!gateway.trySetPriceBand(symbol, config.tradingRules().priceBand(symbol))) {
                LOG.warn("cluster: the price band of {} could not be sent (the input ring is full)",
                        config.instruments().get(symbol).symbol());
            }
        }
        auditWiring.startArchiving();
        startClusterSnapshots(settings);
        if (settings.purgeLog()) {
            logPurger = new LogPurger(clusterNode.clusterDirectory(), clusterNode::archiveClientContext, logRetention,
                    clusterIngress, settings.memberId());
            logPurger.start();
        } else {
            LOG.info("cluster: the archived log is kept whole (ORDERS_CLUSTER_PURGE_LOG=false)");
        }
        registerCluster(settings);
        registerHealthAndMetrics(outputRing);
        streamMetrics.register(metrics, marketData.view(), marketData.subscribers(), orderFeeds);
        status.phase(ServiceStatus.Phase.READY);
        LOG.info("ready: member {} accepting orders on {}:{} after {} ms", settings.memberId(), config.httpHost(),
                config.httpPort(), (System.nanoTime() - started) / 1_000_000);
    }

    /**
     * Snapshots by count and by time, as a single node writes them ({@code ORDERS_SNAPSHOT_EVERY_COMMANDS},
     * {@code ORDERS_SNAPSHOT_INTERVAL_SECONDS}): each member checks once a second, and the one that leads asks the
     * cluster for one, which every member then takes at the same log position.
     */
    private void startClusterSnapshots(final ClusterSettings settings) {
        final SnapshotConfig snapshots = config.snapshots();
        if (!snapshots.enabled() || snapshots.everyCommands() == 0 && snapshots.intervalMillis() == 0) {
            LOG.info("cluster: no periodic snapshots ({}); POST /admin/snapshot on the leader takes one",
                    snapshots.enabled() ? "every.commands and interval.seconds are 0" : "ORDERS_SNAPSHOT_ENABLED=false");
            return;
        }
        final EngineService service = clusterService;
        final AtomicBoolean asked = new AtomicBoolean();
        final long[] lastAskedNanos = {System.nanoTime()};
        final String[] held = {null};
        clusterSnapshotTimer = Executors.newSingleThreadScheduledExecutor(ServiceThreads.daemon("oe-cluster-snapshots"));
        clusterSnapshotTimer.scheduleWithFixedDelay(() -> {
            if (service.role() != Cluster.Role.LEADER || asked.get()) {
                return;
            }
            final long since = service.appliedCommands() - service.snapshotCommand();
            final boolean byCount = snapshots.everyCommands() > 0 && since >= snapshots.everyCommands();
            final boolean byTime = snapshots.intervalMillis() > 0 && since > 0
                    && System.nanoTime() - lastAskedNanos[0] >= TimeUnit.MILLISECONDS.toNanos(snapshots.intervalMillis());
            if (!byCount && !byTime) {
                return;
            }
            final String hold = persistence.snapshotHold();
            if (hold != null) {
                if (!hold.equals(held[0])) {
                    LOG.info("cluster: the periodic snapshot waits: {}", hold);
                }
                held[0] = hold;
                return;
            }
            held[0] = null;
            asked.set(true);
            lastAskedNanos[0] = System.nanoTime();
            clusterSnapshotNow(settings).whenComplete((details, failure) -> {
                asked.set(false);
                if (failure != null) {
                    LOG.warn("cluster: the periodic snapshot ({} commands since the last) failed: {}", since,
                            failure.toString());
                }
            });
        }, 1, 1, TimeUnit.SECONDS);
        LOG.info("cluster: the leader asks for a snapshot every {} commands{}",
                snapshots.everyCommands() == 0 ? "(off)" : snapshots.everyCommands(),
                snapshots.intervalMillis() == 0 ? "" : " or " + snapshots.intervalMillis() / 1000 + " s");
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
        LOG.error("cluster: {}", error.toString(), error);
        if (error instanceof AgentTerminationException && clusterFailure == null) {
            clusterFailure = error.getMessage() + (error.getCause() == null ? "" : " (" + error.getCause() + ")");
            if (status.phase() == ServiceStatus.Phase.READY) {
                status.fail("the cluster member stopped: " + clusterFailure);
                stopFromFailure();
            }
        }
    }

    private void registerCluster(final ClusterSettings settings) {
        final ClusterIngress ingress = clusterIngress;
        final EngineService service = clusterService;
        final ClusterNode node = clusterNode;
        status.addComponent(() -> {
            final Map<String, Object> details = new LinkedHashMap<>();
            final boolean inTerm = node.inTerm();
            final long behind = Math.max(0, node.commitPosition() - service.appliedPosition());
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

    /**
     * Journals each band change as a command ahead of any order (HTTP still answers 503 until READY), so that the
     * journal says from which command on a band applied and a replay applies it there.
     */
    private void journalPriceBandChanges(final int[] changes) {
        for (int symbol = 0; symbol < changes.length; symbol++) {
            if (changes[symbol] < 0) {
                continue;
            }
            if (!gateway.trySetPriceBand(symbol, changes[symbol])) {
                throw failStart("the input ring is full at start; the price band change could not be journaled",
                        new IllegalStateException("the input ring is full at start"));
            }
            LOG.info("price band of {}: {}% from now on, MARKET orders trading inside both of its edges ({};"
                            + " journaled)", config.instruments().get(symbol).symbol(),
                    TradingRules.percent(changes[symbol]), MarketBandRule.CURRENT);
        }
    }

    /** Runs the single node's recovery; a failure fails the start. */
    private JournalRecovery recover(final SingleNodeRecovery recovering) {
        final JournalRecovery recovery;
        try {
            recovery = recovering.replay();
        } catch (final ConfigException e) {
            throw failStart(e.getMessage(), e);
        } catch (final IOException e) {
            throw failStart("journal recovery failed: " + e.getMessage(),
                    new IllegalStateException("journal recovery failed: " + e.getMessage(), e));
        }
        recoveredFromSnapshot = recovering.recoveredFromSnapshot();
        replayedRecords = recovering.replayedRecords();
        return recovery;
    }

    /**
     * The one way a start fails: says why in {@code /ready} and {@code /health}, stops what the start opened so far
     * (the stop skips what was not opened), and returns {@code thrown} for the start to throw, which {@code Main}
     * logs and exits on (2 for a {@link ConfigException}, else 1). Calling it from the starting thread is safe: the
     * stop does not wait for the start it is called from.
     */
    private RuntimeException failStart(final String reason, final RuntimeException thrown) {
        status.fail(reason);
        stop();
        return thrown;
    }

    /**
     * Stops accepting, drains both rings so every accepted command is journaled, executed and answered,
     * then closes the journal and the HTTP server. Safe to call more than once.
     */
    public synchronized void stop() {
        if (stopped) {
            return;
        }
        stopped = true;
        // the steps that wait, each bounded by what is left of the budget (STOP_STEPS counts them): the recovery's
        // abort, the input ring (drain, then its stages' join), the output ring (the same), the answers, persistence,
        // the final snapshot, the HTTP server
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(STOP_BUDGET_MILLIS);
        abortStart = true;
        if (starting && Thread.currentThread() != startThread) {
            LOG.info("stopping during recovery: the replay stops at its next record");
            try {
                if (!startEnded.await(millisLeft(deadline, STOP_STEP_MILLIS), TimeUnit.MILLISECONDS)) {
                    LOG.warn("recovery did not stop in time; stopping anyway");
                }
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        LOG.info("stopping: refusing new orders, draining the rings (at most {} s in all)", STOP_BUDGET_MILLIS / 1000);
        status.phase(ServiceStatus.Phase.STOPPING);
        if (http != null) {
            http.closeDeadMansSwitch();   // a stopping service takes no more commands, so no switch fires from here on
        }
        if (gateway != null) {
            // a request that passed the readiness check just before STOPPING may still be publishing: wait for it, and
            // refuse any later one, so that the drain below answers everything the ring took
            gateway.close();
        }
        boolean stagesStopped = true;
        if (input != null && input.hasStarted()) {
            stagesStopped = RingShutdown.drainOrHalt(input, "input", inputThreads,
                    millisLeft(deadline, STOP_STEP_MILLIS), millisLeft(deadline, STAGE_JOIN_MILLIS));
        }
        if (clusterSnapshotTimer != null) {
            clusterSnapshotTimer.shutdownNow();
        }
        if (logPurger != null) {
            logPurger.close();
        }
        if (clusterNode != null) {
            // what the input ring sent is answered through the log: wait for it, then stop taking part in the cluster
            // before the output ring drains (the engine publishes into it)
            awaitAnswersWritten(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millisLeft(deadline,
                    STOP_STEP_MILLIS)));
            clusterIngress.close();
            clusterNode.close();
            LOG.info("cluster: member left the cluster");
        }
        if (output != null && output.hasStarted()) {
            stagesStopped &= RingShutdown.drainOrHalt(output, "output", outputThreads,
                    millisLeft(deadline, STOP_STEP_MILLIS), millisLeft(deadline, STAGE_JOIN_MILLIS));
        }
        awaitAnswersWritten(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millisLeft(deadline, STOP_STEP_MILLIS)));
        if (persistence != null) {
            persistence.stop(millisLeft(deadline, PersistenceService.STOP_WAIT_MILLIS));
        }
        if (!stagesStopped) {
            // a stage thread is still inside a batch (a write or force that does not return): closing the journal or
            // the audit trail under it could cut a record in half; the process exits and recovery reads what is there
            LOG.error("stopped without closing the journal and the audit trail: a stage thread did not stop; the next"
                    + " start recovers them as after a crash");
            auditWiring = null;
            journalWiring = null;
        }
        if (auditWiring != null) {
            auditWiring.close();
        }
        if (journalWiring != null) {
            journalWiring.close();
        }
        snapshots.close(millisLeft(deadline, SNAPSHOT_STOP_MILLIS));
        if (auditWiring != null) {
            auditWiring.stopArchiving();
        }
        if (http != null) {
            http.closeAuth();
        }
        if (journalLock != null) {
            try {
                journalLock.close();
            } catch (final IOException e) {
                LOG.error("releasing the journal lock failed", e);
            }
        }
        if (http != null) {
            http.closeServer(millisLeft(deadline, STOP_STEP_MILLIS));
        }
        metrics.close();
        LOG.info("stopped");
    }

    /**
     * @return the milliseconds of the stop's budget left before {@code deadline}, at most {@code most}, at least
     *     {@link #MIN_STOP_STEP_MILLIS}
     */
    static long millisLeft(final long deadline, final long most) {
        return Math.max(MIN_STOP_STEP_MILLIS,
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

    /** @return the stream's fan-out, for tests and embedding */
    public StreamFanOut streamFanOut() {
        return streamFanOut;
    }

    /** @return the lifecycle state, for tests and embedding */
    public ServiceStatus status() {
        return status;
    }

    /** @return instrument symbol to engine index */
    static Map<String, Integer> symbolIndex(final Config config) {
        final Map<String, Integer> index = new HashMap<>();
        for (final Instrument instrument : config.instruments()) {
            index.put(instrument.symbol(), instrument.index());
        }
        return index;
    }

    /** What {@code POST /admin/snapshot} does. */
    private CompletionStage<Map<String, Object>> snapshotNow() {
        if (config.cluster().isPresent()) {
            return clusterSnapshotNow(config.cluster().get());
        }
        return snapshots.request();
    }

    /**
     * Cluster mode: asks the consensus module for a cluster snapshot (Aeron's control toggle, as its {@code ClusterTool
     * snapshot} does), which every member then takes at the same log position; only the leader's toggle counts.
     */
    private CompletionStage<Map<String, Object>> clusterSnapshotNow(final ClusterSettings settings) {
        final EngineService service = clusterService;
        if (service == null || status.phase() != ServiceStatus.Phase.READY) {
            return CompletableFuture.failedFuture(new IllegalStateException("the service is not ready"));
        }
        if (service.role() != Cluster.Role.LEADER) {
            return CompletableFuture.failedFuture(new IllegalStateException("only the cluster's leader takes a snapshot:"
                    + " ask the member whose /metrics has orders_cluster_leader 1"));
        }
        return CompletableFuture.supplyAsync(() -> {
            // the database's next batch is at most 100 ms away: wait for it a little before refusing
            final long holdDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
            String hold = persistence.snapshotHold();
            while (hold != null && System.nanoTime() < holdDeadline) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
                hold = persistence.snapshotHold();
            }
            if (hold != null) {
                throw new IllegalStateException("not now: " + hold + ". A member restarted from a cluster snapshot"
                        + " replays only the log after it, so the database must hold the events before it; try again"
                        + " once /ready's persistence lag is small");
            }
            final ByteArrayOutputStream said = new ByteArrayOutputStream();
            final boolean taken;
            try (PrintStream out = new PrintStream(said, true, StandardCharsets.UTF_8)) {
                taken = ClusterTool.snapshot(settings.directory().resolve("cluster").toAbsolutePath()
                        .toFile(), out);
            }
            final String text = said.toString(StandardCharsets.UTF_8).strip();
            if (!taken) {
                throw new IllegalStateException("the cluster did not take the snapshot: " + text);
            }
            final Map<String, Object> body = new LinkedHashMap<>();
            body.put("cluster", true);
            body.put("commandSequence", service.snapshotCommand());   // the snapshot's, taken by now
            body.put("detail", text);
            return body;
        }, task -> {
            // a thread of its own: the request waits for the database (up to 3 s) and for Aeron's answer, and is rare
            final Thread thread = new Thread(task, "oe-cluster-snapshot-request");
            thread.setDaemon(true);
            thread.start();
        });
    }

    private void registerHealthAndMetrics(final RingBuffer<EngineEvent> outputRing) {
        final RingBuffer<OrderCommand> inputRing = input.getRingBuffer();
        metrics.gauge("orders_input_ring_remaining", "Free slots in the input ring", inputRing::remainingCapacity);
        metrics.gauge("orders_output_ring_remaining", "Free slots in the output ring", outputRing::remainingCapacity);
        metrics.counter("orders_matcher_commands_total", "Commands executed by the matcher since start",
                matcherMetrics::commands);
        metrics.counter("orders_matcher_service_seconds_total", "Matcher service time since start",
                () -> matcherMetrics.serviceNanos() / 1e9);
        metrics.gauge("orders_matcher_service_max_seconds", "Longest single command service time",
                () -> matcherMetrics.maxServiceNanos() / 1e9);
        for (final CommandResult result : CommandResult.values()) {
            metrics.counter("orders_commands_total", "Commands by engine result, replayed ones included",
                    "result=\"" + result.name() + "\"", () -> matcherMetrics.results(result));
        }
        for (final OrderStatus orderStatus : OrderStatus.values()) {
            metrics.counter("orders_order_outcomes_total", "Order states reported at the end of a command",
                    "status=\"" + orderStatus.name() + "\"", () -> matcherMetrics.statuses(orderStatus));
        }
        metrics.counter("orders_trades_total", "Trades executed, replayed ones included", matcherMetrics::trades);
        metrics.gauge("orders_http_waiting_requests", "Requests published and waiting for the engine",
                status::waitingRequests);
        metrics.gauge("orders_view_orders", "Orders the order view holds: open, retained final, and final ones kept"
                + " for retries", view::size);
        metrics.gauge("orders_recovery_snapshot_sequence", "Journal sequence of the snapshot this start loaded (0: none)",
                () -> recoveredFromSnapshot);
        metrics.gauge("orders_recovery_replayed_records", "Journal records this start replayed", () -> replayedRecords);
        snapshots.register(clusterService, journal);
        auditWiring.register(audit, gateway);
    }

    private List<String> symbols() {
        return config.instruments().stream().map(Instrument::symbol).toList();
    }

    private void stopFromFailure() {
        final Thread stopper = new Thread(() -> {
            stop();
            Runtime.getRuntime().halt(70);
        }, "fail-fast-stop");
        stopper.start();
    }
}
