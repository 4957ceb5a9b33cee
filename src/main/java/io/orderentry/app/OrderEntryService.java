package io.orderentry.app;

import com.lmax.disruptor.RingBuffer;
import io.orderentry.account.AccountFeeds;
import io.orderentry.audit.AuditHandler;
import io.orderentry.cluster.ClusterSettings;
import io.orderentry.config.ConfigException;
import io.orderentry.http.json.Json;
import io.orderentry.http.rest.InputGateway;
import io.orderentry.http.rest.ReplyStage;
import io.orderentry.http.stream.StreamFanOut;
import io.orderentry.http.stream.StreamMetrics;
import io.orderentry.instrument.Instrument;
import io.orderentry.journal.DirectoryLock;
import io.orderentry.journal.JournalHandler;
import io.orderentry.journal.JournalRecovery;
import io.orderentry.journal.WallClock;
import io.orderentry.marketdata.MarketDataStage;
import io.orderentry.ops.MetricsText;
import io.orderentry.ops.ServiceStatus;
import io.orderentry.pipeline.EngineEvent;
import io.orderentry.pipeline.MatcherMetrics;
import io.orderentry.pipeline.MatcherStage;
import io.orderentry.query.OrderStateView;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The service's life: it assembles the parts, starts them in order, and stops them in the reverse order. Each part
 * is a class of its own that registers its own {@code /ready} part and figures: {@link Pipeline} (both rings, read it
 * first), {@link AuditWiring}, {@link PersistenceWiring}, {@link HttpWiring} (with {@link AuthWiring}),
 * {@link SingleNodeRecovery} and {@link JournalWiring} with {@link SnapshotWiring}, or {@link ClusterWiring} in
 * cluster mode, and {@link StopSequence}.
 *
 * <p>Start order, and why: the audit trail opens first (recovery asks it which commands it lacks); the stages and the
 * output ring next (the replay publishes into it); the HTTP port then, so that {@code /health} and {@code /ready}
 * answer (503) while the service recovers; then the journal is replayed through the matcher into the output ring
 * (or the member joins its cluster); once every consumer has caught up the input ring starts, the price bands are
 * journaled ahead of any order, the scheduled jobs start, the figures are registered, and orders are accepted
 * (READY). A start that fails fails in one way ({@code failStart}). The stop reverses it: see {@link StopSequence}.
 *
 * <p>Threads: {@link #start} on the main thread; {@link #stop} on the stopping one (at most one stop runs).
 */
public final class OrderEntryService {

    private static final Logger LOG = LoggerFactory.getLogger(OrderEntryService.class);
    /** The stop's budget, its minimum per step and its steps that wait (see {@link StopSequence}), for the tests. */
    static final long STOP_BUDGET_MILLIS = StopSequence.BUDGET_MILLIS;
    static final long MIN_STOP_STEP_MILLIS = StopSequence.MIN_STEP_MILLIS;
    static final int STOP_STEPS = StopSequence.STEPS;
    private volatile boolean starting;
    private volatile boolean abortStart;
    private volatile Thread startThread;
    private final CountDownLatch startEnded = new CountDownLatch(1);

    private final Config config;
    private final ServiceStatus status = new ServiceStatus();
    private final MetricsText metrics = new MetricsText();
    private final MatcherMetrics matcherMetrics = new MatcherMetrics();
    private final StreamMetrics streamMetrics = new StreamMetrics();

    private HttpWiring http;
    private Pipeline pipeline;
    private DirectoryLock journalLock;
    private OrderStateView view;
    private AuditHandler audit;
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
    private ClusterWiring cluster;
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
        view = new OrderStateView(config.retainedFinalOrders(), config.engineLimits().dedupWindow());
        audit = new AuditHandler(auditWiring.trail(), status::auditFailed, status::auditResumed,
                view::holdsOnApplyingThread);
        persistence = PersistenceWiring.open(config, status, metrics);
        final ReplyStage replies = new ReplyStage(view, config.httpInstances());
        orderFeeds = new AccountFeeds(view, Json.orderFeedRenderer(config.instruments()));
        marketData = new MarketDataStage(config.instruments().size(), config.httpInstances(), config.marketData());
        streamFanOut = new StreamFanOut(config.instruments(), config.httpInstances(), streamMetrics,
                config.marketData().fanOutCpuPercent());
        pipeline = new Pipeline(config, status, this::stopFromFailure);
        final RingBuffer<EngineEvent> outputRing = pipeline.startOutput(view, audit, replies, orderFeeds, marketData,
                streamFanOut, persistence.stage());
        matcherStage = pipeline.matcher(config, matcherMetrics);
        gateway = new InputGateway(pipeline.inputRing(), config.httpLimits().refusalsAuditedPerSecond());
        symbolIndex = SingleNodeRecovery.symbolIndex(config);
        if (config.cluster().isPresent()) {
            cluster = new ClusterWiring(config, config.cluster().get(), status, metrics, persistence, matcherStage,
                    view, marketData, symbols(), symbolIndex, this::stopFromFailure);
        }
        http = new HttpWiring(config, status, metrics, streamMetrics);
        // POST /admin/snapshot: the cluster's (every member at one log position) or the single node's writer's
        http.start(view, replies, gateway, marketData, streamFanOut, orderFeeds,
                () -> cluster != null ? cluster.requestSnapshot() : snapshots.request());
        if (config.cluster().isPresent()) {
            startCluster(outputRing, started);
            return;
        }
        final SingleNodeRecovery recovering = new SingleNodeRecovery(config, symbols(), symbolIndex,
                auditWiring.trail(), persistence, matcherStage, view, marketData, () -> abortStart,
                lock -> journalLock = lock);
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
        final JournalHandler journalHandler = new JournalHandler(journalWiring.writer(), pipeline.inputRing(),
                WallClock::currentTimeMicros);
        final int[] bandChanges = recovering.priceBandChanges();   // read before the matcher thread owns the engine
        pipeline.startInput(journalHandler, matcherStage);
        if (!recovering.journalPriceBandChanges(gateway, bandChanges)) {
            throw failStart("the input ring is full at start; the price band change could not be journaled",
                    new IllegalStateException("the input ring is full at start"));
        }
        snapshots.start(symbolIndex, journalWiring.writer()::lastSequence, persistence::persistedSequence);
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
     * Cluster mode's start, after the HTTP server: join the cluster (which starts the input ring), then the steps a
     * member takes once it has a leader, in this order.
     */
    private void startCluster(final RingBuffer<EngineEvent> outputRing, final long started) {
        final ClusterSettings settings = config.cluster().get();
        cluster.join(pipeline, outputRing, () -> abortStart, lock -> journalLock = lock, this::failStart);
        recoveredFromSnapshot = cluster.loadedSnapshot();
        // the log's end is not known here (the members replay it as it comes); the writer compares the spool's progress
        persistence.start(0);
        cluster.sendPriceBands(gateway);
        auditWiring.startArchiving();
        cluster.startSnapshots();
        cluster.startLogPurge();
        cluster.register();
        registerHealthAndMetrics(outputRing);
        streamMetrics.register(metrics, marketData.view(), marketData.subscribers(), orderFeeds);
        status.phase(ServiceStatus.Phase.READY);
        LOG.info("ready: member {} accepting orders on {}:{} after {} ms", settings.memberId(), config.httpHost(),
                config.httpPort(), (System.nanoTime() - started) / 1_000_000);
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
        final StopSequence sequence = new StopSequence(status);
        abortStart = true;
        if (starting && Thread.currentThread() != startThread) {
            sequence.awaitRecovery(startEnded);
        }
        sequence.run(new StopSequence.Parts(http, gateway, pipeline, cluster, persistence, auditWiring, journalWiring,
                snapshots, journalLock, metrics));
    }

    /** @return the stream's fan-out, for tests and embedding */
    public StreamFanOut streamFanOut() {
        return streamFanOut;
    }

    /** @return the lifecycle state, for tests and embedding */
    public ServiceStatus status() {
        return status;
    }

    private void registerHealthAndMetrics(final RingBuffer<EngineEvent> outputRing) {
        pipeline.register(metrics, matcherMetrics);
        metrics.gauge("orders_http_waiting_requests", "Requests published and waiting for the engine",
                status::waitingRequests);
        metrics.gauge("orders_view_orders", "Orders the order view holds: open, retained final, and final ones kept"
                + " for retries", view::size);
        metrics.gauge("orders_recovery_snapshot_sequence", "Journal sequence of the snapshot this start loaded (0: none)",
                () -> recoveredFromSnapshot);
        metrics.gauge("orders_recovery_replayed_records", "Journal records this start replayed", () -> replayedRecords);
        snapshots.register(cluster == null ? null : cluster.service(),
                journalWiring == null ? null : journalWiring.writer());
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
