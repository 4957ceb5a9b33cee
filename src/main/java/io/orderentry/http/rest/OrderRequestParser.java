package io.orderentry.http.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.orderentry.engine.OrderType;
import io.orderentry.engine.SelfTradePrevention;
import io.orderentry.engine.Side;
import io.orderentry.engine.TimeInForce;
import io.orderentry.http.ApiError;
import io.orderentry.http.ApiException;
import io.orderentry.instrument.Instrument;
import java.math.BigDecimal;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Turns a {@code POST /api/v1/orders} body into a {@link PlaceOrder}, or throws an
 * {@link ApiException} that says exactly what is wrong: 400 for what is malformed (not JSON, missing
 * field, wrong type, unknown enum value or field), 422 for what is well formed but not acceptable
 * (unknown symbol, off tick or lot, out of range, a combination the venue does not allow).
 *
 * <p>Stateless and thread-safe; called on the event loops.
 */
public final class OrderRequestParser {

    /** Account ids: 1-64 of [A-Za-z0-9_-]. */
    public static final Pattern ACCOUNT_ID = Pattern.compile("[A-Za-z0-9_-]{1,64}");
    /** Client order ids: 1-64 of [A-Za-z0-9_.:-]. */
    public static final Pattern CLIENT_ORDER_ID = Pattern.compile("[A-Za-z0-9_.:-]{1,64}");
    /** A plain decimal as text: digits, an optional fraction, no sign, exponent or spaces. */
    private static final Pattern DECIMAL_TEXT = Pattern.compile("[0-9]{1,40}(\\.[0-9]{1,40})?");
    /** Beyond this many integer digits or decimals a number is refused before any arithmetic. */
    private static final int MAX_DIGITS = 40;

    private static final Set<String> FIELDS = Set.of("accountId", "clientOrderId", "symbol", "side", "type",
            "timeInForce", "postOnly", "price", "quantity", "selfTradePrevention");

    private static final Set<String> AMEND_FIELDS = Set.of("price", "quantity");

    private final ObjectMapper mapper;
    private final Map<String, Instrument> instruments;
    private final FastOrderParser fast;
    private final SelfTradePrevention defaultStp;

    public OrderRequestParser(final ObjectMapper mapper, final Map<String, Instrument> instruments) {
        this(mapper, instruments, SelfTradePrevention.NONE);
    }

    /** @param defaultStp the self-trade prevention of an order whose body names none (ORDERS_ENGINE_STP_DEFAULT) */
    public OrderRequestParser(final ObjectMapper mapper, final Map<String, Instrument> instruments,
                              final SelfTradePrevention defaultStp) {
        this.mapper = mapper;
        this.instruments = Map.copyOf(instruments);
        this.defaultStp = defaultStp;
        this.fast = new FastOrderParser(this.instruments.values(), defaultStp);
    }

    /**
     * @return the validated order; throws {@link ApiException} for anything not acceptable. The common valid body
     *         is read by {@link FastOrderParser}; anything it does not take is read here, which answers every error
     */
    public PlaceOrder parse(final byte[] body) {
        return parse(body, true);
    }

    /**
     * As {@link #parse(byte[])}; with {@code accountRequired} false (the account comes from the API key) a body may
     * leave out accountId, and the order's account is then null. A present accountId is checked either way.
     */
    public PlaceOrder parse(final byte[] body, final boolean accountRequired) {
        final PlaceOrder common = fast.parse(body, accountRequired);
        return common != null ? common : parseFully(body, accountRequired);
    }

    /** The full parser alone, for tests that compare it with the fast path. */
    PlaceOrder parseFully(final byte[] body) {
        return parseFully(body, true);
    }

    /** The full parser alone, with the account optional or not. */
    PlaceOrder parseFully(final byte[] body, final boolean accountRequired) {
        return parse(readObject(body), accountRequired);
    }

