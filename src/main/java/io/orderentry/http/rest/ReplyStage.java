package io.orderentry.http.rest;

import io.orderentry.engine.OrderStatus;
import io.orderentry.engine.RejectReason;
import io.orderentry.ops.StageLatency;
import io.orderentry.pipeline.BatchStage;
import io.orderentry.pipeline.CommandType;
import io.orderentry.pipeline.EngineEvent;
import io.orderentry.pipeline.EventType;
import io.orderentry.query.OrderState;
import io.orderentry.query.OrderStateView;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Completes waiting HTTP requests; a cancel-all's answer lists the orders it canceled, gathered from its
 * ORDER_UPDATED events (CANCELED, reason CANCEL_ALL), which all come before its COMMAND_COMPLETED. The last part of the output ring's order stage: it runs after the
 * {@link OrderStateView} (so the state it answers with is already queryable) and after the audit trail has
 * written the batch's records (no answer without its record). Answers are collected per verticle and handed
 * over once per batch, in {@link #endOfBatch}, to cut cross-thread wake-ups.
 *
 * <p>Threads: {@link #apply} and {@link #endOfBatch} on the order stage's thread; {@link #register} on each
 * verticle's event loop.
 */
public final class ReplyStage implements BatchStage<EngineEvent> {

    private final OrderStateView view;
    private final StageLatency latency;
    private final AtomicReferenceArray<ReplyTarget> targets;
    private final List<List<Reply>> pending;
    /** The orders the current command's cancel-all has canceled so far (all its events precede its completion). */
    private List<OrderState> canceled = new ArrayList<>();

    /**
     * @param verticles how many verticles may register, indexed from 0
     * @param latency   where each answer's hand-overs are recorded, the event loops' included
     */
    public ReplyStage(final OrderStateView view, final int verticles, final StageLatency latency) {
        this.view = view;
        this.latency = latency;
        this.targets = new AtomicReferenceArray<>(verticles);
        this.pending = new ArrayList<>(verticles);
        for (int i = 0; i < verticles; i++) {
            pending.add(new ArrayList<>());
        }
    }

    /** @return the stage latencies, which the event loops record their hand-over into */
    public StageLatency latency() {
        return latency;
    }

    /** Registers the target of verticle {@code index}; must happen before that verticle publishes. */
    public void register(final int index, final ReplyTarget target) {
        targets.set(index, target);
    }

    @Override
    public void apply(final EngineEvent event, final long sequence) {
        if (event.replay || event.replyTo < 0) {
            return;
        }
        if (event.type == EventType.ORDER_UPDATED && event.status == OrderStatus.CANCELED
                && event.rejectReason == RejectReason.CANCEL_ALL) {
            // one order of a client's cancel-all: its state now (just made final, so the view holds it)
            final OrderState order = view.get(event.orderId);
            if (order != null) {
                canceled.add(order);
            }
        } else if (event.type == EventType.COMMAND_COMPLETED) {
            if (event.edgeNanos != 0) {
                latency.recordCommand(event.edgeNanos, event.journalNanos, event.matchNanos, System.nanoTime());
            }
            final List<OrderState> orders;
            if (event.commandType == CommandType.CANCEL_ALL && !canceled.isEmpty()) {
                orders = canceled;
                canceled = new ArrayList<>();
            } else {
                orders = List.of();
            }
            final Reply.Funding funding = event.commandType == CommandType.FUND && !event.journalFailed
                    ? new Reply.Funding(event.accountId, event.asset, event.available, event.held,
                            event.balanceSequence)
                    : null;
            pending.get(event.replyTo).add(new Reply(event.requestId, event.result, event.journalFailed,
                    event.orderId, event.journalFailed || event.orderId == 0 ? null : view.get(event.orderId),
                    event.commandType, orders, funding));
        }
    }

    /** Hands each verticle the batch's answers for it, in one call. */
    @Override
    public void endOfBatch() {
        final long handedNanos = System.nanoTime();
        for (int i = 0; i < pending.size(); i++) {
            final List<Reply> replies = pending.get(i);
            if (!replies.isEmpty()) {
                final ReplyTarget target = targets.get(i);
                if (target == null) {
                    throw new IllegalStateException("replies for verticle " + i + " which never registered");
                }
                target.deliver(replies, handedNanos);
                pending.set(i, new ArrayList<>());
            }
        }
    }
}
