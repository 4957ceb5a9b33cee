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
 * @param funding       FUND: the balance it answers with; else null
 */
public record Reply(long requestId, CommandResult result, boolean journalFailed, long orderId, OrderState order,
                    CommandType commandType, List<OrderState> canceled, Funding funding) {

    /**
     * What a funding answers: the account's balance of the asset after it (or, refused, as it is), in units.
     *
     * @param sequence the engine event sequence of its balance change; 0 when it changed nothing
     */
    public record Funding(String accountId, int asset, long available, long held, long sequence) {
    }

    /** A reply to anything but a funding. */
    public Reply(final long requestId, final CommandResult result, final boolean journalFailed, final long orderId,
                 final OrderState order, final CommandType commandType, final List<OrderState> canceled) {
        this(requestId, result, journalFailed, orderId, order, commandType, canceled, null);
    }

    /** A reply without a list of canceled orders. */
    public Reply(final long requestId, final CommandResult result, final boolean journalFailed, final long orderId,
                 final OrderState order) {
        this(requestId, result, journalFailed, orderId, order, null, List.of());
    }
}
