package io.orderentry.pipeline;

/**
 * Why the HTTP edge refused a request, as answered to the client. Carried by a {@link CommandType#REJECTED}
 * command and its {@link EventType#REQUEST_REJECTED} event so that the audit trail can record it. Immutable.
 *
 * @param request    what the client asked for: {@link CommandType#PLACE} or {@link CommandType#CANCEL}
 * @param httpStatus the status answered (400, 413 or 422)
 * @param code       the stable error code answered, e.g. {@code PRICE_NOT_ON_TICK}
 * @param message    the error message answered
 * @param field      the request field at fault, or null
 */
public record Refusal(CommandType request, int httpStatus, String code, String message, String field) {
}
