package io.orderentry.http.stream;

import com.fasterxml.jackson.databind.JsonNode;
import io.orderentry.http.ApiError;
import java.util.Iterator;
import java.util.Set;

/**
 * The members the order-entry messages of the stream share, read from a message's JSON tree with the contract's
 * rules: the request id every answer echoes, the strictness about unknown members, optional strings.
 *
 * <p>Stateless; the event loops.
 */
final class StreamFields {

    private StreamFields() {
    }

    /** @return the JSON text of a valid request id (a quoted string or an integer), or null */
    static String requestId(final JsonNode id) {
        if (id == null || id.isNull()) {
            return null;
        }
        if (id.isTextual() && PlaceMessage.validId(id.textValue())) {
            return "\"" + id.textValue() + "\"";
        }
        if (id.isIntegralNumber() && id.canConvertToLong()) {
            return Long.toString(id.asLong());
        }
        return null;
    }

    /** Refuses a member not in {@code fields} with 400 UNKNOWN_FIELD: the order-entry messages are strict. */
    static void unknownFields(final JsonNode root, final Set<String> fields) {
        for (final Iterator<String> names = root.fieldNames(); names.hasNext(); ) {
            final String name = names.next();
            if (!fields.contains(name)) {
                throw ApiError.badRequest("UNKNOWN_FIELD", "unknown field '" + name + "'", name).toException();
            }
        }
    }

    /** @return the member's text, or null when absent or null; 400 INVALID_TYPE when it is not a string */
    static String optionalText(final JsonNode root, final String field) {
        final JsonNode node = root.get(field);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isTextual()) {
            throw ApiError.badRequest("INVALID_TYPE", field + " must be a string", field).toException();
        }
        return node.textValue();
    }
}
