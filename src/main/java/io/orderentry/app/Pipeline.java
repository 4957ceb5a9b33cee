package io.orderentry.app;

import com.lmax.disruptor.EventHandler;
import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.WaitStrategy;
import com.lmax.disruptor.dsl.Disruptor;
import com.lmax.disruptor.dsl.ProducerType;
import io.orderentry.engine.CommandResult;
import io.orderentry.engine.Matcher;
import io.orderentry.engine.OrderStatus;
import io.orderentry.engine.RejectReason;
import io.orderentry.journal.JournalStage;
import io.orderentry.ops.MetricsText;
import io.orderentry.ops.ServiceStatus;
import io.orderentry.pipeline.EngineEvent;
import io.orderentry.pipeline.MatcherMetrics;
import io.orderentry.pipeline.MatcherStage;
import io.orderentry.pipeline.NamedStage;
import io.orderentry.pipeline.OrderCommand;
import io.orderentry.pipeline.PipelineConfig;
import io.orderentry.pipeline.RingShutdown;
import io.orderentry.pipeline.Sequential;
import io.orderentry.query.OrderViewStage;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Both rings, in one place: their construction (sizes, producer type, wait strategy, the lists of their stage
 * threads), the consumer graph, the links between them (the matcher publishes into the output ring; market data hands
 * its frames to the WebSocket fan-out) and the order in which they start and stop. Each line below is one thread,
 * named as {@code top -H}, profilers and the per-thread figures of {@code /metrics} show it.
 *
 * <pre>
 *  HTTP event loops ──tryPublish──▶ INPUT ring
 *     oe-journal  : sequence, append, one write + fsync per batch
 *     oe-matcher  : gated on the journal; the engine; publishes into the OUTPUT ring
 *  OUTPUT ring
 *     oe-orders   : order view ─▶ audit trail ─▶ replies ─▶ account feeds   (one thread: one after another)
 *     oe-marketdata : L2 books, trades, ticker, WebSocket fan-out
 *     oe-spool    : events for PostgreSQL, to the local spool (the writer threads take them from there)
 * </pre>
 *
 * Why the order view, the audit trail and the replies share a thread: an answer must wait for both the view
 * (read-your-writes) and the audit record, so the three never overlap anyway, and each thread hand-off costs a
 * wake-up per batch, which on two cores cost more than the stages' own work ({@code bench/stages.sh}, in
 * {@code loadtest/RESULTS.md}). Market data and persistence gate nothing and keep threads of their own so that
 * neither can delay an answer.
 *
 * <p>The account feeds (the stream's private {@code orders} channel) run after the view, so each event's order state is
 * there to send, and after the replies, so that their work at the end of a batch (rendering, handing over) comes after
 * the batch's answers are on their way. They are on this thread because a subscriber must join its feed, and a
 * snapshot's mark be taken, between two events of the view, which only the view's writer can see without a lock; the
 * snapshots themselves are read by the stream's event loops ({@code account/SnapshotAssembly}), not here.
 *
 * <p>Start order, and why: the output ring first ({@link #startOutput}), because recovery replays the journal through
 * the matcher into it and its consumers must apply the replay before anything else; the input ring last
 * ({@link #startInput}, {@link #startClusterInput}), once the replay is done (or the cluster member has joined), so
 * that no new command overtakes a replayed one. Both rings are MULTI-producer: the recovering thread replays into the
 * output ring, then the matcher thread takes over, and MULTI makes that hand-over legal for the sequencer; the input
 * ring has a producer per HTTP event loop.
 *
 * <p>Stop order, the start's reversed: the input ring drains first ({@link #stopInput}), so every accepted command
 * is journaled and executed; then (in cluster mode, after the member left the cluster) the output ring
 * ({@link #stopOutput}), so every event the engine published is applied and answered. A ring whose stage thread does
 * not leave its batch in time is halted; the service then leaves the journal and the audit trail unclosed.
 *
 * <p>Threads: built, started and stopped on the service's main thread (a stop on the stopping one); the stages on the
 * threads named below.
 */
final class Pipeline {

    private final List<Thread> inputThreads = new CopyOnWriteArrayList<>();
    private final List<Thread> outputThreads = new CopyOnWriteArrayList<>();
    private final Disruptor<EngineEvent> output;
    private final Disruptor<OrderCommand> input;
    private final WaitStrategy inputWait;
    private RingBuffer<EngineEvent> outputRing;

    /**
     * Builds both rings; a stage that throws marks the service failed and calls {@code stopProcess}.
     */
    Pipeline(final Config config, final ServiceStatus status, final Runnable stopProcess) {
        // Two producers, one after the other: the recovering thread replays the journal into this ring,
        // then the matcher thread takes over. MULTI makes that hand-over legal for the sequencer.
        final PipelineConfig rings = config.pipeline();
        final WaitStrategy outputWait = WaitStrategies.of(rings.waitStrategy());
        output = new Disruptor<>(EngineEvent::new, rings.outputRingSize(), ServiceThreads.stages("out", outputThreads),
                ProducerType.MULTI, outputWait);
        output.setDefaultExceptionHandler(new FailFastHandler<>("output", status, stopProcess));
        inputWait = WaitStrategies.of(rings.waitStrategy());
        input = new Disruptor<>(OrderCommand::new, rings.inputRingSize(), ServiceThreads.stages("in", inputThreads),
                ProducerType.MULTI, inputWait);
        input.setDefaultExceptionHandler(new FailFastHandler<>("input", status, stopProcess));
    }

    /**
     * Wires the output ring's consumers, links market data to the WebSocket fan-out, and starts the ring; first of the
     * two, before recovery.
     */
    RingBuffer<EngineEvent> startOutput(final OutputStages stages, final EventHandler<EngineEvent> persistence) {
        stages.marketData().register(stages.fanOut());
        wireOutput(output, stages, persistence);
        outputRing = output.start();
        return outputRing;
    }

    /** @return the engine's stage, publishing into the output ring (call after {@link #startOutput}) */
    MatcherStage matcher(final Config config, final MatcherMetrics metrics) {
        final MatcherStage stage = new MatcherStage(
                sink -> new Matcher(config.instruments().size(), config.engine(), sink), outputRing, metrics);
        if (HeapSizing.fits(config, Runtime.getRuntime().maxMemory())) {
            stage.matcher().reserveStorage();
        }
        return stage;
    }

    /** @return the input ring, which the HTTP edge publishes into (before it starts, it takes nothing) */
    RingBuffer<OrderCommand> inputRing() {
        return input.getRingBuffer();
    }

    /** @return the output ring */
    RingBuffer<EngineEvent> outputRing() {
        return outputRing;
    }

    /** Wires the input ring's journal and matcher and starts it; last, after recovery. */
    void startInput(final JournalStage journal, final MatcherStage matcher) {
        wireInput(input, inputWait, journal, matcher);
        input.start();
    }

    /** Cluster mode: wires the input ring's one consumer, the ingress into the cluster's log, and starts it. */
    void startClusterInput(final EventHandler<OrderCommand> ingress) {
        wireClusterInput(input, inputWait, ingress);
        input.start();
    }

    /**
     * Drains the input ring, if it started, within {@code drainMillis}, its stage threads joined within
     * {@code joinMillis}; first of the stop.
     *
     * @return false when a stage thread did not stop (the ring was halted under it)
     */
    boolean stopInput(final long drainMillis, final long joinMillis) {
        return !input.hasStarted() || RingShutdown.drainOrHalt(input, "input", inputThreads, drainMillis, joinMillis);
    }

    /** The same for the output ring; after the input ring and, in cluster mode, after leaving the cluster. */
    boolean stopOutput(final long drainMillis, final long joinMillis) {
        return !output.hasStarted() || RingShutdown.drainOrHalt(output, "output", outputThreads, drainMillis,
                joinMillis);
    }

    /** Registers the rings' and the matcher's figures in {@code /metrics}. */
    void register(final MetricsText metrics, final MatcherMetrics matcherMetrics) {
        final RingBuffer<OrderCommand> inputRing = input.getRingBuffer();
        final RingBuffer<EngineEvent> ring = outputRing;
        metrics.gauge("orders_input_ring_remaining", "Free slots in the input ring", inputRing::remainingCapacity);
        metrics.gauge("orders_output_ring_remaining", "Free slots in the output ring", ring::remainingCapacity);
        metrics.gauge("orders_input_ring_size", "Slots of the input ring (ORDERS_INPUT_RING_SIZE)",
                inputRing::getBufferSize);
        metrics.gauge("orders_output_ring_size", "Slots of the output ring (ORDERS_OUTPUT_RING_SIZE)",
                ring::getBufferSize);
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
        for (final RejectReason reason : RejectReason.values()) {
            if (reason != RejectReason.NONE) {
                metrics.counter("orders_order_reasons_total", "Order states reported with a reason (REJECTED, EXPIRED"
                        + " or CANCELED by the engine), by reason; INSUFFICIENT_BALANCE counts the orders balances"
                        + " refused or stopped; replayed ones included", "reason=\"" + reason.name() + "\"",
                        () -> matcherMetrics.reasons(reason));
            }
        }
        for (final CommandResult result : new CommandResult[] {CommandResult.FUNDED, CommandResult.FUNDING_DUPLICATE,
                CommandResult.FUNDING_MISMATCH, CommandResult.INSUFFICIENT_BALANCE,
                CommandResult.BALANCE_LIMIT_EXCEEDED}) {
            metrics.counter("orders_fundings_total", "Fundings (POST /admin/balances) by engine result;"
                    + " INSUFFICIENT_BALANCE is a withdrawal refused; replayed ones included",
                    "result=\"" + result.name() + "\"", () -> matcherMetrics.fundings(result));
        }
    }

    /** Wires the output ring's consumers; call before the ring starts. */
    private static void wireOutput(final Disruptor<EngineEvent> output, final OutputStages stages,
                                   final EventHandler<EngineEvent> persistence) {
        output.handleEventsWith(stage("oe-orders",
                new Sequential<>(new OrderViewStage(stages.view()), stages.audit(), stages.replies(), stages.feeds())));
        output.handleEventsWith(stage("oe-marketdata", stages.marketData()));
        if (persistence != null) {
            output.handleEventsWith(stage("oe-spool", persistence));
        }
    }

    /** Wires the input ring's consumers; call before the ring starts, after recovery. */
    private static void wireInput(final Disruptor<OrderCommand> input, final WaitStrategy wait,
                                  final JournalStage journal, final MatcherStage matcher) {
        input.handleEventsWith(WaitStrategies.upstream(wait, stage("oe-journal", journal)))
                .then(stage("oe-matcher", matcher));
    }

    /**
     * Cluster mode: the input ring's one consumer sends each command into the cluster's log ({@code oe-cluster}); the
     * engine runs on the cluster's service thread and publishes into the output ring from there.
     */
    private static void wireClusterInput(final Disruptor<OrderCommand> input, final WaitStrategy wait,
                                 final EventHandler<OrderCommand> ingress) {
        input.handleEventsWith(WaitStrategies.upstream(wait, stage("oe-cluster", ingress)));
    }

    private static <T> EventHandler<T> stage(final String thread, final EventHandler<T> stage) {
        return new NamedStage<>(thread, stage);
    }
}
