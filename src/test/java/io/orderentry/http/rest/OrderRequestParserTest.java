package io.orderentry.http.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.orderentry.app.ConfigLoader;
import io.orderentry.engine.OrderType;
import io.orderentry.engine.SelfTradePrevention;
import io.orderentry.engine.Side;
import io.orderentry.engine.TimeInForce;
import io.orderentry.http.ApiError;
import io.orderentry.http.ApiException;
import io.orderentry.http.json.Json;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class OrderRequestParserTest {

    private final Json json = new Json(ConfigLoader.load(Map.of()).instruments());
    private final OrderRequestParser parser = new OrderRequestParser(json.mapper(),
            ConfigLoader.load(Map.of()).instrumentsBySymbol());

    private PlaceOrder parse(final String body) {
        return parser.parse(body.getBytes(StandardCharsets.UTF_8));
    }

    private ApiError reject(final String body) {
        return assertThrows(ApiException.class, () -> parse(body)).error();
    }

    private static String order(final String fields) {
        return "{\"accountId\":\"acct-1\",\"symbol\":\"BTCUSD\",\"side\":\"BUY\",\"type\":\"LIMIT\"," + fields + "}";
    }

    @Test
    void selfTradePreventionIsTheBodysModeElseTheVenuesDefault() {
        assertEquals(SelfTradePrevention.NONE, parse(order("\"price\":\"1\",\"quantity\":\"1\"")).selfTradePrevention());
        assertEquals(SelfTradePrevention.EXPIRE_MAKER, parse(order(
                "\"price\":\"1\",\"quantity\":\"1\",\"selfTradePrevention\":\"EXPIRE_MAKER\"")).selfTradePrevention());
        final OrderRequestParser expiring = new OrderRequestParser(json.mapper(),
                ConfigLoader.load(Map.of()).instrumentsBySymbol(), SelfTradePrevention.EXPIRE_TAKER);
        assertEquals(SelfTradePrevention.EXPIRE_TAKER, expiring.parse(order("\"price\":\"1\",\"quantity\":\"1\"")
                .getBytes(StandardCharsets.UTF_8)).selfTradePrevention(), "the default, by the fast parser");
        assertEquals(SelfTradePrevention.EXPIRE_TAKER, expiring.parseFully(order("\"price\":\"1\",\"quantity\":\"1\"")
                .getBytes(StandardCharsets.UTF_8)).selfTradePrevention(), "the default, by the full parser");
        assertEquals(SelfTradePrevention.NONE, expiring.parse(order(
                "\"price\":\"1\",\"quantity\":\"1\",\"selfTradePrevention\":\"NONE\"").getBytes(StandardCharsets.UTF_8))
                .selfTradePrevention(), "an order's own mode wins over the default");
        final ApiError unknown = reject(order("\"price\":\"1\",\"quantity\":\"1\",\"selfTradePrevention\":\"DECREMENT\""));
        assertEquals("INVALID_ENUM", unknown.code());
        assertEquals("selfTradePrevention", unknown.field());
    }

    @Test
    void anAmendIsConvertedWithTheOrdersInstrumentAndNeedsAQuantityOrAPrice() {
        final io.orderentry.instrument.Instrument btc = parser.instrument("BTCUSD");
        assertEquals(new OrderRequestParser.AmendOrder(5_000_025L, 3_000L),
                parser.parseAmend("{\"price\":\"50000.25\",\"quantity\":0.3}".getBytes(StandardCharsets.UTF_8), btc));
        assertEquals(new OrderRequestParser.AmendOrder(0, 3_000L),
                parser.parseAmend("{\"quantity\":\"0.3\"}".getBytes(StandardCharsets.UTF_8), btc), "0 keeps the price");
        final Map<String, String> refused = Map.of("{}", "MISSING_FIELD", "{\"side\":\"BUY\"}", "UNKNOWN_FIELD",
                "{\"quantity\":\"0.00001\"}", "QUANTITY_NOT_ON_LOT", "{\"price\":\"0.001\"}", "PRICE_NOT_ON_TICK",
                "{\"quantity\":\"0\"}", "INVALID_QUANTITY", "[1]", "INVALID_JSON", "{\"price\":null,\"quantity\":null}",
                "MISSING_FIELD");
        refused.forEach((body, code) -> assertEquals(code, assertThrows(ApiException.class,
                () -> parser.parseAmend(body.getBytes(StandardCharsets.UTF_8), btc)).error().code(), body));
    }

    @Test
    void limitOrderIsConvertedToTicksAndLots() {
        final PlaceOrder order = parse(order("\"clientOrderId\":\"c-42\",\"price\":\"50000.25\",\"quantity\":\"0.5\""));
        assertEquals(5_000_025L, order.price());
        assertEquals(5_000L, order.quantity());
        assertEquals(Side.BUY, order.side());
        assertEquals(OrderType.LIMIT, order.type());
        assertEquals(TimeInForce.GTC, order.timeInForce(), "GTC is the default for LIMIT");
        assertEquals("c-42", order.clientOrderId());
    }

    @Test
    void jsonNumbersAreReadExactlyNotAsBinaryFloatingPoint() {
        final PlaceOrder order = parse(order("\"price\":0.1,\"quantity\":0.0003"));
        assertEquals(10L, order.price());
        assertEquals(3L, order.quantity());
    }

    @Test
    void marketOrderDefaultsToIocAndCarriesNoPrice() {
        final PlaceOrder order = parse("{\"accountId\":\"a\",\"symbol\":\"ETHUSD\",\"side\":\"SELL\",\"type\":\"MARKET\","
                + "\"quantity\":\"1.5\"}");
        assertEquals(TimeInForce.IOC, order.timeInForce());
        assertEquals(0L, order.price());
        assertEquals(1_500L, order.quantity());
        assertNull(order.clientOrderId());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "not json                 | {nope                                                         | 400 | INVALID_JSON          |",
        "array body               | []                                                            | 400 | INVALID_JSON          |",
        "empty body               | ''                                                            | 400 | INVALID_JSON          |",
        "NaN literal              | {\"accountId\":\"a\",\"price\":NaN}                           | 400 | INVALID_JSON          |",
        "duplicate key            | {\"accountId\":\"a\",\"accountId\":\"b\"}                     | 400 | INVALID_JSON          |",
        "bytes after the object   | {\"accountId\":\"a\"}xyz                                        | 400 | INVALID_JSON          |",
        "two objects              | {\"accountId\":\"a\"}{\"accountId\":\"b\"}                      | 400 | INVALID_JSON          |",
        "missing account          | {\"symbol\":\"BTCUSD\"}                                       | 400 | MISSING_FIELD         | accountId",
        "account not a string     | {\"accountId\":7}                                             | 400 | INVALID_TYPE          | accountId",
        "unknown field            | {\"accountId\":\"a\",\"sidee\":\"BUY\"}                       | 400 | UNKNOWN_FIELD         | sidee",
    })
    void malformedBodiesAreRefusedWithACode(final String name, final String body, final int status,
                                            final String code, final String field) {
        final ApiError error = reject(body);
        assertEquals(status, error.status());
        assertEquals(code, error.code());
        assertEquals(field, error.field());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "lowercase side              | \"side\":\"buy\"                                  | 400 | INVALID_ENUM           | side",
        "unknown time in force       | \"timeInForce\":\"GTD\"                           | 400 | INVALID_ENUM           | timeInForce",
        "postOnly not boolean        | \"postOnly\":\"yes\"                              | 400 | INVALID_TYPE           | postOnly",
        "price NaN string            | \"price\":\"NaN\"                                 | 400 | INVALID_NUMBER         | price",
        "price with exponent string  | \"price\":\"1e5\"                                 | 400 | INVALID_NUMBER         | price",
        "price as boolean            | \"price\":true                                    | 400 | INVALID_TYPE           | price",
        "price too many decimals     | \"price\":\"100.001\"                             | 422 | PRICE_NOT_ON_TICK      | price",
        "quantity too many decimals  | \"quantity\":\"0.00001\"                          | 422 | QUANTITY_NOT_ON_LOT    | quantity",
        "zero quantity               | \"quantity\":\"0\"                                | 422 | INVALID_QUANTITY       | quantity",
        "negative quantity string    | \"quantity\":\"-1\"                               | 422 | INVALID_QUANTITY       | quantity",
        "negative price number       | \"price\":-5                                      | 422 | INVALID_PRICE          | price",
        "huge quantity               | \"quantity\":\"99999999999999999999999999\"       | 422 | QUANTITY_OUT_OF_RANGE  | quantity",
        "huge exponent number        | \"quantity\":1e999999999                          | 422 | QUANTITY_OUT_OF_RANGE  | quantity",
        "price above maximum         | \"price\":\"10000000.01\"                         | 422 | PRICE_OUT_OF_RANGE     | price",
        "postOnly with IOC           | \"timeInForce\":\"IOC\",\"postOnly\":true         | 422 | POST_ONLY_NOT_ALLOWED  | postOnly",
        "postOnly with FOK           | \"timeInForce\":\"FOK\",\"postOnly\":true         | 422 | POST_ONLY_NOT_ALLOWED  | postOnly",
    })
    void limitOrderFieldsAreChecked(final String name, final String override, final int status, final String code,
                                    final String field) {
        final String body = "{\"accountId\":\"a\",\"symbol\":\"BTCUSD\",\"side\":\"BUY\",\"type\":\"LIMIT\","
                + "\"price\":\"100.00\",\"quantity\":\"1\"," + override + "}";
        final String deduplicated = dropOverridden(body);
        final ApiError error = reject(deduplicated);
        assertEquals(status, error.status(), error.message());
        assertEquals(code, error.code(), error.message());
        assertEquals(field, error.field());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "market with price        | \"price\":\"1.00\"               | PRICE_NOT_ALLOWED      | price",
        "market with GTC          | \"timeInForce\":\"GTC\"          | INVALID_TIME_IN_FORCE  | timeInForce",
        "market with FOK          | \"timeInForce\":\"FOK\"          | INVALID_TIME_IN_FORCE  | timeInForce",
        "market postOnly          | \"postOnly\":true                | POST_ONLY_NOT_ALLOWED  | postOnly",
    })
    void marketOrderCombinationsTheVenueDoesNotAllowAre422(final String name, final String extra, final String code,
                                                          final String field) {
        final ApiError error = reject("{\"accountId\":\"a\",\"symbol\":\"BTCUSD\",\"side\":\"BUY\",\"type\":\"MARKET\","
                + "\"quantity\":\"1\"," + extra + "}");
        assertEquals(422, error.status());
        assertEquals(code, error.code());
        assertEquals(field, error.field());
    }

    @Test
    void limitWithoutPriceAndOrderWithoutQuantityAreMissingFields() {
        final ApiError noPrice = reject(order("\"quantity\":\"1\""));
        assertEquals("MISSING_FIELD", noPrice.code());
        assertEquals("price", noPrice.field());
        final ApiError noQuantity = reject(order("\"price\":\"1\""));
        assertEquals("MISSING_FIELD", noQuantity.code());
        assertEquals("quantity", noQuantity.field());
    }

    @Test
    void unknownSymbolIs422() {
        final ApiError error = reject("{\"accountId\":\"a\",\"symbol\":\"DOGEUSD\",\"side\":\"BUY\",\"type\":\"LIMIT\","
                + "\"price\":\"1\",\"quantity\":\"1\"}");
        assertEquals(422, error.status());
        assertEquals("UNKNOWN_SYMBOL", error.code());
    }

    @Test
    void idsLongerThan64CharactersOrWithOtherCharactersAreRefused() {
        final String longId = "x".repeat(65);
        assertEquals("INVALID_ACCOUNT_ID", reject("{\"accountId\":\"" + longId + "\"}").code());
        assertEquals("INVALID_ACCOUNT_ID", reject("{\"accountId\":\"a b\"}").code());
        final ApiError clientId = reject(order("\"clientOrderId\":\"" + longId + "\",\"price\":\"1\",\"quantity\":\"1\""));
        assertEquals("INVALID_CLIENT_ORDER_ID", clientId.code());
        assertEquals(400, clientId.status());
        assertTrue(parse(order("\"clientOrderId\":\"" + "y".repeat(64) + "\",\"price\":\"1\",\"quantity\":\"1\""))
                .clientOrderId().length() == 64, "64 characters is the documented maximum");
    }

    /** Keeps the last occurrence of each key so that an override replaces the base field. */
    private static String dropOverridden(final String body) {
        final com.fasterxml.jackson.databind.ObjectMapper lenient = new com.fasterxml.jackson.databind.ObjectMapper();
        lenient.enable(com.fasterxml.jackson.databind.DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
        lenient.setNodeFactory(com.fasterxml.jackson.databind.node.JsonNodeFactory.withExactBigDecimals(true));
        try {
            return lenient.writeValueAsString(lenient.readTree(body));
        } catch (final java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
