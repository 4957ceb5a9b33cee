package io.orderentry.http.rest;

import io.netty.buffer.ByteBufAllocator;
import io.orderentry.engine.CommandResult;
import io.orderentry.http.ApiError;
import io.orderentry.http.DirectBody;
import io.orderentry.http.HttpParts;
import io.orderentry.http.Responses;
import io.orderentry.ops.ServiceStatus;
import io.orderentry.ops.StageLatency;
import io.orderentry.pipeline.Answer;
import io.orderentry.query.OrderState;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The order requests of one verticle that wait for the engine: each is sent into the input ring under a request id
 * and waits here until the {@link ReplyStage} hands back its {@link Reply}, which is rendered into its answer. In
 * cluster mode a request whose command does not come back within the answer timeout is answered
 * {@code 503 OUTCOME_UNKNOWN}; once the engine has failed, every waiting request is answered {@code 503 ENGINE_FAILED}.
 *
 * <p>Threads: the owning verticle's event loop, except {@link #deliver}, which the reply thread calls and which only
 * hops onto the event loop.
 */
public final class PendingReplies implements ReplyTarget {

    private final int index;
    private final HttpParts settings;
    private final Context eventLoop;
    private final Responses responses;
    /** What waits under each request id: an {@link HttpServerRequest}, or a {@link ReplyWaiter}. */
    private final Map<Long, Object> waiting = new HashMap<>();
    private final ReplyErrors errors;
    private final ReplyResults results;
    /** In cluster mode, the waiting requests in the order they were sent, for the answer timeout; else unused. */
    private final ArrayDeque<Sent> sentOrder = new ArrayDeque<>();
    private long nextRequestId;

    /**
     * @param index the verticle's number; the reply stage hands this verticle's replies here by it
     */
    public PendingReplies(final int index, final HttpParts settings, final Context eventLoop,
                          final Responses responses) {
        this.index = index;
        this.settings = settings;
        this.eventLoop = eventLoop;
        this.responses = responses;
        this.errors = new ReplyErrors(settings.parser());
        this.results = new ReplyResults(settings.json(), settings.parser());
    }

    /** Registers with the reply stage, and checks the answer timeout and the engine's failure periodically. */
    public void start(final Vertx vertx) {
        final long answerTimeoutMillis = settings.config().answerTimeoutMillis();
        if (answerTimeoutMillis > 0) {
            vertx.setPeriodic(Math.max(10, Math.min(100, answerTimeoutMillis / 4)),
                    ignored -> timeOutUnanswered(answerTimeoutMillis));
        }
        settings.replies().register(index, this);
        vertx.setPeriodic(1000, id -> failWaitingIfStopped());
    }

    /** @return the id the next command sent into the input ring waits under */
    public long nextRequestId() {
        return ++nextRequestId;
    }

    /** Makes {@code request} wait for the reply to the command sent under {@code requestId}. */
    void await(final long requestId, final HttpServerRequest request) {
        hold(requestId, request);
    }

    /** Makes {@code waiter} wait for the reply to the command sent under {@code requestId}. */
    public void await(final long requestId, final ReplyWaiter waiter) {
        hold(requestId, waiter);
    }

    /** @return a new batch answer of {@code size} orders for {@code request} */
    BatchAnswer batch(final HttpServerRequest request, final int size) {
        return new BatchAnswer(request, size, results);
    }

    /** @return how results are rendered for the waiters that are not whole HTTP requests */
    public ReplyResults results() {
        return results;
    }

    private void hold(final long requestId, final Object waiter) {
        waiting.put(requestId, waiter);
        settings.status().requestWaiting();
        if (settings.config().answerTimeoutMillis() > 0) {
            sentOrder.addLast(new Sent(requestId, System.nanoTime()));
        }
    }

    /** Called on the reply thread; hops onto this verticle's event loop. */
    @Override
    public void deliver(final List<Reply> replies, final long handedNanos) {
        eventLoop.runOnContext(ignored -> {
            final long waited = System.nanoTime() - handedNanos;
            for (int i = 0; i < replies.size(); i++) {
                settings.replies().latency().record(StageLatency.Stage.EVENT_LOOP, waited);
                complete(replies.get(i));
            }
        });
    }

