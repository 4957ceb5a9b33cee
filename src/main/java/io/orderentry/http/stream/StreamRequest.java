package io.orderentry.http.stream;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.orderentry.http.ApiError;
import io.orderentry.http.ApiException;
import io.orderentry.http.json.OrderFeedJson;
import io.orderentry.http.rest.OrderRequestParser;
import io.orderentry.instrument.Instrument;
import io.orderentry.marketdata.Channel;
import java.util.Map;

/**
 * One message a stream client sent: {@code {"op":"subscribe"|"unsubscribe","channel":"book"|"trades"|"ticker","symbol":"BTCUSD"}},
 * or for the private channel {@code {"op":"subscribe"|"unsubscribe","channel":"orders","apiKey":"<secret>"}} (the key
 * may instead come in the upgrade's {@code Authorization} header) or, with authentication off,
 * {@code {"op":...,"channel":"orders","accountId":"acct-1"}}. Unknown fields are ignored so clients may add their own
 * (an id, say).
 *
 * @param channel   the market data channel, or null for the private {@code orders} channel
 * @param symbol    the instrument index; -1 for the orders channel
 * @param apiKey    orders channel: the secret the message carried, or null
 * @param accountId orders channel: the account the message named (well formed), or null
 */
record StreamRequest(Op op, Channel channel, int symbol, String apiKey, String accountId) {

    /** @return whether this is a request of the private {@code orders} channel */
    boolean orders() {
        return channel == null;
    }

    /** Never shows the secret. */
    @Override
    public String toString() {
        return "StreamRequest[op=" + op + ", channel=" + (orders() ? "orders" : channel) + ", symbol=" + symbol
                + ", apiKey=" + (apiKey == null ? "none" : "(given)") + ", accountId=" + accountId + "]";
    }

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
     * @throws ApiException with INVALID_JSON, MISSING_FIELD, INVALID_TYPE, UNKNOWN_OP, UNKNOWN_CHANNEL, UNKNOWN_SYMBOL
     *                      or INVALID_ACCOUNT_ID
     */
    static StreamRequest parse(final ObjectMapper mapper, final Map<String, Instrument> instruments,
                               final String text) {
        return parse(read(mapper, text), instruments);
    }

    /**
     * @return one text message as a JSON object
     * @throws ApiException with INVALID_JSON
     */
    static JsonNode read(final ObjectMapper mapper, final String text) {
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
        return root;
    }

    /**
     * Reads a subscription's message, already read as a JSON object.
     *
     * @throws ApiException as {@link #parse(ObjectMapper, Map, String)}
     */
    static StreamRequest parse(final JsonNode root, final Map<String, Instrument> instruments) {
        final String opName = text(root, "op");
        final Op op = Op.byWireName(opName);
        if (op == null) {
            throw ApiError.badRequest("UNKNOWN_OP", "op must be subscribe, unsubscribe, login, place, cancel, amend or"
                    + " cancelAll, was '" + opName + "'", "op").toException();
        }
        final String channelName = text(root, "channel");
        if (OrderFeedJson.CHANNEL.equals(channelName)) {
            final String accountId = optionalText(root, "accountId");
            if (accountId != null && !OrderRequestParser.ACCOUNT_ID.matcher(accountId).matches()) {
                throw ApiError.badRequest("INVALID_ACCOUNT_ID", "accountId must be 1-64 of [A-Za-z0-9_-]",
                        "accountId").toException();
            }
            return new StreamRequest(op, null, -1, optionalText(root, "apiKey"), accountId);
        }
        final Channel channel = Channel.byWireName(channelName);
        if (channel == null) {
            throw ApiError.badRequest("UNKNOWN_CHANNEL", "channel must be book, trades, ticker or orders, was '"
                    + channelName + "'", "channel").toException();
        }
        final String symbolName = text(root, "symbol");
        final Instrument instrument = instruments.get(symbolName);
        if (instrument == null) {
            throw ApiError.badRequest("UNKNOWN_SYMBOL", "no instrument " + symbolName + "; see /api/v1/symbols",
                    "symbol").toException();
        }
        return new StreamRequest(op, channel, instrument.index(), null, null);
    }

    /** @return the field's text, or null when it is absent or null */
    private static String optionalText(final JsonNode root, final String field) {
        final JsonNode node = root.get(field);
        return node == null || node.isNull() ? null : text(root, field);
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
