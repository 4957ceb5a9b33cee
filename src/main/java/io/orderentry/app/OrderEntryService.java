package io.orderentry.app;

import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.dsl.Disruptor;
import com.lmax.disruptor.dsl.ProducerType;
import io.orderentry.engine.CommandResult;
import io.orderentry.engine.Matcher;
import io.orderentry.http.HealthComponent;
import io.orderentry.http.HttpSettings;
import io.orderentry.http.InputGateway;
import io.orderentry.http.Json;
import io.orderentry.http.MetricsText;
import io.orderentry.http.OrderRequestParser;
import io.orderentry.http.OrderVerticle;
import io.orderentry.http.ReplyStage;
import io.orderentry.http.ServiceStatus;
import io.orderentry.journal.JournalConfig;
import io.orderentry.journal.JournalHandler;
import io.orderentry.journal.JournalReader;
import io.orderentry.journal.JournalRecovery;
import io.orderentry.journal.JournalWriter;
import io.orderentry.journal.WallClock;
import io.orderentry.pipeline.EngineEvent;
import io.orderentry.pipeline.MatcherMetrics;
import io.orderentry.pipeline.MatcherStage;
import io.orderentry.pipeline.OrderCommand;
import io.orderentry.query.OrderStateView;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wires the pipeline and owns its life: startup, recovery and shutdown, in that order.
 *
 * <pre>
 *  HTTP verticles ──tryPublish──▶ INPUT ring
 *                                   1. journal  (append, one fsync per batch)
 *                                   2. matcher  (gated on the journal; the output ring's only producer)
 *                                 OUTPUT ring
 *                                   a. order view ──▶ b. replies (complete the waiting requests)
 * </pre>
 *
 * Startup: the HTTP port opens first so that {@code /health} and {@code /ready} answer (503 while
 * recovering); then the journal is replayed through the matcher into the output ring; once every
 * consumer has caught up the input ring starts and orders are accepted. Shutdown reverses it.
 */
public final class OrderEntryService {

    private static final Logger LOG = LoggerFactory.getLogger(OrderEntryService.class);
    private static final long STOP_TIMEOUT_SECONDS = 10;

    private final Config config;
    private final ServiceStatus status = new ServiceStatus();
    private final MetricsText metrics = new MetricsText();
    private final MatcherMetrics matcherMetrics = new MatcherMetrics();

    private Vertx vertx;
    private Disruptor<EngineEvent> output;
    private Disruptor<OrderCommand> input;
    private JournalWriter journal;
    private OrderStateView view;
    private MatcherStage matcherStage;
    private PersistenceWiring persistence;
    private volatile boolean stopped;

    public OrderEntryService(final Config config) {
        this.config = config;
    }

    /** Starts everything and returns once orders are accepted; throws if recovery fails. */
    public void start() {
        final long started = System.nanoTime();
        LOG.info("starting: journal {} (sync {}), instruments {}, input ring {}, output ring {}, wait strategy {}",
                config.journalDir().toAbsolutePath().normalize(), config.journalSync(), symbols(),
                config.inputRingSize(), config.outputRingSize(), config.waitStrategy());

        view = new OrderStateView(config.retainedFinalOrders());
        persistence = PersistenceWiring.open(config, status, metrics);
        final ReplyStage replies = new ReplyStage(view, config.httpInstances());
        output = new Disruptor<>(EngineEvent::new, config.outputRingSize(), threads("out"), ProducerType.SINGLE,
                WaitStrategies.of(config.waitStrategy()));
        output.setDefaultExceptionHandler(new FailFastHandler<>("output", status, this::stopFromFailure));
        output.handleEventsWith(view).then(replies);
        persistence.attachTo(output);
        final RingBuffer<EngineEvent> outputRing = output.start();

        matcherStage = new MatcherStage(sink -> new Matcher(config.instruments().size(), config.engineLimits(), sink),
                outputRing, matcherMetrics);
        input = new Disruptor<>(OrderCommand::new, config.inputRingSize(), threads("in"), ProducerType.MULTI,
                WaitStrategies.of(config.waitStrategy()));
        input.setDefaultExceptionHandler(new FailFastHandler<>("input", status, this::stopFromFailure));

        startHttp(replies, new InputGateway(input.getRingBuffer()));
        final JournalRecovery recovery = recover();
        awaitConsumers(outputRing);
        persistence.start(matcherStage.matcher().lastEventSequence());

        journal = openJournal(recovery);
        input.handleEventsWith(new JournalHandler(journal, input.getRingBuffer(), WallClock::currentTimeMicros)).then(matcherStage);
        input.start();
        registerHealthAndMetrics(outputRing);
        status.phase(ServiceStatus.Phase.READY);
        LOG.info("ready: accepting orders on {}:{} after {} ms; next order id {}, next trade id {}",
                config.httpHost(), config.httpPort(), (System.nanoTime() - started) / 1_000_000,
                matcherStage.matcher().lastOrderId() + 1, matcherStage.matcher().lastTradeId() + 1);
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
        LOG.info("stopping: refusing new orders, draining the rings");
        status.phase(ServiceStatus.Phase.STOPPING);
        if (input != null && input.hasStarted()) {
            shutdown(input, "input");
        }
        if (output != null && output.hasStarted()) {
            shutdown(output, "output");
        }
        if (persistence != null) {
            persistence.stop();
        }
        if (journal != null) {
            try {
                journal.close();
                LOG.info("journal closed at sequence {}", journal.lastSequence());
            } catch (final IOException e) {
                LOG.error("closing the journal failed", e);
            }
        }
        if (vertx != null) {
            await(vertx.close().toCompletionStage().toCompletableFuture(), "closing the HTTP server");
        }
        LOG.info("stopped");
    }

    /** @return the lifecycle state, for tests and embedding */
    public ServiceStatus status() {
        return status;
    }

    private JournalRecovery recover() {
        final Map<String, Integer> symbolIndex = new HashMap<>();
        for (final Instrument instrument : config.instruments()) {
            symbolIndex.put(instrument.symbol(), instrument.index());
        }
        LOG.info("recovery: replaying the journal in {}", config.journalDir().toAbsolutePath().normalize());
        final JournalRecovery recovery;
        try {
            recovery = JournalReader.recover(config.journalDir(), symbolIndex, matcherStage::replay);
        } catch (final IOException e) {
            status.fail("journal recovery failed: " + e.getMessage());
            stop();
            throw new IllegalStateException("journal recovery failed: " + e.getMessage(), e);
        }
        if (recovery.truncatedTail() != null) {
            LOG.warn("recovery: cut a torn record off the journal tail: {} at offset {} ({} bytes, {})",
                    recovery.truncatedTail().file(), recovery.truncatedTail().offset(),
                    recovery.truncatedTail().bytesCut(), recovery.truncatedTail().reason());
        }
        LOG.info("recovery: replayed {} records from {} segment(s) in {} ms ({} records/s); last sequence {}",
                recovery.recordCount(), recovery.segmentCount(), Math.round(recovery.elapsedMillis()),
                Math.round(recovery.recordsPerSecond()), recovery.lastSequence());
        return recovery;
    }

    /** Waits until the output consumers have applied everything the replay produced. */
    private void awaitConsumers(final RingBuffer<EngineEvent> outputRing) {
        final long target = matcherStage.matcher().lastEventSequence();
        final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
        while (view.lastEventSequence() < target || outputRing.remainingCapacity() < outputRing.getBufferSize()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("output consumers did not catch up with the replay in 10 minutes");
            }
            try {
                Thread.sleep(1);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the replay to drain", e);
            }
        }
    }

    private JournalWriter openJournal(final JournalRecovery recovery) {
        final JournalConfig journalConfig = new JournalConfig(config.journalDir(), config.journalSync(),
                config.journalSegmentBytes(), JournalConfig.DEFAULT_WRITE_BUFFER);
        try {
            return JournalWriter.open(journalConfig, symbols().toArray(String[]::new), recovery);
        } catch (final IOException e) {
            status.fail("the journal cannot be opened for writing: " + e.getMessage());
            throw new UncheckedIOException("the journal cannot be opened for writing", e);
        }
    }

    private void startHttp(final ReplyStage replies, final InputGateway gateway) {
        vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(config.httpInstances()));
        final Json json = new Json(config.instruments());
        final HttpSettings settings = new HttpSettings(config.httpHost(), config.httpPort(), json,
                new OrderRequestParser(json.mapper(), config.instrumentsBySymbol()), gateway, view, replies, status,
                metrics, openApi(), LoggerFactory.getLogger(OrderVerticle.class));
        final AtomicInteger index = new AtomicInteger();
        await(vertx.deployVerticle(() -> new OrderVerticle(index.getAndIncrement(), settings),
                new DeploymentOptions().setInstances(config.httpInstances())).toCompletionStage().toCompletableFuture(),
                "starting the HTTP server on port " + config.httpPort());
        LOG.info("http: listening on {}:{} with {} verticle instance(s); /ready answers 503 until recovery is done",
                config.httpHost(), config.httpPort(), config.httpInstances());
    }

    private void registerHealthAndMetrics(final RingBuffer<EngineEvent> outputRing) {
        status.addComponent(() -> new HealthComponent("journal", journal.isHealthy(),
                Map.of("lastSequence", journal.lastSequence(), "sync", config.journalSync().name())));
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
        metrics.gauge("orders_journal_last_sequence", "Last journaled command sequence", journal::lastSequence);
        metrics.gauge("orders_view_orders", "Orders held by the query view", view::size);
    }

    private List<String> symbols() {
        return config.instruments().stream().map(Instrument::symbol).toList();
    }

    private static Buffer openApi() {
        try (InputStream in = OrderEntryService.class.getResourceAsStream("/openapi.yaml")) {
            if (in == null) {
                throw new IllegalStateException("openapi.yaml is missing from the jar");
            }
            return Buffer.buffer(in.readAllBytes());
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot read openapi.yaml", e);
        }
    }

    private void stopFromFailure() {
        final Thread stopper = new Thread(() -> {
            stop();
            Runtime.getRuntime().halt(70);
        }, "fail-fast-stop");
        stopper.start();
    }

    private static void shutdown(final Disruptor<?> disruptor, final String name) {
        try {
            disruptor.shutdown(STOP_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (final com.lmax.disruptor.TimeoutException e) {
            LOG.error("the {} ring did not drain in {} s; halting it", name, STOP_TIMEOUT_SECONDS);
            disruptor.halt();
        }
    }

    private static ThreadFactory threads(final String ring) {
        final AtomicInteger count = new AtomicInteger();
        return runnable -> {
            final Thread thread = new Thread(runnable, ring + "-stage-" + count.getAndIncrement());
            thread.setDaemon(false);
            return thread;
        };
    }

    private static <T> T await(final java.util.concurrent.CompletableFuture<T> future, final String what) {
        try {
            return future.get(60, TimeUnit.SECONDS);
        } catch (final ExecutionException e) {
            throw new IllegalStateException(what + " failed: " + e.getCause().getMessage(), e.getCause());
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(what + " was interrupted", e);
        } catch (final TimeoutException e) {
            throw new IllegalStateException(what + " did not finish in 60 s", e);
        }
    }
}
