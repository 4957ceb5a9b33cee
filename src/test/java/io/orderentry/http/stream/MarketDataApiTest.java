package io.orderentry.http.stream;

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
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The REST market data endpoints of API.md through the real pipeline. */
class MarketDataApiTest {

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
    void orderBookAggregatesByPriceBestFirstAndHonoursDepth() {
        place(limit("a", null, "BTCUSD", "BUY", "100.00", "0.1", null));
        place(limit("b", null, "BTCUSD", "BUY", "100.00", "0.2", null));
        place(limit("a", null, "BTCUSD", "BUY", "99.00", "0.1", null));
        place(limit("c", null, "BTCUSD", "SELL", "102.00", "1", null));
        place(limit("c", null, "BTCUSD", "SELL", "101.50", "0.5", null));

        final JsonNode book = awaitBook("/api/v1/orderbook/BTCUSD", b -> b.get("asks").size() == 2);
        assertEquals("BTCUSD", book.get("symbol").asText());
        assertTrue(book.get("sequence").asLong() > 0);
        assertEquals("[[\"100.00\",\"0.3000\"],[\"99.00\",\"0.1000\"]]", book.get("bids").toString());
        assertEquals("[[\"101.50\",\"0.5000\"],[\"102.00\",\"1.0000\"]]", book.get("asks").toString());

        final JsonNode top = api.get("/api/v1/orderbook/BTCUSD?depth=1").json();
        assertEquals(1, top.get("bids").size());
        assertEquals(1, top.get("asks").size());
        assertEquals("100.00", top.get("bids").get(0).get(0).asText());
        final JsonNode eth = api.get("/api/v1/orderbook/ETHUSD").json();
        assertEquals(0, eth.get("bids").size(), "symbols have their own books");
    }

    @Test
    void tradedAndCanceledQuantityLeavesTheBook() {
        place(limit("m", null, "ETHUSD", "SELL", "3000.00", "2", null));
        final long canceled = place(limit("m", null, "ETHUSD", "SELL", "3001.00", "1", null)).get("orderId").asLong();
        place(limit("t", null, "ETHUSD", "BUY", "3000.00", "0.5", null));
        assertEquals(200, api.delete("/api/v1/orders/" + canceled).status());

        final JsonNode book = awaitBook("/api/v1/orderbook/ETHUSD",
                b -> b.get("asks").size() == 1 && "1.500".equals(b.get("asks").get(0).get(1).asText()));
        assertEquals("[[\"3000.00\",\"1.500\"]]", book.get("asks").toString());
        assertEquals(0, book.get("bids").size());
    }

    @Test
    void tradesAreNewestFirstWithTakerSideAndLimit() {
        place(limit("m", null, "BTCUSD", "SELL", "101.00", "0.5", null));
        final long first = place(limit("t", null, "BTCUSD", "BUY", "101.00", "0.2", null))
                .get("fills").get(0).get("tradeId").asLong();
        place(market("t", "BTCUSD", "BUY", "0.1"));

        final JsonNode trades = awaitBook("/api/v1/trades/BTCUSD", t -> t.size() == 2);
        assertEquals(first + 1, trades.get(0).get("tradeId").asLong(), "newest first");
        assertEquals(first, trades.get(1).get("tradeId").asLong());
        assertEquals("101.00", trades.get(0).get("price").asText());
        assertEquals("0.1000", trades.get(0).get("quantity").asText());
        assertEquals("0.2000", trades.get(1).get("quantity").asText());
        assertEquals("BUY", trades.get(0).get("takerSide").asText());
        assertTrue(trades.get(0).get("timestamp").asText().matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{6}Z"));
        assertEquals(1, api.get("/api/v1/trades/BTCUSD?limit=1").json().size());
        assertEquals(0, api.get("/api/v1/trades/ETHUSD").json().size());
    }

    @Test
    void unknownSymbolIs404AndBadDepthOrLimitIs400() {
        for (final String path : new String[] {"/api/v1/orderbook/DOGEUSD", "/api/v1/trades/DOGEUSD"}) {
            final Answer unknown = api.get(path);
            assertEquals(404, unknown.status(), path);
            assertEquals("UNKNOWN_SYMBOL", unknown.errorCode());
            assertEquals("symbol", unknown.json().get("error").get("field").asText());
        }
        for (final String query : new String[] {"depth=0", "depth=1001", "depth=abc", "depth=-1", "depth="}) {
            final Answer bad = api.get("/api/v1/orderbook/BTCUSD?" + query);
            assertEquals(400, bad.status(), query);
            assertEquals("INVALID_PARAMETER", bad.errorCode());
            assertEquals("depth", bad.json().get("error").get("field").asText());
        }
        assertEquals("INVALID_PARAMETER", api.get("/api/v1/trades/BTCUSD?limit=0").errorCode());
        assertEquals("INVALID_PARAMETER", api.get("/api/v1/trades/BTCUSD?limit=1001").errorCode());
        assertEquals(200, api.get("/api/v1/orderbook/BTCUSD?depth=1000").status());
        assertEquals(200, api.get("/api/v1/trades/BTCUSD?limit=1000").status());
    }

    @Test
    void streamWithoutAWebSocketUpgradeIs400() {
        final Answer answer = api.get("/api/v1/stream");
        assertEquals(400, answer.status());
        assertEquals("UPGRADE_REQUIRED", answer.errorCode());
    }

    @Test
    void openApiDescribesTheMarketDataPaths() throws Exception {
        final JsonNode spec = new ObjectMapper(new YAMLFactory()).readTree(api.get("/api/v1/openapi.yaml").body());
        for (final String path : new String[] {"/api/v1/orderbook/{symbol}", "/api/v1/trades/{symbol}", "/api/v1/stream"}) {
            assertNotNull(spec.get("paths").get(path), path);
        }
        assertTrue(spec.get("info").get("description").asText().contains("/api/v1/stream"));
    }

    private JsonNode place(final String body) {
        final Answer answer = api.post("/api/v1/orders", body);
        assertEquals(201, answer.status(), answer.body());
        return answer.json();
    }

    /** Market data is not read-your-writes: polls until the answer shows what the test placed. */
    private JsonNode awaitBook(final String path, final Predicate<JsonNode> ready) {
        final long deadline = System.nanoTime() + 30_000_000_000L;
        while (true) {
            final Answer answer = api.get(path);
            assertEquals(200, answer.status(), answer.body());
            if (ready.test(answer.json()) || System.nanoTime() > deadline) {
                return answer.json();
            }
            pause();
        }
    }

    private static void pause() {
        try {
            Thread.sleep(10);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
