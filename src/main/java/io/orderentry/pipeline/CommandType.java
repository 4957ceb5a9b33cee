package io.orderentry.pipeline;

/** What an {@link OrderCommand} asks the engine to do. */
public enum CommandType {
    /** Place a new order. Journaled. */
    PLACE,
    /** Cancel a resting order. Journaled. */
    CANCEL,
    /** Amend a resting order's price and/or quantity. Journaled. */
    AMEND,
    /**
     * Cancel every resting order of an account, or of an account in one instrument: from a client, or fired by the
     * account's dead man's switch. Journaled.
     */
    CANCEL_ALL,
    /**
     * Set an instrument's price band: journaled by the service at start when the configured band differs from the
     * engine's, so that replay applies every band to exactly the orders it applied to. Nobody waits for it.
     */
    SET_PRICE_BAND,
    /**
     * Add funds to an account's balance of an asset, or withdraw them (with {@code ORDERS_RISK=balances}): an admin's
     * request, journaled like an order so that replay rebuilds every balance. Idempotent on its reference.
     */
    FUND,
    /**
     * Set an instrument's fee rates (with balances): journaled by the service at start when the configured rates differ
     * from the engine's, like {@link #SET_PRICE_BAND}. Nobody waits for it.
     */
    SET_FEES,
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
