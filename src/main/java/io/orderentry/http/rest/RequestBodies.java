package io.orderentry.http.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.orderentry.http.ApiError;
import java.io.IOException;
import java.util.Iterator;
import java.util.Set;

/** What the small request bodies share: one JSON object, of known fields only, or a 400 that says what is wrong. */
final class RequestBodies {

    private RequestBodies() {
    }

    /**
     * @return the body as a JSON object
     * @throws io.orderentry.http.ApiException 400 INVALID_JSON (not JSON, not one object) or UNKNOWN_FIELD
     */
    static JsonNode object(final ObjectMapper mapper, final byte[] body, final Set<String> fields) {
        final JsonNode root;
        try {
            root = body.length == 0 ? null : mapper.readTree(body);
        } catch (final JsonProcessingException e) {
            throw ApiError.badRequest("INVALID_JSON", "body is not valid JSON: " + e.getOriginalMessage(), null)
                    .toException();
        } catch (final IOException e) {
            throw ApiError.badRequest("INVALID_JSON", "body cannot be read: " + e.getMessage(), null).toException();
        }
        if (root == null || !root.isObject()) {
            throw ApiError.badRequest("INVALID_JSON", "body must be a JSON object", null).toException();
        }
        for (final Iterator<String> names = root.fieldNames(); names.hasNext(); ) {
            final String name = names.next();
            if (!fields.contains(name)) {
                throw ApiError.badRequest("UNKNOWN_FIELD", "unknown field '" + name + "'", name).toException();
            }
        }
        return root;
    }
}