    /**
     * As {@link #parse(byte[], boolean)} for an order that is one value of a larger document (an order of a batch):
     * the same rules and the same errors.
     */
    public PlaceOrder parse(final JsonNode root, final boolean accountRequired) {
        if (root == null || !root.isObject()) {
            throw ApiError.badRequest("INVALID_JSON", "an order must be a JSON object", null).toException();
        }
        for (final Iterator<String> names = root.fieldNames(); names.hasNext(); ) {
            final String name = names.next();
            if (!FIELDS.contains(name)) {
                throw ApiError.badRequest("UNKNOWN_FIELD", "unknown field '" + name + "'", name).toException();
            }
        }
        final String accountId = accountRequired || root.has("accountId")
                ? accountId(requiredText(root, "accountId")) : null;
        final String clientOrderId = clientOrderId(optionalText(root, "clientOrderId"));
        final String symbol = requiredText(root, "symbol");
        final Side side = enumValue(Side.class, requiredText(root, "side"), "side");
        final OrderType type = enumValue(OrderType.class, requiredText(root, "type"), "type");
        final String tifText = optionalText(root, "timeInForce");
        final TimeInForce timeInForce = tifText == null ? null : enumValue(TimeInForce.class, tifText, "timeInForce");
        final boolean postOnly = optionalBoolean(root, "postOnly");
        final String stpText = optionalText(root, "selfTradePrevention");
        final SelfTradePrevention stp = stpText == null ? defaultStp
                : enumValue(SelfTradePrevention.class, stpText, "selfTradePrevention");
        final BigDecimal quantity = decimal(root, "quantity", true);
        final BigDecimal price = decimal(root, "price", type == OrderType.LIMIT);

        final Instrument instrument = instruments.get(symbol);
        if (instrument == null) {
            throw ApiError.unprocessable("UNKNOWN_SYMBOL", "symbol '" + symbol + "' is not traded here; see "
                    + "GET /api/v1/symbols", "symbol").toException();
        }
        final TimeInForce tif = timeInForce(type, timeInForce, postOnly, price);
        final long lots = units(quantity, instrument.lotSize(), instrument.maxQuantity(), "quantity", "QUANTITY",
                "lot size " + instrument.lotSize().toPlainString());
        final long unitsPerTick = instrument.unitsPerTick();
        final long priceUnits = price == null ? 0
                : unitsPerTick * units(price, instrument.tickSize(), instrument.maxPrice() / unitsPerTick, "price",
                "PRICE", "tick size " + instrument.tickSize().toPlainString());
        return new PlaceOrder(accountId, clientOrderId, instrument, side, type, tif, postOnly, stp, priceUnits, lots);
    }

    /** @return the instrument with this symbol, or null */
    public Instrument instrument(final String symbol) {
        return instruments.get(symbol);
    }

    /** @return the instrument with this index, or null */
    public Instrument instrument(final int index) {
        for (final Instrument instrument : instruments.values()) {
            if (instrument.index() == index) {
                return instrument;
            }
        }
        return null;
    }

    /**
     * Turns a {@code PATCH /api/v1/orders/{orderId}} body ({@code {"quantity":"0.3"}} and/or {@code {"price":"..."}})
     * into engine units for the order's instrument, or throws an {@link ApiException} as {@link #parse} does. Whether
     * the new quantity is above what the order has filled is the engine's to say (it alone knows at that moment).
     */
    public AmendOrder parseAmend(final byte[] body, final Instrument instrument) {
        return parseAmend(readObject(body), instrument, Set.of());
    }

