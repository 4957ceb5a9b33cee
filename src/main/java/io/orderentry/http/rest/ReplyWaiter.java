package io.orderentry.http.rest;

/**
 * A command that waits in {@link PendingReplies} for the engine's answer and is not a whole HTTP request: one order of
 * a batch ({@link BatchAnswer}), or one request of a stream session. Each gets exactly one of the two calls.
 *
 * <p>Threads: called on the event loop the command was sent from.
 */
public interface ReplyWaiter {

    /** The engine's reply, once the command is durable (or could not be made so: {@link Reply#journalFailed}). */
    void replied(Reply reply);

    /**
     * No reply will come: answered 503 with {@code code} ({@code OUTCOME_UNKNOWN} after the cluster's answer timeout,
     * {@code ENGINE_FAILED} once the engine stopped).
     */
    void unavailable(String code, String message);
}
