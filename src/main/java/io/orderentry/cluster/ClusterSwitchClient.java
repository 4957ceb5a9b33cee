package io.orderentry.cluster;

import io.orderentry.account.CancelAllAfter;

import java.nio.ByteBuffer;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;

/**
 * The dead man's switch of cluster mode as the HTTP side sees it: {@code POST /api/v1/cancel-all-after} on any member
 * sends the arming into the cluster's log, and is answered once this member's engine has applied it there
 * ({@link EngineService}), with the deadline every member computed from the log's time. The switches themselves, and
 * their firing, are {@link ClusterSwitches}'.
 *
 * <p>An arming that cannot be sent (no leader), that a new leadership term may have lost, or that is not back from the
 * log within {@link #ANSWER_MILLIS} ms is answered {@code 503 JOURNAL_UNAVAILABLE}: the switch may or may not have
 * changed, and sending the same arming again is always safe (an arming sets the deadline; it adds nothing). At most
 * {@link #MAX_WAITING} armings wait at once; more are answered {@code 503 OVERLOADED}.
 *
 * <p>Threads: {@link #arm} on the HTTP event loops; the sends on this client's own thread ({@code oe-cluster-switch}),
 * so an event loop never waits for the cluster client's lock; {@link #applied}, {@link #refused} and
 * {@link #newTerm} on the service's thread. Every waiting request is answered exactly once, by whichever removes it
 * from {@code waiting} first.
 */
public final class ClusterSwitchClient implements CancelAllAfter, AutoCloseable {

    /** How long an arming waits for the log before it is answered 503. */
    static final long ANSWER_MILLIS = 5_000;
    /** The most armings waiting for the log at once. */
    static final int MAX_WAITING = 10_000;

    /** Sends a message into the cluster's log. */
    @FunctionalInterface
    public interface Sender {
        /** @return whether it went (false: no leader, or the leader pushed back too long) */
        boolean offer(ByteBuffer message);
    }

    /**
     * An arming waiting for the log: the leadership term it was sent in ({@link Long#MAX_VALUE} until it is sent), and
     * its timeout, cancelled when it is answered otherwise.
     */
    private static final class Waiting {
        final Outcome outcome;
        volatile long term = Long.MAX_VALUE;
        volatile ScheduledFuture<?> timeout;

        Waiting(final Outcome outcome) {
            this.outcome = outcome;
        }
    }

    private final Sender sender;
    private final LongSupplier term;
    private final IntSupplier armed;
    private final LongSupplier fired;
    private final int member;
    private final long incarnation;
    private final AtomicLong requestIds = new AtomicLong();
    private final Map<Long, Waiting> waiting = new ConcurrentHashMap<>();
    private final ScheduledThreadPoolExecutor thread;

    /**
     * @param term  the leadership term this member's cluster client knows now, asked on this client's own thread
     *              just before each send (armings sent in an earlier term than a new one's are answered as lost)
     * @param armed the switches armed now, and {@code fired} those fired, as this member's engine counts them
     */
    public ClusterSwitchClient(final Sender sender, final LongSupplier term, final IntSupplier armed,
                               final LongSupplier fired, final int member, final long incarnation) {
        this.sender = sender;
        this.term = term;
        this.armed = armed;
        this.fired = fired;
        this.member = member;
        this.incarnation = incarnation;
        this.thread = new ScheduledThreadPoolExecutor(1, runnable -> {
            final Thread sending = new Thread(runnable, "oe-cluster-switch");
            sending.setDaemon(true);
            return sending;
        });
        this.thread.setRemoveOnCancelPolicy(true);
    }

    @Override
    public void arm(final String accountId, final int timeoutSeconds, final String keyId, final Outcome outcome) {
        if (waiting.size() >= MAX_WAITING) {
            outcome.failed("OVERLOADED", MAX_WAITING + " dead man's switch requests already wait for the cluster's log;"
                    + " retry shortly");
            return;
        }
        final long requestId = requestIds.incrementAndGet();
        final ByteBuffer message;
        try {
            message = ClusterCommands.encodeSwitch(member, incarnation, requestId, accountId, timeoutSeconds, keyId);
        } catch (final IllegalArgumentException e) {
            outcome.failed("JOURNAL_UNAVAILABLE", "the switch could not be sent: " + e.getMessage());
            return;
        }
        final Waiting request = new Waiting(outcome);
        waiting.put(requestId, request);
        try {
            request.timeout = thread.schedule(() -> answerFailed(requestId, "the cluster's log did not confirm the"
                    + " switch within " + ANSWER_MILLIS + " ms; it may or may not be armed; sending it again is safe"),
                    ANSWER_MILLIS, TimeUnit.MILLISECONDS);
            thread.execute(() -> {
                request.term = term.getAsLong();   // here, not on the event loop: the client's lock may be held
                if (!sender.offer(message)) {
                    answerFailed(requestId, "no leader took the switch (an election, or a majority of the members"
                            + " down); it is unchanged; retry shortly");
                }
            });
        } catch (final java.util.concurrent.RejectedExecutionException e) {
            answerFailed(requestId, "the service is stopping");
        }
    }

    /** The log applied this member's arming {@code requestId}: {@code triggerAtMicros}, or 0 when disarmed. */
    void applied(final long requestId, final long triggerAtMicros) {
        final Waiting request = waiting.remove(requestId);
        if (request != null) {
            cancelTimeout(request);
            request.outcome.armed(triggerAtMicros);
        }
    }

    /** The log refused this member's arming {@code requestId} (a timeout out of range). */
    void refused(final long requestId, final String reason) {
        answerFailed(requestId, "the cluster refused the switch: " + reason);
    }

    /**
     * A new leadership term began in the log: an arming sent in an earlier term that the log has not applied by now
     * never will be, and is answered as lost.
     */
    void newTerm(final long leadershipTermId) {
        for (final Iterator<Map.Entry<Long, Waiting>> it = waiting.entrySet().iterator(); it.hasNext(); ) {
            final Map.Entry<Long, Waiting> entry = it.next();
            if (entry.getValue().term < leadershipTermId) {
                answerFailed(entry.getKey(), "a new leader took over before the switch reached the log; it may or may"
                        + " not be armed; sending it again is safe");
            }
        }
    }

    private void answerFailed(final long requestId, final String message) {
        final Waiting request = waiting.remove(requestId);
        if (request != null) {
            cancelTimeout(request);
            request.outcome.failed("JOURNAL_UNAVAILABLE", message);
        }
    }

    /** Drops an answered arming's timeout from the queue, which so holds at most one per waiting arming. */
    private static void cancelTimeout(final Waiting request) {
        final ScheduledFuture<?> timeout = request.timeout;
        if (timeout != null) {
            timeout.cancel(false);
        }
    }

    /** @return tasks queued on this client's thread (sends and timeouts); at most two per waiting arming */
    int queued() {
        return thread.getQueue().size();
    }

    /** @return armings waiting for the log now */
    int waiting() {
        return waiting.size();
    }

    @Override
    public int armedCount() {
        return armed.getAsInt();
    }

    @Override
    public long firedCount() {
        return fired.getAsLong();
    }

    /** Answers every waiting arming as not confirmed and stops sending. */
    @Override
    public void close() {
        thread.shutdownNow();
        for (final Long requestId : waiting.keySet()) {
            answerFailed(requestId, "the service is stopping");
        }
    }
}
