package io.orderentry.cluster;

import io.orderentry.pipeline.CommandType;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;

/**
 * The commands this member sent into the log and has not seen come back yet, in the order sent, with the leadership
 * term they were sent in. One member's commands travel through one client session, so those that reach the log do so
 * in the order they were sent; a command that is passed over (a later one of this member's came back first), or that
 * was sent in a term that has ended when the log starts a new one, will never be in the log: the leader it went to
 * died or stepped down before it was committed, and the new leader's log, which is final up to the new term, does not
 * have it. Its request can then be answered at once that it was not executed, instead of waiting for the answer
 * timeout.
 *
 * <p>Threads: {@link #sent} on the ingress thread, the others on the service thread.
 */
final class InFlight {

    /** One command sent and not yet seen; compared by identity, as each send is one. */
    static final class Sent {
        private final long requestId;
        private final int replyTo;
        private final long term;
        private final CommandType type;

        Sent(final long requestId, final int replyTo, final long term, final CommandType type) {
            this.requestId = requestId;
            this.replyTo = replyTo;
            this.term = term;
            this.type = type;
        }

        long requestId() {
            return requestId;
        }

        int replyTo() {
            return replyTo;
        }

        long term() {
            return term;
        }

        CommandType type() {
            return type;
        }
    }

    private final ConcurrentLinkedQueue<Sent> queue = new ConcurrentLinkedQueue<>();

    /**
     * A command that someone waits for is about to go into the log in leadership term {@code term}: tracked before it
     * is offered, so that it is in the queue before it can come back.
     *
     * @return the entry, for {@link #withdraw} if the offer fails
     */
    Sent sent(final long requestId, final int replyTo, final long term, final CommandType type) {
        final Sent sent = new Sent(requestId, replyTo, term, type);
        queue.add(sent);
        return sent;
    }

    /**
     * Takes back a command whose offer failed.
     *
     * @return false when the service thread already took it as lost and answered its request
     */
    boolean withdraw(final Sent sent) {
        return queue.remove(sent);
    }

    /**
     * This member's command ({@code requestId}, {@code replyTo}) came back from the log; every one sent before it that
     * has not come back is lost, and given to {@code lost}.
     */
    void seen(final long requestId, final int replyTo, final Consumer<Sent> lost) {
        Sent head;
        while ((head = queue.peek()) != null) {
            queue.poll();
            if (head.requestId() == requestId && head.replyTo() == replyTo) {
                return;
            }
            lost.accept(head);
        }
    }

    /** The log starts leadership term {@code term}: every command sent in an earlier one and not seen is lost. */
    void newTerm(final long term, final Consumer<Sent> lost) {
        Sent head;
        while ((head = queue.peek()) != null && head.term() < term) {
            queue.poll();
            lost.accept(head);
        }
    }

    /** @return commands sent and not yet seen */
    int size() {
        return queue.size();
    }
}
