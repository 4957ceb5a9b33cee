package io.orderentry.http.rest;

import static io.orderentry.testing.ApiClient.limit;
import static io.orderentry.testing.ApiClient.market;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.orderentry.testing.ApiClient.Answer;
import io.orderentry.testing.ApiClient;
import io.orderentry.testing.RunningService;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The order endpoints of API.md through the real pipeline, one fresh service per test. */
class OrderApiTest {

    @TempDir
    Path dir;
    private RunningService service;
    private ApiClient api;

    @BeforeEach
    void start() {
        service = RunningService.start(dir, Map.of());
        api = service.client();
    }

    @AfterEach
    void stop() {
        service.close();
    }

    @Test
    void restingLimitOrderIsAnswered201WithLocationAndItsState() {
        final Answer answer = api.post("/api/v1/orders", limit("acct-1", "c-1", "BTCUSD", "BUY", "50000.00", "0.5", null));
        assertEquals(201, answer.status(), answer.body());
        final JsonNode order = answer.json();
        final long orderId = order.get("orderId").asLong();
        assertEquals("/api/v1/orders/" + orderId, answer.header("Location"));
        assertEquals("NEW", order.get("status").asText());
        assertEquals("50000.00", order.get("price").asText());
        assertEquals("0.5000", order.get("quantity").asText(), "quantities are rendered at the lot's scale");
        assertEquals("0.0000", order.get("filledQuantity").asText());
        assertEquals("0.5000", order.get("remainingQuantity").asText());
        assertTrue(order.get("averagePrice").isNull());
        assertTrue(order.get("rejectReason").isNull());
        assertEquals("GTC", order.get("timeInForce").asText());
        assertEquals("c-1", order.get("clientOrderId").asText());
        assertEquals(0, order.get("fills").size());
        assertTrue(order.get("sequence").asLong() > 0);
        assertTrue(order.get("createdAt").asText().matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{6}Z"),
                order.get("createdAt").asText());
    }

    @Test
    void crossingOrderSweepsLevelsAtMakerPricesAndReportsAveragePrice() {
        final long maker1 = placed(limit("m", null, "BTCUSD", "SELL", "49999.00", "0.1", null)).get("orderId").asLong();
        placed(limit("m", null, "BTCUSD", "SELL", "50000.00", "0.1", null));
        placed(limit("m", null, "BTCUSD", "SELL", "50001.00", "0.1", null));

        final JsonNode taker = placed(limit("t", "c-42", "BTCUSD", "BUY", "50000.00", "0.5", null));
        assertEquals("PARTIALLY_FILLED", taker.get("status").asText());
        assertEquals("0.2000", taker.get("filledQuantity").asText());
        assertEquals("0.3000", taker.get("remainingQuantity").asText());
        assertEquals("49999.50", taker.get("averagePrice").asText());
        assertEquals(2, taker.get("fills").size());
        assertEquals("49999.00", taker.get("fills").get(0).get("price").asText());
        assertEquals("50000.00", taker.get("fills").get(1).get("price").asText());
        assertEquals("TAKER", taker.get("fills").get(0).get("liquidity").asText());
        assertTrue(taker.get("fills").get(1).get("tradeId").asLong() > taker.get("fills").get(0).get("tradeId").asLong());

        final JsonNode maker = api.get("/api/v1/orders/" + maker1).json();
        assertEquals("FILLED", maker.get("status").asText());
        assertEquals("MAKER", maker.get("fills").get(0).get("liquidity").asText());
    }

    @Test
    void iocFillsWhatItCanAndExpiresTheRest() {
        placed(limit("m", null, "ETHUSD", "SELL", "3000.00", "1", null));
        final JsonNode ioc = placed(limit("t", null, "ETHUSD", "BUY", "3000.00", "2.5", "\"timeInForce\":\"IOC\""));
        assertEquals("EXPIRED", ioc.get("status").asText());
        assertEquals("1.000", ioc.get("filledQuantity").asText());
        assertEquals("0.000", ioc.get("remainingQuantity").asText());
    }

    @Test
    void fokThatCannotFillCompletelyExpiresWithNoFillsAndLeavesTheBook() {
        final long maker = placed(limit("m", null, "ETHUSD", "SELL", "3000.00", "1", null)).get("orderId").asLong();
        final JsonNode fok = placed(limit("t", null, "ETHUSD", "BUY", "3000.00", "2", "\"timeInForce\":\"FOK\""));
        assertEquals("EXPIRED", fok.get("status").asText());
        assertEquals(0, fok.get("fills").size());
        assertEquals("NEW", api.get("/api/v1/orders/" + maker).json().get("status").asText());
    }

