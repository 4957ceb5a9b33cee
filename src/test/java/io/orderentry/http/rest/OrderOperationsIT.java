package io.orderentry.http.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.orderentry.testing.ApiClient.Answer;
import io.orderentry.testing.ApiClient;
import io.orderentry.testing.ServiceProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every status and code of API.md's "Order operations" against the real jar, with API keys: amend (priority kept or
 * lost, trading at once, postOnly, quantity at or below the filled, not open, unknown or another account's order, bad
 * bodies, outside the band), cancel-all (all, one symbol, none, unknown symbol, another account), self-trade
 * prevention in each mode, price bands for LIMIT and MARKET orders, and the dead man's switch (fires, is kept off by
 * refreshes, is disarmed by 0, refuses bad timeouts). Each test trades in an instrument of its own, so that the last
 * trade price (the band's reference) and the books of one test never meet another's.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OrderOperationsIT {

    private static final int SYMBOLS = 24;

    @TempDir
    static Path dir;
    private ServiceProcess service;
    private String alice;
    private String bob;
    private String aliceReader;
    private String carol;
    private String dave;
    private int nextSymbol;

    @BeforeAll
    void start() {
        final Path keys = dir.resolve("keys");
        alice = ServiceProcess.createKey(keys, "alice");
        bob = ServiceProcess.createKey(keys, "bob");
        aliceReader = ServiceProcess.createKey(keys, "alice", "--read-only");
        carol = ServiceProcess.createKey(keys, "carol");
        dave = ServiceProcess.createKey(keys, "dave");
        final StringBuilder instruments = new StringBuilder();
        for (int i = 0; i < SYMBOLS; i++) {
            instruments.append(i == 0 ? "" : ",").append("S").append(i).append(":0.01:0.0001");
        }
        service = ServiceProcess.start(dir, Map.of("ORDERS_AUTH", "keys", "ORDERS_AUTH_KEYS_FILE", keys.toString(),
                "ORDERS_INSTRUMENTS", instruments.toString(), "ORDERS_PRICE_BANDS", "S23:0"), "operations");
    }

    @AfterAll
    void stop() {
        if (service != null) {
            service.close();
        }
    }

    private ApiClient as(final String secret) {
        return service.client().withKey(secret);
    }

    /** @return an instrument no other test trades in (S23 has no band, and is kept for the test that needs that) */
    private String symbol() {
        return "S" + nextSymbol++;
    }

    private static String limit(final String symbol, final String side, final String price, final String quantity,
                                final String extra) {
        return "{\"symbol\":\"" + symbol + "\",\"side\":\"" + side + "\",\"type\":\"LIMIT\",\"price\":\"" + price
                + "\",\"quantity\":\"" + quantity + "\"" + (extra == null ? "" : "," + extra) + "}";
    }

    private static String market(final String symbol, final String side, final String quantity) {
        return "{\"symbol\":\"" + symbol + "\",\"side\":\"" + side + "\",\"type\":\"MARKET\",\"quantity\":\""
                + quantity + "\"}";
    }

    private long place(final String secret, final String body) {
        final Answer answer = as(secret).post("/api/v1/orders", body);
        assertEquals(201, answer.status(), answer.body());
        return answer.json().get("orderId").asLong();
    }

    private JsonNode order(final String secret, final long orderId) {
        final Answer answer = as(secret).get("/api/v1/orders/" + orderId);
        assertEquals(200, answer.status(), answer.body());
        return answer.json();
    }

    /** Makes a trade at {@code price} between bob and carol, so that the instrument has a last trade price. */
    private void tradeAt(final String symbol, final String price) {
        place(bob, limit(symbol, "SELL", price, "0.0001", null));
        final Answer taker = as(carol).post("/api/v1/orders", limit(symbol, "BUY", price, "0.0001", null));
        assertEquals("FILLED", taker.json().get("status").asText(), taker.body());
    }

    // ---- amend ----

    @Test
    void anAmendThatReducesTheQuantityAtTheSamePriceKeepsThePlaceInTheQueue() {
        final String symbol = symbol();
        final long first = place(alice, limit(symbol, "SELL", "100.00", "1.0", null));
        final long second = place(bob, limit(symbol, "SELL", "100.00", "1.0", null));
        final Answer amended = as(alice).patch("/api/v1/orders/" + first, "{\"quantity\":\"0.5\"}");
        assertEquals(200, amended.status(), amended.body());
        assertEquals("0.5000", amended.json().get("quantity").asText());
        assertEquals("0.5000", amended.json().get("remainingQuantity").asText());
        assertEquals("NEW", amended.json().get("status").asText());
        final Answer taker = as(carol).post("/api/v1/orders", limit(symbol, "BUY", "100.00", "0.5", null));
        assertEquals("FILLED", taker.json().get("status").asText(), taker.body());
        assertEquals("FILLED", order(alice, first).get("status").asText(), "the amended order was still first");
        assertEquals("NEW", order(bob, second).get("status").asText());
    }

    @Test
    void anAmendThatRaisesTheQuantityMovesTheOrderToTheBackOfItsLevelAndChangesUpdatedAt() {
        final String symbol = symbol();
        final long first = place(alice, limit(symbol, "SELL", "100.00", "1.0", null));
        final long second = place(bob, limit(symbol, "SELL", "100.00", "1.0", null));
        final String before = order(alice, first).get("updatedAt").asText();
        final Answer amended = as(alice).patch("/api/v1/orders/" + first, "{\"quantity\":\"2.0\"}");
        assertEquals(200, amended.status(), amended.body());
        assertEquals("2.0000", amended.json().get("quantity").asText());
        assertNotEquals(before, amended.json().get("updatedAt").asText());
        as(carol).post("/api/v1/orders", limit(symbol, "BUY", "100.00", "1.0", null));
        assertEquals("FILLED", order(bob, second).get("status").asText(), "bob's order is now first");
        assertEquals("NEW", order(alice, first).get("status").asText());
    }

    @Test
    void anAmendToACrossingPriceTradesAtOnceAndAnswersWithTheNewFills() {
        final String symbol = symbol();
        place(bob, limit(symbol, "SELL", "101.00", "0.3", null));
        final long bid = place(alice, limit(symbol, "BUY", "100.00", "1.0", null));
        final Answer amended = as(alice).patch("/api/v1/orders/" + bid, "{\"price\":\"101.00\"}");
        assertEquals(200, amended.status(), amended.body());
        final JsonNode order = amended.json();
        assertEquals(bid, order.get("orderId").asLong(), "an amend keeps the order id");
        assertEquals("101.00", order.get("price").asText());
        assertEquals("PARTIALLY_FILLED", order.get("status").asText());
        assertEquals("0.3000", order.get("filledQuantity").asText());
        assertEquals("0.7000", order.get("remainingQuantity").asText());
        assertEquals(1, order.get("fills").size());
        assertEquals("TAKER", order.get("fills").get(0).get("liquidity").asText());
    }

    @Test
    void aPostOnlyOrderAmendedToACrossingPriceIsRejectedAndLeavesTheBook() {
        final String symbol = symbol();
        place(bob, limit(symbol, "SELL", "101.00", "0.3", null));
        final long bid = place(alice, limit(symbol, "BUY", "100.00", "1.0", "\"postOnly\":true"));
        final Answer amended = as(alice).patch("/api/v1/orders/" + bid, "{\"price\":\"101.00\"}");
        assertEquals(200, amended.status(), amended.body());
        assertEquals("REJECTED", amended.json().get("status").asText());
        assertEquals("POST_ONLY_WOULD_CROSS", amended.json().get("rejectReason").asText());
        assertEquals("0.0000", amended.json().get("remainingQuantity").asText());
        final Answer book = service.client().get("/api/v1/orderbook/" + symbol);
        assertEquals(0, book.json().get("bids").size(), book.body());
    }

    @Test
    void anAmendToAQuantityAtOrBelowWhatIsFilledIs422InvalidQuantityAndChangesNothing() {
        final String symbol = symbol();
        final long ask = place(alice, limit(symbol, "SELL", "100.00", "1.0", null));
        as(carol).post("/api/v1/orders", limit(symbol, "BUY", "100.00", "0.4", null));
        for (final String quantity : List.of("0.4", "0.2")) {
            final Answer answer = as(alice).patch("/api/v1/orders/" + ask, "{\"quantity\":\"" + quantity + "\"}");
            assertEquals(422, answer.status(), answer.body());
            assertEquals("INVALID_QUANTITY", answer.errorCode());
            assertEquals("quantity", answer.json().get("error").get("field").asText());
        }
        final JsonNode order = order(alice, ask);
        assertEquals("1.0000", order.get("quantity").asText());
        assertEquals("0.6000", order.get("remainingQuantity").asText());
    }

    @Test
    void anAmendOfAFinalOrderIs409OrderNotOpenWithTheOrder() {
        final String symbol = symbol();
        final long ask = place(alice, limit(symbol, "SELL", "100.00", "1.0", null));
        assertEquals(200, as(alice).delete("/api/v1/orders/" + ask).status());
        final Answer answer = as(alice).patch("/api/v1/orders/" + ask, "{\"quantity\":\"0.5\"}");
        assertEquals(409, answer.status(), answer.body());
        assertEquals("ORDER_NOT_OPEN", answer.errorCode());
        assertEquals("CANCELED", answer.json().get("order").get("status").asText());
    }

    @Test
    void anAmendOfAnUnknownOrAnotherAccountsOrderIs404OrderNotFound() {
        final String symbol = symbol();
        final long bobs = place(bob, limit(symbol, "SELL", "100.00", "1.0", null));
        for (final long id : List.of(bobs, 999_999_999L)) {
            final Answer answer = as(alice).patch("/api/v1/orders/" + id, "{\"quantity\":\"0.5\"}");
            assertEquals(404, answer.status(), answer.body());
            assertEquals("ORDER_NOT_FOUND", answer.errorCode());
        }
        assertEquals("1.0000", order(bob, bobs).get("quantity").asText(), "bob's order is untouched");
    }

    @Test
    void aMalformedAmendIs400AndAnAmendOffTheLotOrTickIs422AndNeitherChangesTheOrder() {
        final String symbol = symbol();
        final long ask = place(alice, limit(symbol, "SELL", "100.00", "1.0", null));
        final List<List<String>> cases = List.of(
                List.of("not json", "400", "INVALID_JSON"),
                List.of("{}", "400", "MISSING_FIELD"),
                List.of("{\"quantity\":\"0.5\",\"side\":\"BUY\"}", "400", "UNKNOWN_FIELD"),
                List.of("{\"quantity\":\"abc\"}", "400", "INVALID_NUMBER"),
                List.of("{\"quantity\":true}", "400", "INVALID_TYPE"),
                List.of("{\"quantity\":\"0.00001\"}", "422", "QUANTITY_NOT_ON_LOT"),
                List.of("{\"price\":\"100.001\"}", "422", "PRICE_NOT_ON_TICK"),
                List.of("{\"quantity\":\"-1\"}", "422", "INVALID_QUANTITY"),
                List.of("{\"price\":\"0\"}", "422", "INVALID_PRICE"));
        for (final List<String> c : cases) {
            final Answer answer = as(alice).patch("/api/v1/orders/" + ask, c.get(0));
            assertEquals(Integer.parseInt(c.get(1)), answer.status(), c.get(0) + " -> " + answer.body());
            assertEquals(c.get(2), answer.errorCode(), c.get(0));
        }
        final Answer badId = as(alice).patch("/api/v1/orders/abc", "{\"quantity\":\"0.5\"}");
        assertEquals(400, badId.status(), badId.body());
        assertEquals("INVALID_ORDER_ID", badId.errorCode());
        final JsonNode order = order(alice, ask);
        assertEquals("1.0000", order.get("quantity").asText());
        assertEquals("100.00", order.get("price").asText());
    }

    @Test
    void anAmendToAPriceOutsideTheBandIs422PriceOutsideBandAndChangesNothing() {
        final String symbol = symbol();
        tradeAt(symbol, "100.00");
        final long bid = place(alice, limit(symbol, "BUY", "95.00", "1.0", null));
        final Answer answer = as(alice).patch("/api/v1/orders/" + bid, "{\"price\":\"89.99\"}");
        assertEquals(422, answer.status(), answer.body());
        assertEquals("PRICE_OUTSIDE_BAND", answer.errorCode());
        assertEquals("95.00", order(alice, bid).get("price").asText());
        assertEquals(200, as(alice).patch("/api/v1/orders/" + bid, "{\"price\":\"90.00\"}").status(),
                "the band's edge itself is inside");
    }

    @Test
    void aReadOnlyKeyMayNotAmendOrCancelAllOrArmTheSwitch() {
        final String symbol = symbol();
        final long ask = place(alice, limit(symbol, "SELL", "100.00", "1.0", null));
        for (final Answer answer : List.of(as(aliceReader).patch("/api/v1/orders/" + ask, "{\"quantity\":\"0.5\"}"),
                as(aliceReader).delete("/api/v1/orders"),
                as(aliceReader).post("/api/v1/cancel-all-after", "{\"timeoutSeconds\":60}"))) {
            assertEquals(403, answer.status(), answer.body());
            assertEquals("PERMISSION_DENIED", answer.errorCode());
        }
        for (final Answer answer : List.of(service.client().patch("/api/v1/orders/" + ask, "{\"quantity\":\"0.5\"}"),
                service.client().delete("/api/v1/orders"),
                service.client().post("/api/v1/cancel-all-after", "{\"timeoutSeconds\":60}"))) {
            assertEquals(401, answer.status(), answer.body());
            assertEquals("UNAUTHENTICATED", answer.errorCode());
        }
        assertEquals("NEW", order(alice, ask).get("status").asText());
    }

    // ---- cancel-all ----

    @Test
    void cancelAllCancelsEveryOpenOrderOfTheAccountLowestIdFirstAndNoOtherAccountsOrders() {
        final String first = symbol();
        final String second = symbol();
        final List<Long> carols = new ArrayList<>();
        carols.add(place(carol, limit(first, "BUY", "100.00", "1.0", null)));
        carols.add(place(carol, limit(second, "SELL", "200.00", "1.0", null)));
        carols.add(place(carol, limit(first, "SELL", "110.00", "1.0", null)));
        final long bobs = place(bob, limit(first, "BUY", "100.00", "1.0", null));
        final Answer answer = as(carol).delete("/api/v1/orders");
        assertEquals(200, answer.status(), answer.body());
        final JsonNode canceled = answer.json().get("canceled");
        final List<Long> ids = new ArrayList<>();
        canceled.forEach(order -> {
            ids.add(order.get("orderId").asLong());
            assertEquals("CANCELED", order.get("status").asText());
            assertEquals("CANCEL_ALL", order.get("rejectReason").asText());
        });
        assertTrue(ids.containsAll(carols), ids + " holds " + carols);
        assertEquals(ids.stream().sorted().toList(), ids, "lowest id first");
        assertEquals(0, as(carol).get("/api/v1/orders").json().size());
        assertEquals("NEW", order(bob, bobs).get("status").asText());
        final Answer again = as(carol).delete("/api/v1/orders");
        assertEquals(200, again.status());
        assertEquals(0, again.json().get("canceled").size(), "nothing left: an empty list");
    }

    @Test
    void cancelAllOfOneSymbolLeavesTheAccountsOtherOrders() {
        final String first = symbol();
        final String second = symbol();
        as(dave).delete("/api/v1/orders");
        final long inFirst = place(dave, limit(first, "BUY", "100.00", "1.0", null));
        final long inSecond = place(dave, limit(second, "BUY", "100.00", "1.0", null));
        final Answer answer = as(dave).delete("/api/v1/orders?symbol=" + first);
        assertEquals(200, answer.status(), answer.body());
        assertEquals(1, answer.json().get("canceled").size());
        assertEquals(inFirst, answer.json().get("canceled").get(0).get("orderId").asLong());
        assertEquals("NEW", order(dave, inSecond).get("status").asText());
        as(dave).delete("/api/v1/orders");
    }

    @Test
    void cancelAllOfAnUnknownSymbolIs422AndOfAnotherAccountIs403() {
        final Answer unknown = as(carol).delete("/api/v1/orders?symbol=NOPE");
        assertEquals(422, unknown.status(), unknown.body());
        assertEquals("UNKNOWN_SYMBOL", unknown.errorCode());
        final Answer mismatch = as(carol).delete("/api/v1/orders?accountId=bob");
        assertEquals(403, mismatch.status(), mismatch.body());
        assertEquals("ACCOUNT_MISMATCH", mismatch.errorCode());
    }

    // ---- self-trade prevention ----

    @Test
    void expireTakerExpiresTheIncomingOrderAndLeavesTheRestingOne() {
        final String symbol = symbol();
        final long ask = place(alice, limit(symbol, "SELL", "100.00", "1.0", null));
        final Answer taker = as(alice).post("/api/v1/orders",
                limit(symbol, "BUY", "100.00", "1.0", "\"selfTradePrevention\":\"EXPIRE_TAKER\""));
        assertEquals(201, taker.status(), taker.body());
        assertEquals("EXPIRED", taker.json().get("status").asText());
        assertEquals("SELF_TRADE_PREVENTED", taker.json().get("rejectReason").asText());
        assertEquals("EXPIRE_TAKER", taker.json().get("selfTradePrevention").asText());
        assertEquals("NEW", order(alice, ask).get("status").asText());
    }

    @Test
    void expireMakerCancelsTheOwnRestingOrderAndTradesWithTheNext() {
        final String symbol = symbol();
        final long own = place(alice, limit(symbol, "SELL", "100.00", "1.0", null));
        final long other = place(bob, limit(symbol, "SELL", "100.00", "1.0", null));
        final Answer taker = as(alice).post("/api/v1/orders",
                limit(symbol, "BUY", "100.00", "1.0", "\"selfTradePrevention\":\"EXPIRE_MAKER\""));
        assertEquals("FILLED", taker.json().get("status").asText(), taker.body());
        final JsonNode maker = order(alice, own);
        assertEquals("CANCELED", maker.get("status").asText());
        assertEquals("SELF_TRADE_PREVENTED", maker.get("rejectReason").asText());
        assertEquals("FILLED", order(bob, other).get("status").asText());
    }

    @Test
    void expireBothCancelsTheOwnRestingOrderAndExpiresTheIncomingOne() {
        final String symbol = symbol();
        final long own = place(alice, limit(symbol, "SELL", "100.00", "1.0", null));
        final Answer taker = as(alice).post("/api/v1/orders",
                limit(symbol, "BUY", "100.00", "1.0", "\"selfTradePrevention\":\"EXPIRE_BOTH\""));
        assertEquals("EXPIRED", taker.json().get("status").asText(), taker.body());
        assertEquals("SELF_TRADE_PREVENTED", taker.json().get("rejectReason").asText());
        assertEquals("CANCELED", order(alice, own).get("status").asText());
    }

    @Test
    void withoutSelfTradePreventionOrdersOfOneAccountTradeAndAnUnknownModeIs400() {
        final String symbol = symbol();
        place(alice, limit(symbol, "SELL", "100.00", "1.0", null));
        final Answer taker = as(alice).post("/api/v1/orders", limit(symbol, "BUY", "100.00", "1.0", null));
        assertEquals("FILLED", taker.json().get("status").asText(), taker.body());
        assertEquals("NONE", taker.json().get("selfTradePrevention").asText(), "the venue's default");
        final Answer bad = as(alice).post("/api/v1/orders",
                limit(symbol, "BUY", "100.00", "1.0", "\"selfTradePrevention\":\"CANCEL_NEWEST\""));
        assertEquals(400, bad.status(), bad.body());
        assertEquals("INVALID_ENUM", bad.errorCode());
    }

    // ---- price bands ----

    @Test
    void theSymbolsListShowsEachInstrumentsBand() {
        final Answer symbols = service.client().get("/api/v1/symbols");
        assertEquals(200, symbols.status());
        symbols.json().forEach(s -> assertEquals(s.get("symbol").asText().equals("S23") ? "0" : "10",
                s.get("priceBandPercent").asText(), s.toString()));
    }

    @Test
    void aLimitOrderPricedOutsideTheBandAroundTheLastTradeIsRejectedAndOneAtItsEdgeIsAccepted() {
        final String symbol = symbol();
        tradeAt(symbol, "100.00");
        for (final String price : List.of("110.01", "89.99")) {
            final Answer answer = as(alice).post("/api/v1/orders", limit(symbol, price.startsWith("1") ? "BUY" : "SELL",
                    price, "0.1", null));
            assertEquals(201, answer.status(), answer.body());
            assertEquals("REJECTED", answer.json().get("status").asText());
            assertEquals("PRICE_OUTSIDE_BAND", answer.json().get("rejectReason").asText());
        }
        final Answer edge = as(alice).post("/api/v1/orders", limit(symbol, "BUY", "110.00", "0.1", null));
        assertEquals("NEW", edge.json().get("status").asText(), edge.body());
    }

    @Test
    void aMarketOrderTradesOnlyWithinTheBandAndItsRemainderExpires() {
        final String symbol = symbol();
        tradeAt(symbol, "110.00");
        place(bob, limit(symbol, "SELL", "115.00", "0.5", null));   // inside the band around 110.00
        tradeAt(symbol, "100.00");                                   // now the band is 90.00 .. 110.00
        place(bob, limit(symbol, "SELL", "105.00", "0.5", null));
        final Answer answer = as(alice).post("/api/v1/orders", market(symbol, "BUY", "1.0"));
        assertEquals(201, answer.status(), answer.body());
        assertEquals("EXPIRED", answer.json().get("status").asText());
        assertEquals("0.5000", answer.json().get("filledQuantity").asText());
        assertEquals("PRICE_OUTSIDE_BAND", answer.json().get("rejectReason").asText());
    }

    @Test
    void anInstrumentWithABandOfZeroTakesAnyPrice() {
        final String symbol = "S23";
        tradeAt(symbol, "100.00");
        final Answer answer = as(alice).post("/api/v1/orders", limit(symbol, "BUY", "500.00", "0.0001", null));
        assertEquals("NEW", answer.json().get("status").asText(), answer.body());
        as(alice).delete("/api/v1/orders/" + answer.json().get("orderId").asLong());
    }

    // ---- dead man's switch ----

    @Test
    void theDeadMansSwitchCancelsEveryOpenOrderOfTheAccountWhenNotRefreshed() throws InterruptedException {
        final String symbol = symbol();
        final String erin = ServiceProcess.createKey(dir.resolve("keys"), "erin");
        awaitKey(erin);
        final long a = place(erin, limit(symbol, "BUY", "100.00", "1.0", null));
        final long b = place(erin, limit(symbol, "SELL", "101.00", "1.0", null));
        final long bobs = place(bob, limit(symbol, "BUY", "99.00", "1.0", null));
        final Answer armed = as(erin).post("/api/v1/cancel-all-after", "{\"timeoutSeconds\":1}");
        assertEquals(200, armed.status(), armed.body());
        final Instant triggerAt = Instant.parse(armed.json().get("triggerAt").asText());
        assertTrue(triggerAt.isAfter(Instant.now().minusSeconds(5)), armed.body());
        awaitStatus(erin, a, "CANCELED", Duration.ofSeconds(15));
        for (final long id : List.of(a, b)) {
            final JsonNode order = order(erin, id);
            assertEquals("CANCELED", order.get("status").asText());
            assertEquals("CANCEL_ALL_AFTER", order.get("rejectReason").asText());
        }
        assertEquals("NEW", order(bob, bobs).get("status").asText());
    }

    @Test
    void aRefreshedSwitchDoesNotFireAndZeroDisarmsIt() throws InterruptedException {
        final String symbol = symbol();
        final long bid = place(dave, limit(symbol, "BUY", "100.00", "1.0", null));
        final long until = System.nanoTime() + Duration.ofSeconds(4).toNanos();
        while (System.nanoTime() < until) {
            assertEquals(200, as(dave).post("/api/v1/cancel-all-after", "{\"timeoutSeconds\":2}").status());
            Thread.sleep(300);
        }
        assertEquals("NEW", order(dave, bid).get("status").asText(), "refreshed every 0.3 s, it never fired");
        final Answer disarmed = as(dave).post("/api/v1/cancel-all-after", "{\"timeoutSeconds\":0}");
        assertEquals(200, disarmed.status(), disarmed.body());
        assertTrue(disarmed.json().get("triggerAt").isNull(), disarmed.body());
        Thread.sleep(3_000);
        assertEquals("NEW", order(dave, bid).get("status").asText(), "disarmed, it did not fire");
        as(dave).delete("/api/v1/orders/" + bid);
    }

    @Test
    void aTimeoutOutsideZeroTo3600Is422AndAMalformedBodyIs400() {
        for (final String body : List.of("{\"timeoutSeconds\":3601}", "{\"timeoutSeconds\":-1}")) {
            final Answer answer = as(dave).post("/api/v1/cancel-all-after", body);
            assertEquals(422, answer.status(), answer.body());
            assertEquals("INVALID_TIMEOUT", answer.errorCode());
        }
        final Map<String, String> malformed = Map.of("{}", "MISSING_FIELD", "{\"timeoutSeconds\":\"60\"}",
                "INVALID_TYPE", "{\"timeoutSeconds\":1.5}", "INVALID_TYPE", "{\"timeoutSeconds\":60,\"x\":1}",
                "UNKNOWN_FIELD", "[]", "INVALID_JSON");
        malformed.forEach((body, code) -> {
            final Answer answer = as(dave).post("/api/v1/cancel-all-after", body);
            assertEquals(400, answer.status(), body + " -> " + answer.body());
            assertEquals(code, answer.errorCode(), body);
        });
        final Answer mismatch = as(dave).post("/api/v1/cancel-all-after", "{\"timeoutSeconds\":60,\"accountId\":\"bob\"}");
        assertEquals(403, mismatch.status(), mismatch.body());
        assertEquals("ACCOUNT_MISMATCH", mismatch.errorCode());
    }

    private void awaitStatus(final String secret, final long orderId, final String status, final Duration timeout)
            throws InterruptedException {
        final long deadline = System.nanoTime() + timeout.toNanos();
        while (!status.equals(order(secret, orderId).get("status").asText())) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("order " + orderId + " did not become " + status + ": "
                        + order(secret, orderId));
            }
            Thread.sleep(50);
        }
    }

    /** Waits until the service has read a key made while it runs (it re-reads the keys file within a second). */
    private void awaitKey(final String secret) throws InterruptedException {
        final long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (as(secret).get("/api/v1/orders").status() != 200) {
            assertNotNull(secret);
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the service never read the new key");
            }
            Thread.sleep(100);
        }
    }
}
