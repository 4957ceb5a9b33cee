package io.orderentry.http;

import io.orderentry.engine.CommandResult;
import io.orderentry.query.OrderState;

/**
 * The engine's answer to one waiting request, handed from the reply stage to the request's event loop.
 *
 * @param result        the engine's result; null when {@code journalFailed}
 * @param journalFailed the command could not be made durable and was not executed
 * @param order         the order's state after the command, or null if unknown or no longer retained
 */
public record Reply(long requestId, CommandResult result, boolean journalFailed, long orderId, OrderState order) {
}