    /**
     * As {@link #parseAmend(byte[], Instrument)} for an amend that is part of a larger message (the stream's
     * {@code amend} op), whose own members {@code others} are not the amend's.
     */
    public AmendOrder parseAmend(final JsonNode root, final Instrument instrument, final Set<String> others) {
        for (final Iterator<String> names = root.fieldNames(); names.hasNext(); ) {
            final String name = names.next();
            if (!AMEND_FIELDS.contains(name) && !others.contains(name)) {
                throw ApiError.badRequest("UNKNOWN_FIELD", "unknown field '" + name + "'"
                        + (FIELDS.contains(name) ? ": an amend changes only quantity and price" : ""), name)
                        .toException();
            }
        }
        final BigDecimal quantity = decimal(root, "quantity", false);
        final BigDecimal price = decimal(root, "price", false);
        if (quantity == null && price == null) {
            throw ApiError.badRequest("MISSING_FIELD", "an amend needs quantity (the new total) and/or price",
                    "quantity").toException();
        }
        final long lots = quantity == null ? 0 : units(quantity, instrument.lotSize(), instrument.maxQuantity(),
                "quantity", "QUANTITY", "lot size " + instrument.lotSize().toPlainString());
        final long unitsPerTick = instrument.unitsPerTick();
        final long priceUnits = price == null ? 0
                : unitsPerTick * units(price, instrument.tickSize(), instrument.maxPrice() / unitsPerTick, "price",
                "PRICE", "tick size " + instrument.tickSize().toPlainString());
        return new AmendOrder(priceUnits, lots);
    }

    /**
     * An amend in engine units.
     *
     * @param price    the new price in price units, 0 to keep it
     * @param quantity the new total quantity in lots, 0 to keep it
     */
    public record AmendOrder(long price, long quantity) {
    }

    /**
     * @return the body as a JSON object, read with the requests' mapper
     * @throws ApiException 400 INVALID_JSON when it is not one
     */
    JsonNode readObject(final byte[] body) {
        final JsonNode root;
        try {
            root = body.length == 0 ? null : mapper.readTree(body);
        } catch (final JsonProcessingException e) {
            throw ApiError.badRequest("INVALID_JSON", "body is not valid JSON: " + e.getOriginalMessage(), null)
                    .toException();
        } catch (final java.io.IOException e) {
            throw ApiError.badRequest("INVALID_JSON", "body cannot be read: " + e.getMessage(), null).toException();
        }
        if (root == null || !root.isObject()) {
            throw ApiError.badRequest("INVALID_JSON", "body must be a JSON object", null).toException();
        }
        return root;
    }

    private static TimeInForce timeInForce(final OrderType type, final TimeInForce requested, final boolean postOnly,
                                           final BigDecimal price) {
        if (type == OrderType.MARKET) {
            if (price != null) {
                throw ApiError.unprocessable("PRICE_NOT_ALLOWED", "a MARKET order must not carry a price", "price")
                        .toException();
            }
            if (requested != null && requested != TimeInForce.IOC) {
                throw ApiError.unprocessable("INVALID_TIME_IN_FORCE", "a MARKET order is always IOC, not "
                        + requested, "timeInForce").toException();
            }
            if (postOnly) {
                throw ApiError.unprocessable("POST_ONLY_NOT_ALLOWED", "postOnly is only allowed with LIMIT GTC",
                        "postOnly").toException();
            }
            return TimeInForce.IOC;
        }
        final TimeInForce tif = requested == null ? TimeInForce.GTC : requested;
        if (postOnly && tif != TimeInForce.GTC) {
            throw ApiError.unprocessable("POST_ONLY_NOT_ALLOWED", "postOnly is only allowed with LIMIT GTC, not "
                    + tif, "postOnly").toException();
        }
        return tif;
    }

    /**
     * @return the amount as a whole number of units (ticks or lots)
     */
    private static long units(final BigDecimal amount, final BigDecimal unit, final long max, final String field,
                              final String codeStem, final String unitName) {
        if (amount.signum() <= 0) {
            throw ApiError.unprocessable("INVALID_" + codeStem, field + " must be greater than 0", field)
                    .toException();
        }
        final BigDecimal[] division = amount.divideAndRemainder(unit);
        if (division[1].signum() != 0) {
            throw ApiError.unprocessable(codeStem + "_NOT_ON_" + (codeStem.equals("PRICE") ? "TICK" : "LOT"),
                    field + " " + amount.toPlainString() + " is not a multiple of the " + unitName, field)
                    .toException();
        }
        if (division[0].compareTo(BigDecimal.valueOf(max)) > 0) {
            throw ApiError.unprocessable(codeStem + "_OUT_OF_RANGE", field + " " + amount.toPlainString()
                    + " is above the maximum of " + unit.multiply(BigDecimal.valueOf(max)).toPlainString(), field)
                    .toException();
        }
        return division[0].longValueExact();
    }

