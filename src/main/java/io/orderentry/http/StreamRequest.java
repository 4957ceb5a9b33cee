package io.orderentry.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.orderentry.app.Instrument;
import io.orderentry.marketdata.Channel;
import java.util.Map;

/**
 * One message a stream client sent: {@code {"op":"subscribe"|"unsubscribe","channel":"book"|"trades"|"ticker","symbol":"BTCUSD"}}.
 * Unknown fields are ignored so clients may add their own (an id, say).
 *
 * @param symbol the instrument index
 */
record StreamRequest(Op op, Channel channel, int symbol) {

    /** What the client asks for. */
    enum Op {
        SUBSCRIBE("subscribe"),
        UNSUBSCRIBE("unsubscribe");

        private final String wireName;

        Op(final String wireName) {
            this.wireName = wireName;
        }

        static Op byWireName(final String name) {
            for (final Op op : values()) {
                if (op.wireName.equals(name)) {
                    return op;
                }
            }
            return null;
        }
    }

    /**
     * Parses one text message. Called on an event loop.
     *
     * @throws ApiException with INVALID_JSON, MISSING_FIELD, INVALID_TYPE, UNKNOWN_OP, UNKNOWN_CHANNEL or UNKNOWN_SYMBOL
     */
    static StreamRequest parse(final ObjectMapper mapper, final Map<String, Instrument> instruments,
                               final String text) {
        final JsonNode root;
        try {
            root = mapper.readTree(text);
        } catch (final JsonProcessingException e) {
            throw ApiError.badRequest("INVALID_JSON", "the message is not valid JSON: " + e.getOriginalMessage(),
                    null).toException();
        }
        if (root == null || !root.isObject()) {
            throw ApiError.badRequest("INVALID_JSON", "the message must be a JSON object", null).toException();
        }
        final String opName = text(root, "op");
        final Op op = Op.byWireName(opName);
        if (op == null) {
            throw ApiError.badRequest("UNKNOWN_OP", "op must be subscribe or unsubscribe, was '" + opName + "'",
                    "op").toException();
        }
        final String channelName = text(root, "channel");
        final Channel channel = Channel.byWireName(channelName);
        if (channel == null) {
            throw ApiError.badRequest("UNKNOWN_CHANNEL", "channel must be book, trades or ticker, was '"
                    + channelName + "'", "channel").toException();
        }
        final String symbolName = text(root, "symbol");
        final Instrument instrument = instruments.get(symbolName);
        if (instrument == null) {
            throw ApiError.badRequest("UNKNOWN_SYMBOL", "no instrument " + symbolName + "; see /api/v1/symbols",
                    "symbol").toException();
        }
        return new StreamRequest(op, channel, instrument.index());
    }

    private static String text(final JsonNode root, final String field) {
        final JsonNode node = root.get(field);
        if (node == null || node.isNull()) {
            throw ApiError.badRequest("MISSING_FIELD", field + " is required", field).toException();
        }
        if (!node.isTextual()) {
            throw ApiError.badRequest("INVALID_TYPE", field + " must be a string", field).toException();
        }
        return node.textValue();
    }
}