    @Test
    void postOnlyThatWouldCrossIsRejectedWithReason() {
        placed(limit("m", null, "BTCUSD", "SELL", "100.00", "1", null));
        final JsonNode rejected = placed(limit("t", null, "BTCUSD", "BUY", "100.00", "1", "\"postOnly\":true"));
        assertEquals("REJECTED", rejected.get("status").asText());
        assertEquals("POST_ONLY_WOULD_CROSS", rejected.get("rejectReason").asText());
    }

    @Test
    void marketOrderAgainstAnEmptyBookExpiresUnfilled() {
        final JsonNode order = placed(market("t", "BTCUSD", "BUY", "1"));
        assertEquals("EXPIRED", order.get("status").asText());
        assertEquals("IOC", order.get("timeInForce").asText());
        assertTrue(order.get("price").isNull());
    }

    @Test
    void retryWithSameClientOrderIdReturns200AndPlacesNothing() {
        final String body = limit("acct-1", "c-9", "BTCUSD", "BUY", "100.00", "1", null);
        final long first = placed(body).get("orderId").asLong();
        final Answer retry = api.post("/api/v1/orders", body);
        assertEquals(200, retry.status(), retry.body());
        assertEquals(first, retry.json().get("orderId").asLong());
        assertEquals(1, api.get("/api/v1/orders?accountId=acct-1").json().size());
    }

    @Test
    void retryWithSameClientOrderIdButOtherFieldsIs409() {
        placed(limit("acct-1", "c-9", "BTCUSD", "BUY", "100.00", "1", null));
        final Answer conflict = api.post("/api/v1/orders", limit("acct-1", "c-9", "BTCUSD", "BUY", "101.00", "1", null));
        assertEquals(409, conflict.status());
        assertEquals("DUPLICATE_CLIENT_ORDER_ID", conflict.errorCode());
        assertEquals("clientOrderId", conflict.json().get("error").get("field").asText());
        assertEquals(1, api.get("/api/v1/orders?accountId=acct-1").json().size());
    }

    @Test
    void sameClientOrderIdOnAnotherAccountIsANewOrder() {
        final long first = placed(limit("acct-1", "c-9", "BTCUSD", "BUY", "100.00", "1", null)).get("orderId").asLong();
        final long second = placed(limit("acct-2", "c-9", "BTCUSD", "BUY", "100.00", "1", null)).get("orderId").asLong();
        assertTrue(second > first);
    }

    @Test
    void cancelOpenThenAgainThenUnknown() {
        final long id = placed(limit("acct-1", null, "BTCUSD", "BUY", "100.00", "1", null)).get("orderId").asLong();
        final Answer canceled = api.delete("/api/v1/orders/" + id);
        assertEquals(200, canceled.status());
        assertEquals("CANCELED", canceled.json().get("status").asText());
        assertEquals("0.0000", canceled.json().get("remainingQuantity").asText());

        final Answer again = api.delete("/api/v1/orders/" + id);
        assertEquals(409, again.status());
        assertEquals("ORDER_NOT_OPEN", again.errorCode());
        assertEquals("CANCELED", again.json().get("order").get("status").asText());

        assertEquals(404, api.delete("/api/v1/orders/999999").status());
        assertEquals("ORDER_NOT_FOUND", api.delete("/api/v1/orders/999999").errorCode());
        assertEquals("INVALID_ORDER_ID", api.delete("/api/v1/orders/abc").errorCode());
        assertEquals(0, api.get("/api/v1/orders?accountId=acct-1").json().size());
    }

    @Test
    void cancelOfAFilledOrderIs409WithTheFilledOrder() {
        final long maker = placed(limit("m", null, "BTCUSD", "SELL", "100.00", "1", null)).get("orderId").asLong();
        placed(market("t", "BTCUSD", "BUY", "1"));
        final Answer answer = api.delete("/api/v1/orders/" + maker);
        assertEquals(409, answer.status());
        assertEquals("FILLED", answer.json().get("order").get("status").asText());
    }

    @Test
    void getOrderAnswersCurrentStateAnd404ForUnknown() {
        final long id = placed(limit("acct-1", null, "BTCUSD", "BUY", "100.00", "1", null)).get("orderId").asLong();
        final Answer found = api.get("/api/v1/orders/" + id);
        assertEquals(200, found.status());
        assertEquals(id, found.json().get("orderId").asLong());
        final Answer missing = api.get("/api/v1/orders/" + (id + 1000));
        assertEquals(404, missing.status());
        assertEquals("ORDER_NOT_FOUND", missing.errorCode());
        assertEquals(400, api.get("/api/v1/orders/-3").status());
    }

