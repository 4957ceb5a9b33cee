package io.orderentry.http.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.orderentry.account.DeadMansSwitch;
import io.orderentry.http.ApiError;
import java.util.Set;

/**
 * The body of {@code POST /api/v1/cancel-all-after}: {@code {"timeoutSeconds":60}}, and {@code accountId} (required
 * only with authentication off). 400 for what is malformed (not one JSON object, a missing or unknown field, a
 * timeout that is not a whole number), 422 for a whole number outside 0..{@value DeadMansSwitch#MAX_TIMEOUT_SECONDS}.
 *
 * @param accountId      as named in the body, or null
 * @param timeoutSeconds 0 (disarm) to {@value DeadMansSwitch#MAX_TIMEOUT_SECONDS}
 */
public record CancelAllAfterRequest(String accountId, int timeoutSeconds) {

    private static final Set<String> FIELDS = Set.of("timeoutSeconds", "accountId");

    public static CancelAllAfterRequest parse(final ObjectMapper mapper, final byte[] body) {
        final JsonNode root = RequestBodies.object(mapper, body, FIELDS);
        final JsonNode timeout = root.get("timeoutSeconds");
        if (timeout == null || timeout.isNull()) {
            throw ApiError.badRequest("MISSING_FIELD", "timeoutSeconds is required", "timeoutSeconds").toException();
        }
        if (!timeout.isIntegralNumber()) {
            throw ApiError.badRequest("INVALID_TYPE", "timeoutSeconds must be a whole number of seconds",
                    "timeoutSeconds").toException();
        }
        if (!timeout.canConvertToInt() || timeout.intValue() < 0
                || timeout.intValue() > DeadMansSwitch.MAX_TIMEOUT_SECONDS) {
            throw ApiError.unprocessable("INVALID_TIMEOUT", "timeoutSeconds must be from 1 to "
                    + DeadMansSwitch.MAX_TIMEOUT_SECONDS + ", or 0 to disarm", "timeoutSeconds").toException();
        }
        final JsonNode account = root.get("accountId");
        String accountId = null;
        if (account != null && !account.isNull()) {
            if (!account.isTextual()) {
                throw ApiError.badRequest("INVALID_TYPE", "accountId must be a string", "accountId").toException();
            }
            accountId = account.textValue();
        }
        return new CancelAllAfterRequest(accountId, timeout.intValue());
    }
}
