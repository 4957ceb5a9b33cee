package io.orderentry.http.rest;

import static io.orderentry.testing.ApiClient.limit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.orderentry.testing.ApiClient.Answer;
import io.orderentry.testing.ApiClient;
import io.orderentry.testing.RunningService;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every malformed or unacceptable request gets its documented status and code in the one error shape,
 * and changes nothing: no order, no id consumed, no journal record, the book as it was.
 */
class BadInputTest {

    @TempDir
    static Path dir;
    private static RunningService service;
    private static ApiClient api;

    @BeforeAll
    static void start() {
        service = RunningService.start(dir, Map.of());
        api = service.client();
    }

    @AfterAll
    static void stop() {
        service.close();
    }

    private record Case(String name, String body, int status, String code) {
    }

    private static final String BASE = "\"accountId\":\"acct-1\",\"symbol\":\"BTCUSD\",\"side\":\"BUY\"";

    private static final List<Case> CASES = List.of(
            new Case("malformed JSON", "{\"accountId\":", 400, "INVALID_JSON"),
            new Case("not an object", "[1,2]", 400, "INVALID_JSON"),
            new Case("empty body", "", 400, "INVALID_JSON"),
            new Case("NaN literal", "{" + BASE + ",\"type\":\"LIMIT\",\"price\":NaN,\"quantity\":\"1\"}", 400, "INVALID_JSON"),
            new Case("missing accountId", "{\"symbol\":\"BTCUSD\",\"side\":\"BUY\",\"type\":\"LIMIT\",\"price\":\"1\",\"quantity\":\"1\"}", 400, "MISSING_FIELD"),
            new Case("quantity wrong type", "{" + BASE + ",\"type\":\"LIMIT\",\"price\":\"1\",\"quantity\":[1]}", 400, "INVALID_TYPE"),
            new Case("side unknown", "{\"accountId\":\"a\",\"symbol\":\"BTCUSD\",\"side\":\"HOLD\",\"type\":\"LIMIT\",\"price\":\"1\",\"quantity\":\"1\"}", 400, "INVALID_ENUM"),
            new Case("type unknown", "{" + BASE + ",\"type\":\"STOP\",\"price\":\"1\",\"quantity\":\"1\"}", 400, "INVALID_ENUM"),
            new Case("unknown field", "{" + BASE + ",\"type\":\"LIMIT\",\"price\":\"1\",\"quantity\":\"1\",\"leverage\":5}", 400, "UNKNOWN_FIELD"),
            new Case("NaN string", "{" + BASE + ",\"type\":\"LIMIT\",\"price\":\"NaN\",\"quantity\":\"1\"}", 400, "INVALID_NUMBER"),
            new Case("over-long accountId", "{\"accountId\":\"" + "a".repeat(65) + "\",\"symbol\":\"BTCUSD\",\"side\":\"BUY\",\"type\":\"LIMIT\",\"price\":\"1\",\"quantity\":\"1\"}", 400, "INVALID_ACCOUNT_ID"),
            new Case("over-long clientOrderId", "{" + BASE + ",\"clientOrderId\":\"" + "c".repeat(65) + "\",\"type\":\"LIMIT\",\"price\":\"1\",\"quantity\":\"1\"}", 400, "INVALID_CLIENT_ORDER_ID"),
            new Case("unknown symbol", "{\"accountId\":\"a\",\"symbol\":\"XYZ\",\"side\":\"BUY\",\"type\":\"LIMIT\",\"price\":\"1\",\"quantity\":\"1\"}", 422, "UNKNOWN_SYMBOL"),
            new Case("price with too many decimals", "{" + BASE + ",\"type\":\"LIMIT\",\"price\":\"1.001\",\"quantity\":\"1\"}", 422, "PRICE_NOT_ON_TICK"),
            new Case("quantity with too many decimals", "{" + BASE + ",\"type\":\"LIMIT\",\"price\":\"1\",\"quantity\":0.00001}", 422, "QUANTITY_NOT_ON_LOT"),
            new Case("huge quantity", "{" + BASE + ",\"type\":\"LIMIT\",\"price\":\"1\",\"quantity\":123456789012345678901234567890}", 422, "QUANTITY_OUT_OF_RANGE"),
            new Case("huge price", "{" + BASE + ",\"type\":\"LIMIT\",\"price\":\"99999999999\",\"quantity\":\"1\"}", 422, "PRICE_OUT_OF_RANGE"),
            new Case("zero quantity", "{" + BASE + ",\"type\":\"LIMIT\",\"price\":\"1\",\"quantity\":\"0\"}", 422, "INVALID_QUANTITY"),
            new Case("negative price", "{" + BASE + ",\"type\":\"LIMIT\",\"price\":-1,\"quantity\":\"1\"}", 422, "INVALID_PRICE"),
            new Case("market with price", "{" + BASE + ",\"type\":\"MARKET\",\"price\":\"1\",\"quantity\":\"1\"}", 422, "PRICE_NOT_ALLOWED"),
            new Case("market with GTC", "{" + BASE + ",\"type\":\"MARKET\",\"timeInForce\":\"GTC\",\"quantity\":\"1\"}", 422, "INVALID_TIME_IN_FORCE"),
            new Case("postOnly with IOC", "{" + BASE + ",\"type\":\"LIMIT\",\"timeInForce\":\"IOC\",\"postOnly\":true,\"price\":\"1\",\"quantity\":\"1\"}", 422, "POST_ONLY_NOT_ALLOWED"),
            new Case("body over 16 KiB", "{" + BASE + ",\"type\":\"LIMIT\",\"price\":\"1\",\"quantity\":\"1\",\"pad\":\"" + "x".repeat(17 * 1024) + "\"}", 413, "BODY_TOO_LARGE"));

