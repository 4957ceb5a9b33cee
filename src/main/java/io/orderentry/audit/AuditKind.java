package io.orderentry.audit;

/** What an audit record is about. */
public enum AuditKind {
    /** A new-order request that passed the edge; its outcome is the engine's. */
    PLACE,
    /** A cancel request that passed the edge; its outcome is the engine's. */
    CANCEL,
    /** A request the HTTP edge refused (400, 413, 422) before it reached the engine; never journaled. */
    REJECTED_AT_EDGE,
    /** The service finished its journal replay and started taking orders. */
    SERVICE_STARTED
}