    @Test
    void openOrdersAreListedOldestFirstAndPaged() {
        final long a = placed(limit("acct-7", null, "BTCUSD", "BUY", "100.00", "1", null)).get("orderId").asLong();
        final long b = placed(limit("acct-7", null, "ETHUSD", "SELL", "5000.00", "1", null)).get("orderId").asLong();
        final long c = placed(limit("acct-7", null, "BTCUSD", "BUY", "101.00", "1", null)).get("orderId").asLong();
        placed(limit("other", null, "BTCUSD", "BUY", "99.00", "1", null));
        api.delete("/api/v1/orders/" + b);

        final JsonNode open = api.get("/api/v1/orders?accountId=acct-7").json();
        assertEquals(2, open.size());
        assertEquals(a, open.get(0).get("orderId").asLong());
        assertEquals(c, open.get(1).get("orderId").asLong());
        final JsonNode page = api.get("/api/v1/orders?accountId=acct-7&limit=1&afterOrderId=" + a).json();
        assertEquals(1, page.size());
        assertEquals(c, page.get(0).get("orderId").asLong());

        assertEquals("MISSING_PARAMETER", api.get("/api/v1/orders").errorCode());
        assertEquals("INVALID_ACCOUNT_ID", api.get("/api/v1/orders?accountId=a%20b").errorCode());
        assertEquals("INVALID_PARAMETER", api.get("/api/v1/orders?accountId=a&limit=0").errorCode());
        assertEquals("INVALID_PARAMETER", api.get("/api/v1/orders?accountId=a&limit=1001").errorCode());
    }

    @Test
    void symbolsListTheConfiguredInstruments() {
        final JsonNode symbols = api.get("/api/v1/symbols").json();
        assertEquals(2, symbols.size());
        assertEquals("BTCUSD", symbols.get(0).get("symbol").asText());
        assertEquals("0.01", symbols.get(0).get("tickSize").asText());
        assertEquals("0.0001", symbols.get(0).get("lotSize").asText());
        assertEquals("ETHUSD", symbols.get(1).get("symbol").asText());
        assertEquals("0.001", symbols.get(1).get("lotSize").asText());
    }

    @Test
    void healthReadyAndMetricsAnswer() {
        final Answer health = api.get("/health");
        assertEquals(200, health.status());
        assertEquals("UP", health.json().get("status").asText());
        final Answer ready = api.get("/ready");
        assertEquals(200, ready.status(), ready.body());
        assertEquals("UP", ready.json().get("components").get("journal").get("status").asText());
        assertEquals("UP", ready.json().get("components").get("engine").get("status").asText());
        final Answer metrics = api.get("/metrics");
        assertEquals(200, metrics.status());
        assertTrue(metrics.body().contains("orders_input_ring_remaining"), metrics.body());
    }

    @Test
    void openApiDocumentIsServedAndNamesEveryRoute() throws Exception {
        final Answer answer = api.get("/api/v1/openapi.yaml");
        assertEquals(200, answer.status());
        final JsonNode spec = new ObjectMapper(new YAMLFactory()).readTree(answer.body());
        for (final String path : new String[] {"/api/v1/orders", "/api/v1/orders/{orderId}", "/api/v1/symbols",
                "/health", "/ready", "/metrics", "/api/v1/openapi.yaml"}) {
            assertNotNull(spec.get("paths").get(path), path);
        }
    }

    @Test
    void unknownRouteAndWrongMethodAnswerInTheErrorShape() {
        final Answer unknown = api.get("/api/v1/nothing");
        assertEquals(404, unknown.status());
        assertEquals("NOT_FOUND", unknown.errorCode());
        final Answer wrongMethod = api.post("/api/v1/symbols", "{}");
        assertEquals(405, wrongMethod.status());
        assertEquals("METHOD_NOT_ALLOWED", wrongMethod.errorCode());
    }

