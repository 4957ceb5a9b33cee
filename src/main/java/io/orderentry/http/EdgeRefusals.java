package io.orderentry.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.orderentry.http.rest.InputGateway;
import io.orderentry.http.rest.OrderRequestParser;
import io.orderentry.ops.ServiceStatus;
import io.orderentry.pipeline.CommandType;
import io.orderentry.pipeline.Refusal;
import java.io.IOException;
import java.util.regex.Pattern;

/**
 * Hands the refusals the edge answers (400, 413, 422 on the order-entry routes) to the audit trail through the
 * input ring, with the account and clientOrderId the body named where they can be read and are well formed. An
 * account only the body names (no key, or a key of another account) is passed as claimed, never as the account: a
 * request that failed authentication must not be able to make the trail say it was an account's.
 * Refusals are only published while the service accepts orders; a refusal that does not fit in the ring is
 * counted by the {@link InputGateway}. The caller answers the client either way, at once. Thread-safe;
 * called on the event loops.
 */
public final class EdgeRefusals {

    private final InputGateway input;
    private final ObjectMapper mapper;
    private final ServiceStatus status;

    public EdgeRefusals(final InputGateway input, final ObjectMapper mapper, final ServiceStatus status) {
        this.input = input;
        this.mapper = mapper;
        this.status = status;
    }

    /**
     * @param action  what the client asked for: PLACE or CANCEL
     * @param body    the request body, or null when it was not read (413)
     * @param orderId the order the request named, or 0
     */
    public void publish(final String requestTag, final String remoteAddress, final CommandType action,
                        final ApiError error, final byte[] body, final long orderId) {
        publish(requestTag, remoteAddress, action, error, body, orderId, null, null);
    }

    /**
     * As above, for a request whose API key is known.
     *
     * @param action    PLACE, CANCEL, or null for a read (a failed authentication of a GET)
     * @param keyId     the id of the key the request presented, or null
     * @param accountId the account of the key the request presented, or null; the body's account, when it names
     *                  another, goes to the record as {@code claimedAccountId}
     */
    public void publish(final String requestTag, final String remoteAddress, final CommandType action,
                        final ApiError error, final byte[] body, final long orderId, final String keyId,
                        final String accountId) {
        if (status.phase() != ServiceStatus.Phase.READY || status.auditFailure() != null) {
            return;
        }
        final JsonNode root = readQuietly(body);
        final String named = text(root, "accountId", OrderRequestParser.ACCOUNT_ID);
        input.tryReject(new Refusal(action, error.status(), error.code(), error.message(), error.field()), requestTag,
                remoteAddress, keyId, accountId, named == null || named.equals(accountId) ? null : named,
                text(root, "clientOrderId", OrderRequestParser.CLIENT_ORDER_ID), orderId);
    }

    /** @return the body as JSON, or null if there is none or it is not JSON (the refusal itself says why) */
    private JsonNode readQuietly(final byte[] body) {
        if (body == null || body.length == 0) {
            return null;
        }
        try {
            return mapper.readTree(body);
        } catch (final IOException notJson) {
            return null;
        }
    }

    /** @return the field if it is a string of the accepted shape, else null (ids of another shape are not kept) */
    private static String text(final JsonNode root, final String field, final Pattern shape) {
        if (root == null || !root.isObject()) {
            return null;
        }
        final JsonNode value = root.get(field);
        return value != null && value.isTextual() && shape.matcher(value.asText()).matches() ? value.asText() : null;
    }
}
