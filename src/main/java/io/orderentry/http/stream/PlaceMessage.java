package io.orderentry.http.stream;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.Arrays;

/**
 * The stream's hot message, {@code {"op":"place","id":...,"order":{...}}}, read without a JSON tree: one pass of a
 * streaming parser over the message's bytes that finds the id and the order's bytes, which then go to the same parser
 * as a REST body ({@code OrderRequestParser}, whose fast path reads the common order without a tree either).
 *
 * <p>It takes only that exact shape: the three members once each, in any order, an id of 1-64 of
 * {@code [A-Za-z0-9_.:-]} or an integer, the order an object, nothing after the message. Anything else, valid or not,
 * is {@code null}, and the caller reads the message the usual way, which answers every error: so this never
 * answers differently from the tree.
 *
 * @param id    the JSON text of the id, as the answer echoes it ({@code "r-1"} with its quotes, or the integer)
 * @param order the order object's bytes
 */
record PlaceMessage(String id, byte[] order) {

    /** The longest request id. */
    static final int MAX_ID_LENGTH = 64;

    /**
     * @param factory the request mapper's factory (its strict duplicate detection applies)
     * @return the place message, or null when {@code bytes} is anything else
     */
    static PlaceMessage read(final JsonFactory factory, final byte[] bytes) {
        try (JsonParser parser = factory.createParser(bytes)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            boolean place = false;
            String id = null;
            int from = -1;
            int to = -1;
            JsonToken token;
            while ((token = parser.nextToken()) == JsonToken.FIELD_NAME) {
                final String name = parser.currentName();
                final JsonToken value = parser.nextToken();
                switch (name) {
                    case "op" -> {
                        if (value != JsonToken.VALUE_STRING || !"place".equals(parser.getText()) || place) {
                            return null;
                        }
                        place = true;
                    }
                    case "id" -> {
                        if (id != null) {
                            return null;
                        }
                        id = idText(parser, value);
                        if (id == null) {
                            return null;
                        }
                    }
                    case "order" -> {
                        if (value != JsonToken.START_OBJECT || from >= 0) {
                            return null;
                        }
                        from = (int) parser.currentTokenLocation().getByteOffset();
                        parser.skipChildren();
                        to = (int) parser.currentLocation().getByteOffset();
                    }
                    default -> {
                        return null;
                    }
                }
            }
            if (token != JsonToken.END_OBJECT || parser.nextToken() != null || !place || id == null || from < 0
                    || to <= from || to > bytes.length) {
                return null;
            }
            return new PlaceMessage(id, Arrays.copyOfRange(bytes, from, to));
        } catch (final IOException | RuntimeException e) {
            return null;    // malformed, or a number too large: the tree reads it and answers the error
        }
    }

    /** @return whether {@code id} is 1-64 of {@code [A-Za-z0-9_.:-]} */
    static boolean validId(final String id) {
        final int n = id.length();
        if (n == 0 || n > MAX_ID_LENGTH) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            final char c = id.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.'
                    || c == ':' || c == '-')) {
                return false;
            }
        }
        return true;
    }

    private static String idText(final JsonParser parser, final JsonToken value) throws IOException {
        if (value == JsonToken.VALUE_STRING) {
            final String text = parser.getText();
            return validId(text) ? "\"" + text + "\"" : null;
        }
        if (value == JsonToken.VALUE_NUMBER_INT && parser.getNumberType() != JsonParser.NumberType.BIG_INTEGER) {
            return Long.toString(parser.getLongValue());
        }
        return null;
    }
}
