package io.orderentry.http;

/**
 * Carries an {@link ApiError} out of request parsing. It is an answer, not a fault, so it records no
 * stack trace.
 */
public final class ApiException extends RuntimeException {

    private final transient ApiError error;

    ApiException(final ApiError error) {
        super(error.code() + ": " + error.message(), null, false, false);
        this.error = error;
    }

    /** @return the error to answer with */
    public ApiError error() {
        return error;
    }
}