    private static BigDecimal decimal(final JsonNode root, final String field, final boolean required) {
        final JsonNode node = root.get(field);
        if (node == null || node.isNull()) {
            if (required) {
                throw missing(field);
            }
            return null;
        }
        final BigDecimal value;
        if (node.isTextual()) {
            final String text = node.textValue();
            if (!DECIMAL_TEXT.matcher(text).matches()) {
                final boolean negative = text.startsWith("-") && DECIMAL_TEXT.matcher(text.substring(1)).matches();
                if (negative) {
                    throw ApiError.unprocessable("INVALID_" + field.toUpperCase(java.util.Locale.ROOT),
                            field + " must be greater than 0", field).toException();
                }
                throw ApiError.badRequest("INVALID_NUMBER", field + " must be a decimal such as \"50000.25\", was \""
                        + abbreviate(text) + "\"", field).toException();
            }
            value = new BigDecimal(text);
        } else if (node.isNumber()) {
            value = node.decimalValue();
        } else {
            throw ApiError.badRequest("INVALID_TYPE", field + " must be a decimal string or a number", field)
                    .toException();
        }
        if (value.scale() > MAX_DIGITS || value.precision() - value.scale() > MAX_DIGITS) {
            throw ApiError.unprocessable(field.toUpperCase(java.util.Locale.ROOT) + "_OUT_OF_RANGE",
                    field + " has too many digits", field).toException();
        }
        return value;
    }

    private static String requiredText(final JsonNode root, final String field) {
        final String text = optionalText(root, field);
        if (text == null) {
            throw missing(field);
        }
        return text;
    }

    private static String optionalText(final JsonNode root, final String field) {
        final JsonNode node = root.get(field);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isTextual()) {
            throw ApiError.badRequest("INVALID_TYPE", field + " must be a string", field).toException();
        }
        return node.textValue();
    }

    private static boolean optionalBoolean(final JsonNode root, final String field) {
        final JsonNode node = root.get(field);
        if (node == null || node.isNull()) {
            return false;
        }
        if (!node.isBoolean()) {
            throw ApiError.badRequest("INVALID_TYPE", field + " must be true or false", field).toException();
        }
        return node.booleanValue();
    }

    private static String accountId(final String value) {
        if (!ACCOUNT_ID.matcher(value).matches()) {
            throw ApiError.badRequest("INVALID_ACCOUNT_ID", "accountId must be 1-64 of [A-Za-z0-9_-]", "accountId")
                    .toException();
        }
        return value;
    }

    private static String clientOrderId(final String value) {
        if (value != null && !CLIENT_ORDER_ID.matcher(value).matches()) {
            throw ApiError.badRequest("INVALID_CLIENT_ORDER_ID", "clientOrderId must be 1-64 of [A-Za-z0-9_.:-]",
                    "clientOrderId").toException();
        }
        return value;
    }

    private static <E extends Enum<E>> E enumValue(final Class<E> type, final String text, final String field) {
        for (final E constant : type.getEnumConstants()) {
            if (constant.name().equals(text)) {
                return constant;
            }
        }
        throw ApiError.badRequest("INVALID_ENUM", field + " must be one of "
                + java.util.Arrays.toString(type.getEnumConstants()) + ", was \"" + abbreviate(text) + "\"", field)
                .toException();
    }

    private static ApiException missing(final String field) {
        return ApiError.badRequest("MISSING_FIELD", field + " is required", field).toException();
    }

    private static String abbreviate(final String text) {
        return text.length() <= 40 ? text : text.substring(0, 40) + "...";
    }
}
