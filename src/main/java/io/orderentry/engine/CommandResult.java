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
    /** A cancel named an order id the engine never assigned. */
    ORDER_NOT_FOUND,
    /** A cancel named an order that is already final. */
    ORDER_NOT_OPEN
}
