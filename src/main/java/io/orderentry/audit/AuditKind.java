package io.orderentry.audit;

/** What an audit record is about. */
public enum AuditKind {
    /** A new-order request that passed the edge; its outcome is the engine's. */
    PLACE,
    /** A cancel request that passed the edge; its outcome is the engine's. */
    CANCEL,
    /** An amend request that passed the edge: the new price and/or quantity asked for, and the engine's outcome. */
    AMEND,
    /**
     * A cancel-all that passed the edge, or that an account's dead man's switch fired: the instrument or all, the
     * cause, and the orders it canceled.
     */
    CANCEL_ALL,
    /** A request the HTTP edge refused (400, 413, 422) before it reached the engine; never journaled. */
    REJECTED_AT_EDGE,
    /** The service finished its journal replay and started taking orders. */
    SERVICE_STARTED,
    /**
     * An instrument's price band was set: a change of configuration the service journals at start, no client's
     * request (no request id, address, key or HTTP status).
     */
    PRICE_BAND_SET,
    /**
     * With balances: an admin's funding of an account (a deposit or, with a negative amount, a withdrawal): the asset,
     * the amount and the reference, and the engine's result.
     */
    FUNDING,
    /** With balances: an instrument's fee rates were set, a change of configuration journaled at start like a band. */
    FEES_SET
}
