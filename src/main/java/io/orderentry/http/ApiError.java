package io.orderentry.http;

/**
 * An error answer in the one documented shape
 * {@code {"error":{"code":"...","message":"...","field":"..."}}}. Codes are UPPER_SNAKE and stable.
 *
 * @param field the request field at fault, or null when no single field is
 */
public record ApiError(int status, String code, String message, String field) {

    /** @return a 400 for a body or field that is malformed */
    public static ApiError badRequest(final String code, final String message, final String field) {
        return new ApiError(400, code, message, field);
    }

    /** @return a 422 for a well-formed request the venue does not accept */
    public static ApiError unprocessable(final String code, final String message, final String field) {
        return new ApiError(422, code, message, field);
    }

    /** @return this error as an exception, for unwinding out of the parser */
    public ApiException toException() {
        return new ApiException(this);
    }
}
