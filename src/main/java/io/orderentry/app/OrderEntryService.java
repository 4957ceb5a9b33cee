package io.orderentry.app;

import com.lmax.disruptor.RingBuffer;
import io.orderentry.config.ConfigException;
import io.orderentry.http.rest.InputGateway;
import io.orderentry.http.stream.StreamFanOut;
import io.orderentry.http.stream.StreamMetrics;
import io.orderentry.journal.DirectoryLock;
import io.orderentry.journal.JournalStage;
import io.orderentry.journal.JournalRecovery;
import io.orderentry.journal.WallClock;
import io.orderentry.ops.DiskUsage;
import io.orderentry.ops.MetricsText;
import io.orderentry.ops.ServiceStatus;
import io.orderentry.pipeline.EngineEvent;
import io.orderentry.pipeline.MatcherMetrics;
import io.orderentry.pipeline.MatcherStage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
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
 * <p>The start is a dozen steps, one method each, in the order {@code startUp} lists them; each method's comment says
 * why it comes where it does. A start that fails fails in one way ({@code failStart}). The stop takes the same steps in
 * reverse: see {@link StopSequence}.
 *
 * <p>Threads: {@link #start} on the main thread; {@link #stop} on the stopping one (at most one stop runs).
 */
public final class OrderEntryService {

    private static final Logger LOG = LoggerFactory.getLogger(OrderEntryService.class);
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
    private OutputStages stages;
    private DirectoryLock journalLock;
    private InputGateway gateway;
    private final SnapshotWiring snapshots;
    private AuditWiring auditWiring;
    private JournalWiring journalWiring;
    private Map<String, Integer> symbolIndex;
    private final RecoveryFigures recovered = new RecoveryFigures();
    private MatcherStage matcherStage;
    private JournalStage journalStage;
    private RingBuffer<EngineEvent> outputRing;
    private ClusterWiring cluster;
    private PersistenceWiring persistence;
    private DiskUsage diskUsage;
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

    /** The start, step by step, each step a method below (the class comment says why in this order). */
    private void startUp() {
        final long started = System.nanoTime();
        announce();
        openAuditTrail();
        buildStages();
        startOutputRing();
        startHttp();
        if (cluster != null) {
            joinCluster();
        } else {
            final SingleNodeRecovery recovering = new SingleNodeRecovery(config, config.symbols(), symbolIndex,
                    auditWiring.trail(), persistence, matcherStage, stages.view(), stages.marketData(),
                    () -> abortStart, lock -> journalLock = lock);
            final JournalRecovery recovery = replayJournal(recovering);
            openJournal(recovery);
            startInputRing(recovering);
        }
        startJobs();
        registerFigures();
        ready(started);
    }

    /** Step 1: the heap's warning, if any, and the settings that decide where state goes, in one line. */
    private void announce() {
        final String memory = HeapSizing.warning(config, Runtime.getRuntime().maxMemory());
        if (memory != null) {
            LOG.warn(memory);
        }
        LOG.info("starting: journal {} (sync {}), audit {} (sync {}), instruments {}, input ring {}, output ring {},"
                + " wait strategy {}", config.journal().directory().toAbsolutePath().normalize(),
                config.journal().sync(), config.audit().directory().toAbsolutePath().normalize(), config.audit().sync(),
                config.symbols(), config.pipeline().inputRingSize(), config.pipeline().outputRingSize(),
                config.pipeline().waitStrategy());
    }

    /** Step 2: the audit trail, first, because recovery asks it which commands it lacks. */
    private void openAuditTrail() {
        try {
            auditWiring = AuditWiring.open(config, status, metrics);
        } catch (final IOException e) {
            throw failStart("the audit trail cannot be opened: " + e.getMessage(),
                    new IllegalStateException("the audit trail cannot be opened: " + e.getMessage(), e));
        }
    }

    /** Step 3: the output ring's stages, persistence and the rings, not started yet. */
    private void buildStages() {
        stages = OutputStages.build(config, auditWiring.trail(), status, streamMetrics, metrics.stageLatency());
        persistence = PersistenceWiring.open(config, status, metrics);
        pipeline = new Pipeline(config, status, this::stopFromFailure);
        symbolIndex = SingleNodeRecovery.symbolIndex(config);
    }

    /** Step 4: the output ring, before recovery, which replays into it; the engine's stage, which publishes there. */
    private void startOutputRing() {
        outputRing = pipeline.startOutput(stages, persistence.stage());
        matcherStage = pipeline.matcher(config, matcherMetrics);
        gateway = new InputGateway(pipeline.inputRing(), config.http().refusalsAuditedPerSecond());
        if (config.cluster().isPresent()) {
            cluster = new ClusterWiring(config, config.cluster().get(), status, metrics, persistence, matcherStage,
                    stages.view(), stages.marketData(), config.symbols(), symbolIndex, this::stopFromFailure);
        }
    }

    /** Step 5: the HTTP server, so that {@code /health} and {@code /ready} answer (503) while the service recovers. */
    private void startHttp() {
        http = new HttpWiring(config, status, metrics, streamMetrics);
        // POST /admin/snapshot: the cluster's (every member at one log position) or the single node's writer's
        http.start(stages.view(), stages.replies(), gateway, stages.marketData(), stages.fanOut(), stages.feeds(),
                () -> cluster != null ? cluster.requestSnapshot() : snapshots.request(),
                cluster != null ? cluster.switches() : null);
    }

    /** Steps 6-8 in cluster mode: join the cluster (it starts the input ring), then persistence and the price bands. */
    private void joinCluster() {
        cluster.join(pipeline, outputRing, () -> abortStart, lock -> journalLock = lock, this::failStart);
        recovered.fromSnapshot(cluster.loadedSnapshot());
        // the log's end is not known here (the members replay it as it comes); the writer compares the spool's progress
        persistence.start(0);
        cluster.sendPriceBands(gateway);
        cluster.sendFees(gateway);
    }

    /** Step 6: the snapshot and the journal replayed into the output ring, then persistence from the last event. */
    private JournalRecovery replayJournal(final SingleNodeRecovery recovering) {
        final JournalRecovery recovery;
        try {
            recovery = recovering.replay();
        } catch (final ConfigException e) {
            throw failStart(e.getMessage(), e);
        } catch (final IOException e) {
            throw failStart("journal recovery failed: " + e.getMessage(),
                    new IllegalStateException("journal recovery failed: " + e.getMessage(), e));
        }
        recovered.fromJournal(recovering.recoveredFromSnapshot(), recovering.replayedRecords());
        matcherStage.replayCompleted(recovery.lastSequence());
        recovering.awaitConsumers(outputRing);
        persistence.start(matcherStage.matcher().lastEventSequence());
        return recovery;
    }

    /** Step 7: the journal opened for writing after the last record the replay read. */
    private void openJournal(final JournalRecovery recovery) {
        try {
            journalWiring = JournalWiring.open(config, status, metrics, config.symbols(), recovery);
        } catch (final IOException e) {
            throw failStart("the journal cannot be opened for writing: " + e.getMessage(),
                    new UncheckedIOException("the journal cannot be opened for writing", e));
        }
        journalStage = new JournalStage(journalWiring.writer(), pipeline.inputRing(), WallClock::currentTimeMicros);
    }

    /** Step 8: the input ring, last of the rings, and the price bands journaled ahead of any order. */
    private void startInputRing(final SingleNodeRecovery recovering) {
        final int[] bandChanges = recovering.priceBandChanges();   // read before the matcher thread owns the engine
        final int[][] feeChanges = recovering.feeChanges();
        pipeline.startInput(journalStage, matcherStage);
        if (!recovering.journalPriceBandChanges(gateway, bandChanges)
                || !recovering.journalFeeChanges(gateway, feeChanges)) {
            throw failStart("the input ring is full at start; the price band or fee change could not be journaled",
                    new IllegalStateException("the input ring is full at start"));
        }
    }

    /** Step 9: the scheduled jobs: snapshots, the audit trail's archiving and, in cluster mode, the log's purge. */
    private void startJobs() {
        if (cluster != null) {
            auditWiring.startArchiving();
            cluster.startSnapshots();
            cluster.startLogPurge();
        } else {
            snapshots.start(symbolIndex, journalWiring.writer()::lastSequence, persistence::persistedSequence);
            auditWiring.startArchiving();
        }
    }

    /** Step 10: the figures of {@code /metrics} and the parts of {@code /ready} that only a started service has. */
    private void registerFigures() {
        if (cluster != null) {
            cluster.register();
        } else {
            journalWiring.register();
        }
        pipeline.register(metrics, matcherMetrics);
        metrics.gauge("orders_http_waiting_requests", "Requests published and waiting for the engine",
                status::waitingRequests);
        metrics.gauge("orders_view_orders", "Orders the order view holds: open, retained final, and final ones kept"
                + " for retries", stages.view()::size);
        recovered.register(metrics);
        snapshots.register(cluster == null ? null : cluster.service(),
                journalWiring == null ? null : journalWiring.writer());
        auditWiring.register(stages.audit(), gateway);
        if (journalStage != null) {
            journalWiring.registerRejections(journalStage);
        }
        streamMetrics.register(metrics, stages.marketData().view(), stages.marketData().subscribers(), stages.feeds());
        diskUsage = new DiskUsage(stateDirectories());
        diskUsage.register(metrics);
    }

    /** @return the directories whose disks {@code /metrics} watches: where this service writes state that grows */
    private Map<String, Path> stateDirectories() {
        final Map<String, Path> directories = new LinkedHashMap<>();
        if (cluster == null) {
            directories.put("journal", config.journal().directory());
            if (config.snapshots().enabled()) {
                directories.put("snapshots", config.snapshots().directory());
            }
        } else {
            directories.put("cluster", config.cluster().get().directory());
        }
        directories.put("audit", config.audit().directory());
        config.database().ifPresent(database -> directories.put("spool", database.spoolDir()));
        return directories;
    }

    /** Step 11: READY: orders are accepted from here on. */
    private void ready(final long started) {
        status.phase(ServiceStatus.Phase.READY);
        final long millis = (System.nanoTime() - started) / 1_000_000;
        if (cluster != null) {
            LOG.info("ready: member {} accepting orders on {}:{} after {} ms", config.cluster().get().memberId(),
                    config.http().host(), config.http().port(), millis);
        } else {
            LOG.info("ready: accepting orders on {}:{} after {} ms; next order id {}, next trade id {}",
                    config.http().host(), config.http().port(), millis, matcherStage.matcher().lastOrderId() + 1,
                    matcherStage.matcher().lastTradeId() + 1);
        }
    }

    /**
     * The one way a start fails: says why in {@code /ready} and {@code /health}, stops what the start opened so far,
     * and returns {@code thrown} for the start to throw ({@code Main} exits 2 on a {@link ConfigException}, else 1).
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
                snapshots, journalLock, diskUsage, metrics));
    }

    /** @return the stream's fan-out, for tests and embedding */
    public StreamFanOut streamFanOut() {
        return stages == null ? null : stages.fanOut();
    }

    /** @return the lifecycle state, for tests and embedding */
    public ServiceStatus status() {
        return status;
    }

    private void stopFromFailure() {
        final Thread stopper = new Thread(() -> {
            stop();
            Runtime.getRuntime().halt(70);
        }, "fail-fast-stop");
        stopper.start();
    }
}
