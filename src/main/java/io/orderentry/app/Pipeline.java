package io.orderentry.app;

import com.lmax.disruptor.EventHandler;
import com.lmax.disruptor.WaitStrategy;
import com.lmax.disruptor.dsl.Disruptor;
import io.orderentry.account.AccountFeeds;
import io.orderentry.audit.AuditHandler;
import io.orderentry.http.ReplyStage;
import io.orderentry.journal.JournalHandler;
import io.orderentry.marketdata.MarketDataStage;
import io.orderentry.pipeline.EngineEvent;
import io.orderentry.pipeline.MatcherStage;
import io.orderentry.pipeline.NamedStage;
import io.orderentry.pipeline.OrderCommand;
import io.orderentry.pipeline.Sequential;
import io.orderentry.query.OrderStateView;

/**
 * The consumer graph of both rings, in one place; each line is one thread, named as {@code top -H}, profilers and
 * the per-thread figures of {@code /metrics} show it.
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
 */
final class Pipeline {

    private Pipeline() {
    }

    /** Wires the output ring's consumers; call before the ring starts. */
    static void wireOutput(final Disruptor<EngineEvent> output, final OrderStateView view, final AuditHandler audit,
                           final ReplyStage replies, final AccountFeeds feeds, final MarketDataStage marketData,
                           final EventHandler<EngineEvent> persistence) {
        output.handleEventsWith(stage("oe-orders", new Sequential<>(view, audit, replies, feeds)));
        output.handleEventsWith(stage("oe-marketdata", marketData));
        if (persistence != null) {
            output.handleEventsWith(stage("oe-spool", persistence));
        }
    }

    /** Wires the input ring's consumers; call before the ring starts, after recovery. */
    static void wireInput(final Disruptor<OrderCommand> input, final WaitStrategy wait, final JournalHandler journal,
                          final MatcherStage matcher) {
        input.handleEventsWith(WaitStrategies.upstream(wait, stage("oe-journal", journal)))
                .then(stage("oe-matcher", matcher));
    }

    /**
     * Cluster mode: the input ring's one consumer sends each command into the cluster's log ({@code oe-cluster}); the
     * engine runs on the cluster's service thread and publishes into the output ring from there.
     */
    static void wireClusterInput(final Disruptor<OrderCommand> input, final WaitStrategy wait,
                                 final EventHandler<OrderCommand> ingress) {
        input.handleEventsWith(WaitStrategies.upstream(wait, stage("oe-cluster", ingress)));
    }

    private static <T> EventHandler<T> stage(final String thread, final EventHandler<T> stage) {
        return new NamedStage<>(thread, stage);
    }
}
