package io.orderentry.pipeline;

/** What an {@link OrderCommand} asks the engine to do. */
public enum CommandType {
    /** Place a new order. Journaled. */
    PLACE,
    /** Cancel a resting order. Journaled. */
    CANCEL,
    /**
     * A request the HTTP edge refused (400, 413, 422), carried only so that the audit stage records it in
     * order with everything else. Never journaled, never sequenced, never executed: the journal stage skips
     * it and the matcher stage forwards it as {@link EventType#REQUEST_REJECTED}.
     */
    REJECTED,
    /**
     * The time, once a second, for stages that retry after a failure even when no request arrives (the journal and
     * the audit trail). Never journaled, never sequenced: the journal stage skips it and the matcher stage forwards it
     * as {@link EventType#TICK}.
     */
    TICK
}
