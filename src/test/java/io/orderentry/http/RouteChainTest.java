package io.orderentry.http;

import static io.orderentry.testing.ApiClient.limit;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.orderentry.ops.ServiceStatus;
import io.orderentry.testing.ApiClient;
import io.orderentry.testing.ApiClient.Answer;
import io.orderentry.testing.RunningService;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The route table's chain: every order route, the POST fast path and the router's spelling of its path alike, passes
 * the readiness check in front of its own handler (reads while the service is ready, commands also while the audit
 * trail can write), so that none of them reaches the view or the input ring while it should not.
 */
class RouteChainTest {

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
        service.service().status().auditResumed();
        service.service().status().phase(ServiceStatus.Phase.READY);
        service.close();
    }

    @Test
    void everyOrderRouteAnswers503WhileTheServiceIsNotReady() {
        service.service().status().phase(ServiceStatus.Phase.STOPPING);
        final Map<String, Supplier<Answer>> routes = new LinkedHashMap<>(commands());
        routes.putAll(reads());
        routes.forEach((route, request) -> {
            final Answer answer = request.get();
            assertEquals(503, answer.status(), route + ": " + answer.body());
            assertEquals("NOT_ACCEPTING", answer.json().get("error").get("code").asText(), route);
            assertEquals("1", answer.header("Retry-After"), route);
        });
    }

    @Test
    void orderCommandsAnswer503WhileTheAuditTrailCannotWriteAndReadsStillWork() {
        service.service().status().auditFailed("No space left on device", true);
        commands().forEach((route, request) -> {
            final Answer answer = request.get();
            assertEquals(503, answer.status(), route + ": " + answer.body());
            assertEquals("AUDIT_UNAVAILABLE", answer.json().get("error").get("code").asText(), route);
        });
        reads().forEach((route, request) -> {
            final int status = request.get().status();
            assertEquals(route.contains("/1") ? 404 : 200, status, route);
        });
    }

    private Map<String, Supplier<Answer>> commands() {
        final String order = limit("acct-1", "c-1", "BTCUSD", "BUY", "50000.00", "0.5", null);
        final Map<String, Supplier<Answer>> routes = new LinkedHashMap<>();
        routes.put("POST /api/v1/orders", () -> api.post("/api/v1/orders", order));
        routes.put("POST /api/v1/orders/", () -> api.post("/api/v1/orders/", order));
        routes.put("DELETE /api/v1/orders/1", () -> api.delete("/api/v1/orders/1"));
        routes.put("PATCH /api/v1/orders/1", () -> api.patch("/api/v1/orders/1", "{\"quantity\":\"1\"}"));
        routes.put("DELETE /api/v1/orders", () -> api.delete("/api/v1/orders?accountId=acct-1"));
        routes.put("POST /api/v1/cancel-all-after", () -> api.post("/api/v1/cancel-all-after",
                "{\"timeoutSeconds\":60,\"accountId\":\"acct-1\"}"));
        return routes;
    }

    private Map<String, Supplier<Answer>> reads() {
        final Map<String, Supplier<Answer>> routes = new LinkedHashMap<>();
        routes.put("GET /api/v1/orders", () -> api.get("/api/v1/orders?accountId=acct-1"));
        routes.put("GET /api/v1/orders/1", () -> api.get("/api/v1/orders/1"));
        routes.put("GET /api/v1/orders/1/fills", () -> api.get("/api/v1/orders/1/fills"));
        return routes;
    }
}