    @Test
    void anOrderThatSweepsMoreMakersThanAnAnswerCarriesIsAnsweredWithTheFirst1000FillsAndTheRestByPage() {
        for (int i = 0; i < 1_200; i++) {
            assertEquals(201, api.post("/api/v1/orders", limit("maker", null, "BTCUSD", "SELL",
                    (50_000 + i) + ".00", "0.0001", null)).status());
        }
        final Answer taker = api.post("/api/v1/orders", market("taker", "BTCUSD", "BUY", "0.12"));
        assertEquals(201, taker.status(), taker.body().substring(0, 200));
        assertEquals("FILLED", taker.json().get("status").asText());
        assertEquals(1_000, taker.json().get("fills").size(), "an answer carries at most 1000 fills");
        assertTrue(taker.json().get("fillsTruncated").asBoolean());
        assertEquals(1_200, taker.json().get("fillCount").asInt());
        final String id = taker.json().get("orderId").asText();
        final Answer rest = api.get("/api/v1/orders/" + id + "/fills?offset=1000");
        assertEquals(200, rest.status(), rest.body());
        assertEquals(1_200, rest.json().get("fillCount").asInt());
        assertEquals(200, rest.json().get("fills").size());
        assertEquals("51000.00", rest.json().get("fills").get(0).get("price").asText(), "the 1001st fill, oldest first");
        final Answer first = api.get("/api/v1/orders/" + id + "/fills?limit=2");
        assertEquals(taker.json().get("fills").get(1), first.json().get("fills").get(1), "pages match the answer");
        assertEquals(400, api.get("/api/v1/orders/" + id + "/fills?limit=5000").status());
        assertEquals("INVALID_PARAMETER", api.get("/api/v1/orders/" + id + "/fills?limit=0").errorCode(),
                "as the open-orders list answers a bad limit");
        assertEquals(404, api.get("/api/v1/orders/999999/fills").status());
        final Answer small = api.get("/api/v1/orders/1");
        assertTrue(!small.json().has("fillsTruncated") && !small.json().has("fillCount"),
                "orders with fewer fills keep the documented shape");
    }

    @Test
    void bodyWithBytesAfterTheOrderIsRefusedAsInvalidJsonAndPlacesNothing() {
        final String order = limit("acct-1", "c-trail", "BTCUSD", "BUY", "50000.00", "0.5", null);
        for (final String body : java.util.List.of(order + "xyz", order + order, order + " 1")) {
            final Answer refused = api.post("/api/v1/orders", body);
            assertEquals(400, refused.status(), body + " -> " + refused.body());
            assertEquals("INVALID_JSON", refused.errorCode(), refused.body());
        }
        assertEquals(201, api.post("/api/v1/orders", order).status(),
                "the same order alone is new (a retry of a placed one would be 200)");
    }

    @Test
    void everyAnsweredOrderIsTimedInEachHandOverOfTheOrderPathAndARefusedOneInNone() {
        for (int i = 0; i < 3; i++) {
            placed(limit("acct-1", null, "BTCUSD", "BUY", "50000.00", "0.1", null));
        }
        final long orderId = placed(limit("acct-1", null, "BTCUSD", "SELL", "51000.00", "0.1", null))
                .get("orderId").asLong();
        assertEquals(200, api.delete("/api/v1/orders/" + orderId).status());
        assertEquals(422, api.post("/api/v1/orders", limit("acct-1", null, "BTCUSD", "BUY", "50000.005", "0.1", null))
                .status(), "refused at the edge: never reaches the engine");
        final String metrics = api.get("/metrics").body();
        assertTrue(metrics.contains("# TYPE orders_stage_latency_seconds histogram"), metrics);
        for (final String stage : new String[] {"ring", "journal", "output", "event_loop"}) {
            assertTrue(metrics.contains("orders_stage_latency_seconds_count{stage=\"" + stage + "\"} 5\n"),
                    stage + ": four places and a cancel\n" + metrics);
            assertTrue(metrics.contains("orders_stage_latency_seconds_bucket{stage=\"" + stage + "\",le=\"+Inf\"} 5\n"),
                    stage);
        }
    }

    @Test
    void madeUpMethodsAreRefusedAndCountedUnderOneMetricsSeries() {
        for (int i = 0; i < 20; i++) {
            final Answer answer = api.send(java.net.http.HttpRequest.newBuilder(
                    java.net.URI.create("http://127.0.0.1:" + service.port() + "/api/v1/orders"))
                    .method("Q" + i, java.net.http.HttpRequest.BodyPublishers.noBody()));
            assertTrue(answer.status() >= 400 && answer.status() < 500, "Q" + i + " -> " + answer.status());
        }
        final String metrics = api.get("/metrics").body();
        assertTrue(metrics.contains("method=\"OTHER\""), "made-up methods are counted as OTHER");
        assertTrue(!metrics.contains("method=\"Q1\"") && !metrics.contains("method=\"Q19\""),
                "no series per made-up method");
    }

    private JsonNode placed(final String body) {
        final Answer answer = api.post("/api/v1/orders", body);
        assertEquals(201, answer.status(), answer.body());
        return answer.json();
    }
}