    private void complete(final Reply reply) {
        final Object waiter = waiting.remove(reply.requestId());
        if (waiter == null) {
            if (settings.config().answerTimeoutMillis() > 0) {
                settings.status().lateAnswer();   // answered 503 OUTCOME_UNKNOWN already: the client retries
                return;
            }
            throw new IllegalStateException("reply for request " + reply.requestId() + " that nobody waits for");
        }
        settings.status().requestAnswered();
        if (waiter instanceof ReplyWaiter other) {
            other.replied(reply);
            return;
        }
        final HttpServerRequest request = (HttpServerRequest) waiter;
        if (reply.journalFailed()) {
            responses.unavailable(request, Answer.JOURNAL_UNAVAILABLE.code(), Answer.JOURNAL_UNAVAILABLE.message());
            return;
        }
        final CommandResult result = reply.result();
        final OrderState order = reply.order();
        final Answer answer = Answer.of(result, false, order != null);
        if (answer.success()) {
            if (result == CommandResult.CANCELED_ALL) {
                Responses.respond(request, answer.status(), settings.json().canceled(reply.canceled()));
                return;
            }
            if (result == CommandResult.PLACED) {
                request.response().putHeader("Location", "/api/v1/orders/" + reply.orderId());
            }
            DirectBody.respond(request, answer.status(), Responses.JSON_TYPE,
                    settings.json().order(order, ByteBufAllocator.DEFAULT));
            return;
        }
        final ApiError error = errors.errorOf(answer, reply);
        responses.fail(request, error, ReplyErrors.carriesOrder(error) ? order : null);
    }

    /** Answers a waiter that will get no reply with a 503: a request whole, any other waiter by its own means. */
    private void unavailable(final Object waiter, final String code, final String message) {
        if (waiter instanceof ReplyWaiter other) {
            other.unavailable(code, message);
        } else {
            responses.unavailable((HttpServerRequest) waiter, code, message);
        }
    }

    private void failWaitingIfStopped() {
        if (settings.status().phase() != ServiceStatus.Phase.FAILED || waiting.isEmpty()) {
            return;
        }
        final List<Object> stuck = new ArrayList<>(waiting.values());
        waiting.clear();
        for (final Object waiter : stuck) {
            settings.status().requestAnswered();
            unavailable(waiter, "ENGINE_FAILED", "the engine stopped; the outcome of this request is"
                    + " unknown, look the order up by clientOrderId after restart");
        }
    }

    /** A request sent into the cluster's log, and when. */
    private record Sent(long requestId, long nanos) {
    }

    /**
     * Cluster mode: answers {@code 503 OUTCOME_UNKNOWN} every request whose command has not come back from the log
     * within the timeout (sent to a leader that died before it committed the command, or stuck behind an election).
     * Whether it will yet be executed is unknown, so the client must retry with the same clientOrderId (or look the
     * order up), which finds the order if it was; its answer, if it comes, is then dropped and counted.
     */
    private void timeOutUnanswered(final long timeoutMillis) {
        final long now = System.nanoTime();
        while (!sentOrder.isEmpty() && now - sentOrder.peekFirst().nanos() > timeoutMillis * 1_000_000L) {
            final Object waiter = waiting.remove(sentOrder.pollFirst().requestId());
            if (waiter != null) {
                settings.status().requestAnswered();
                settings.status().answerTimedOut();
                unavailable(waiter, "OUTCOME_UNKNOWN", "the cluster did not confirm this command within "
                        + timeoutMillis + " ms (a leader change); it may or may not have been executed: retry with the"
                        + " same clientOrderId, or look the order up");
            }
        }
        while (!sentOrder.isEmpty() && !waiting.containsKey(sentOrder.peekFirst().requestId())) {
            sentOrder.pollFirst();   // answered in time
        }
    }
}
