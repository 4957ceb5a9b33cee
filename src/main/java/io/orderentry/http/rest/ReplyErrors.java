package io.orderentry.http.rest;

import io.orderentry.http.ApiError;
import io.orderentry.pipeline.Answer;
import io.orderentry.pipeline.CommandType;
import io.orderentry.query.OrderState;

/**
 * The error a journaled command is answered with when the engine refused it, worded with the order's details: one
 * wording for a single request ({@link PendingReplies}) and for each order of a batch ({@link BatchAnswer}), so the
 * two never disagree. The status and code come from {@link Answer}, which the audit trail reads too.
 *
 * <p>Threads: any; it holds only the parser's instruments.
 */
final class ReplyErrors {

    private final OrderRequestParser parser;

    ReplyErrors(final OrderRequestParser parser) {
        this.parser = parser;
    }

    /**
     * @param answer the answer of the reply, not a success
     * @return the error to answer {@code reply} with
     */
    ApiError errorOf(final Answer answer, final Reply reply) {
        final OrderState order = reply.order();
        return switch (answer.code()) {
            case "JOURNAL_UNAVAILABLE" -> new ApiError(503, answer.code(), answer.message(), null);
            case "INVALID_QUANTITY" -> new ApiError(answer.status(), answer.code(),
                    "quantity is the new total and must be above what order " + reply.orderId() + " has filled"
                    + (order == null ? "" : " (" + parser.instrument(order.symbol())
                    .quantity(order.filledQuantity()).toPlainString() + ")"), "quantity");
            case "PRICE_OUTSIDE_BAND" -> new ApiError(answer.status(), answer.code(),
                    "the new price is outside the instrument's price band around its reference price; the order is"
                    + " unchanged", "price");
            case "TOO_MANY_PRICE_LEVELS" -> new ApiError(answer.status(), answer.code(),
                    "the new price would open a price level beyond the book's maximum; the order is unchanged",
                    "price");
            case "ORDER_NOT_RETAINED" -> new ApiError(answer.status(), answer.code(), "order " + reply.orderId()
                    + " is older than the retained window; its state is no longer held in memory", null);
            case "DUPLICATE_CLIENT_ORDER_ID" -> new ApiError(answer.status(), answer.code(),
                    "clientOrderId was already used by order " + reply.orderId() + " with other fields",
                    "clientOrderId");
            case "ORDER_NOT_FOUND" -> RouteParams.notFound(reply.orderId());
            case "ORDER_NOT_OPEN" -> new ApiError(answer.status(), answer.code(), "order " + reply.orderId() + " is "
                    + (order == null ? "final" : order.status().name())
                    + (reply.commandType() == CommandType.AMEND ? " and cannot be amended" : " and cannot be canceled"),
                    null);
            default -> throw new IllegalStateException("unhandled answer " + answer);
        };
    }

    /** @return whether the error is answered with the order it concerns (as the single request's answer is) */
    static boolean carriesOrder(final ApiError error) {
        return switch (error.code()) {
            case "INVALID_QUANTITY", "PRICE_OUTSIDE_BAND", "TOO_MANY_PRICE_LEVELS", "DUPLICATE_CLIENT_ORDER_ID",
                 "ORDER_NOT_OPEN" -> true;
            default -> false;
        };
    }
}