    @Test
    void everyBadRequestGetsItsStatusAndCodeAndChangesNothing() {
        final long restingId = placed(limit("acct-1", "keep", "BTCUSD", "BUY", "100.00", "1", null));
        final String before = state();

        for (final Case c : CASES) {
            final Answer answer = api.post("/api/v1/orders", c.body());
            assertEquals(c.status(), answer.status(), c.name() + ": " + answer.body());
            assertNotNull(answer.json(), c.name() + " answers JSON: " + answer.body());
            assertEquals(c.code(), answer.errorCode(), c.name());
            assertNotNull(answer.json().get("error").get("message"), c.name());
        }

        assertEquals(before, state(), "bad input changed the open orders or the journal");
        final long next = placed(limit("acct-1", null, "BTCUSD", "BUY", "99.00", "1", null));
        assertEquals(restingId + 1, next, "bad input consumed an order id");
    }

    @Test
    void bodyDeclaredLargerThan16KiBIsRefusedBeforeReading() {
        final Answer answer = api.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + service.port()
                + "/api/v1/orders")).POST(HttpRequest.BodyPublishers.ofByteArray(new byte[64 * 1024])));
        assertEquals(413, answer.status());
        assertEquals("BODY_TOO_LARGE", answer.errorCode());
    }

    @Test
    void bodyWithoutALengthIsCountedAsItArrivesAndRefusedPast16KiB() {
        final Answer answer = api.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + service.port()
                + "/api/v1/orders")).POST(HttpRequest.BodyPublishers.ofInputStream(
                        () -> new java.io.ByteArrayInputStream(new byte[64 * 1024]))));
        assertEquals(413, answer.status());
        assertEquals("BODY_TOO_LARGE", answer.errorCode());
    }

    @Test
    void bodyWithoutALengthIsReadWholeBeforeItIsParsed() {
        final byte[] body = limit("acct-c", null, "ETHUSD", "SELL", "9000.00", "1", null)
                .getBytes(java.nio.charset.StandardCharsets.UTF_8);
        final Answer answer = api.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + service.port()
                + "/api/v1/orders")).POST(HttpRequest.BodyPublishers.ofInputStream(
                        () -> new java.io.ByteArrayInputStream(body))));
        assertEquals(201, answer.status(), answer.body());
    }

    @Test
    void formContentTypeIsStillParsedAsJson() {
        final Answer answer = api.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + service.port()
                + "/api/v1/orders")).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(limit("acct-f", null, "ETHUSD", "SELL", "9000.00", "1", null))));
        assertEquals(201, answer.status(), answer.body());
    }

    /** Open orders of the test account plus the last journaled sequence. */
    private static String state() {
        final JsonNode open = api.get("/api/v1/orders?accountId=acct-1").json();
        final String metrics = api.get("/metrics").body();
        final double journal = Double.parseDouble(metrics.lines()
                .filter(l -> l.startsWith("orders_journal_last_sequence ")).findFirst().orElseThrow().split(" ")[1]);
        assertTrue(journal >= 1, "the journal figure must be real for the comparison to mean anything: " + journal);
        return open.toString() + "|journal sequence " + (long) journal;
    }

    private static long placed(final String body) {
        final Answer answer = api.post("/api/v1/orders", body);
        assertEquals(201, answer.status(), answer.body());
        return answer.json().get("orderId").asLong();
    }
}
