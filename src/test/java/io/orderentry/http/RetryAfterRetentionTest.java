package io.orderentry.http;

import static io.orderentry.testing.ApiClient.limit;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.orderentry.testing.ApiClient;
import io.orderentry.testing.ApiClient.Answer;
import io.orderentry.testing.RunningService;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** API.md: a retry the dedup window remembers is answered 200 with the order, however many orders came after it. */
class RetryAfterRetentionTest {

    @TempDir
    Path dir;

    @Test
    void retryRememberedByTheDedupWindowIsAnswered200AfterMoreFinalOrdersThanAreRetained() {
        try (RunningService service = RunningService.start(dir, Map.of("ORDERS_ENGINE_DEDUP_WINDOW", "1000",
                "ORDERS_QUERY_RETAINED_FINAL_ORDERS", "1000"))) {
            final ApiClient api = service.client();
            final String order = limit("acct-1", "c-once", "BTCUSD", "BUY", "100.00", "1", "\"timeInForce\":\"IOC\"");
            final Answer first = api.post("/api/v1/orders", order);
            assertEquals(201, first.status(), first.body());
            assertEquals("EXPIRED", first.json().get("status").asText());
            for (int i = 0; i < 1_100; i++) {   // final orders without a clientOrderId: more than are retained
                assertEquals(201, api.post("/api/v1/orders", limit("acct-2", null, "BTCUSD", "BUY", "100.00", "1",
                        "\"timeInForce\":\"IOC\"")).status());
            }
            final Answer retry = api.post("/api/v1/orders", order);
            assertEquals(200, retry.status(), "not 404 ORDER_NOT_RETAINED: " + retry.body());
            assertEquals(first.json().get("orderId"), retry.json().get("orderId"));
            assertEquals(200, api.get("/api/v1/orders/" + first.json().get("orderId").asText()).status());
        }
    }
}
