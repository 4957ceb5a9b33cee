package io.orderentry.engine;

/**
 * The outcome of one command as a whole, reported once per command by
 * {@link EventSink#commandCompleted}. Business outcomes are codes, never exceptions.
 */
public enum CommandResult {
    /** A new order was processed; its status (possibly REJECTED) is in the preceding events. */
    PLACED,
    /** The order was cancelled. */
    CANCELED,
    /** accountId + clientOrderId were used before with the same fields; nothing was placed. */
    DUPLICATE,
    /** accountId + clientOrderId were used before with other fields; nothing was placed. */
    DUPLICATE_MISMATCH,
    /** A cancel or amend named an order id the engine never assigned. */
    ORDER_NOT_FOUND,
    /** A cancel or amend named an order that is already final. */
    ORDER_NOT_OPEN,
    /** The order was amended; its new state is in the preceding events. */
    AMENDED,
    /** A cancel-all ran; the orders it canceled (possibly none) are the preceding events. */
    CANCELED_ALL,
    /** An amend asked for a total quantity at or below what the order has already filled; nothing changed. */
    QUANTITY_NOT_ABOVE_FILLED,
    /** An amend asked for a price outside the instrument's price band; nothing changed. */
    PRICE_OUTSIDE_BAND,
    /** An amend would have opened a price level beyond the configured maximum per side; nothing changed. */
    TOO_MANY_PRICE_LEVELS,
    /** An instrument's price band was set (a change of configuration, journaled so that replay applies it in place). */
    PRICE_BAND_SET,
    /**
     * With balances: an amend would need more held than the account has available (nothing changed), or a withdrawal
     * asked for more than available (nothing changed).
     */
    INSUFFICIENT_BALANCE,
    /** A funding was applied: one DEPOSIT or WITHDRAWAL balance event precedes it. */
    FUNDED,
    /** A funding's reference was used before with the same account, asset and amount: nothing changed. */
    FUNDING_DUPLICATE,
    /** A funding's reference was used before with another account, asset or amount: nothing changed. */
    FUNDING_MISMATCH,
    /** A deposit would take the asset's supply across all accounts past its maximum: nothing changed. */
    BALANCE_LIMIT_EXCEEDED,
    /** An instrument's fee rates were set (a change of configuration, journaled like a price band). */
    FEES_SET
}
