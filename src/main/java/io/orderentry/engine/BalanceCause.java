package io.orderentry.engine;

/** Why an account's balance of an asset changed: the cause of one {@link EventSink#balanceChanged} event. */
public enum BalanceCause {
    /** Funding added to available (the admin endpoint, a positive amount). */
    DEPOSIT,
    /** Funding taken from available (the admin endpoint, a negative amount). */
    WITHDRAWAL,
    /** A placed or amended order's funds moved from available to held. */
    HOLD,
    /**
     * Held funds returned to available: an order canceled (by any cause), expired, rejected after an amend, amended to
     * need less, or left with a remainder that does not rest.
     */
    RELEASE,
    /** A trade: what the account paid (from held, or from available for a MARKET BUY) or received, net of its fee. */
    TRADE,
    /** The fee account received a trade's fee. */
    FEE
}
