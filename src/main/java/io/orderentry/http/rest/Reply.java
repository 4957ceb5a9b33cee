package io.orderentry.http.rest;

import io.orderentry.engine.CommandResult;
import io.orderentry.pipeline.CommandType;
import io.orderentry.query.OrderState;
import java.util.List;

/**
 * The engine's answer to one waiting request, handed from the reply stage to the request's event loop.
 *
 * @param result        the engine's result; null when {@code journalFailed}
 * @param journalFailed the command could not be made durable and was not executed
 * @param order         the order's state after the command, or null if unknown or no longer retained
 * @param commandType   what the request asked for (PLACE, CANCEL, AMEND, CANCEL_ALL); null when journalFailed
 * @param canceled      CANCEL_ALL: the orders it canceled, lowest id first (possibly none); else empty
 */
public record Reply(long requestId, CommandResult result, boolean journalFailed, long orderId, OrderState order,
                    CommandType commandType, List<OrderState> canceled) {

    /** A reply without a list of canceled orders. */
    public Reply(final long requestId, final CommandResult result, final boolean journalFailed, final long orderId,
                 final OrderState order) {
        this(requestId, result, journalFailed, orderId, order, null, List.of());
    }
}
