package io.orderentry.audit;

import static io.orderentry.testing.ApiClient.limit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.orderentry.http.RequestIds;
import io.orderentry.testing.ApiClient;
import io.orderentry.testing.ApiClient.Answer;
import io.orderentry.testing.RunningService;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every request that reaches order entry leaves the right audit record, through the real pipeline. */
class AuditedRequestsTest {

    private static final String REQUEST_ID = RequestIds.HEADER;

    @TempDir
    Path dir;

    private Path audit() {
        return dir.resolve("audit");
    }

    @Test
    void everyKindOfRequestLeavesItsRecordUnderTheIdReturnedToTheClient() {
        try (RunningService service = RunningService.start(dir, Map.of())) {
            final ApiClient api = service.client();
            final String order = limit("acct-1", "c-1", "BTCUSD", "BUY", "100.00", "1", null);
            final Answer placed = api.post("/api/v1/orders", order);
            final long orderId = placed.json().get("orderId").asLong();
            final JsonNode place = answeredRecord(placed, "PLACE", 201, null);
            assertEquals("acct-1", place.get("accountId").asText());
            assertEquals("c-1", place.get("clientOrderId").asText());
            assertEquals(orderId, place.get("orderId").asLong());
            assertEquals("PLACED", place.get("outcome").get("result").asText());
            assertEquals("NEW", place.get("outcome").get("status").asText());
            assertTrue(place.get("remoteAddress").asText().startsWith("127.0.0.1:"), place.toString());
            assertTrue(place.get("journalSequence").asLong() > 0);

            assertEquals("DUPLICATE", answeredRecord(api.post("/api/v1/orders", order), "PLACE", 200, null)
                    .get("outcome").get("result").asText());
            answeredRecord(api.post("/api/v1/orders", limit("acct-1", "c-1", "BTCUSD", "BUY", "101.00", "1", null)),
                    "PLACE", 409, "DUPLICATE_CLIENT_ORDER_ID");
            final JsonNode cancel = answeredRecord(api.delete("/api/v1/orders/" + orderId), "CANCEL", 200, null);
            assertEquals("CANCELED", cancel.get("outcome").get("status").asText());
            assertEquals("acct-1", cancel.get("accountId").asText(), "a cancel is recorded with the order's account");
            answeredRecord(api.delete("/api/v1/orders/" + orderId), "CANCEL", 409, "ORDER_NOT_OPEN");
            answeredRecord(api.delete("/api/v1/orders/987654"), "CANCEL", 404, "ORDER_NOT_FOUND");

            final JsonNode badJson = refusedRecord(api.post("/api/v1/orders", "{\"accountId\":"), "PLACE", 400,
                    "INVALID_JSON");
            assertTrue(badJson.get("accountId").isNull());
            final JsonNode offTick = refusedRecord(api.post("/api/v1/orders",
                    limit("acct-2", "c-2", "BTCUSD", "BUY", "1.001", "1", null)), "PLACE", 422, "PRICE_NOT_ON_TICK");
            assertTrue(offTick.get("accountId").isNull(), "no key vouches for the account the body names");
            assertEquals("acct-2", offTick.get("claimedAccountId").asText());
            assertEquals("c-2", offTick.get("clientOrderId").asText());
            assertEquals("price", offTick.get("outcome").get("field").asText());
            refusedRecord(api.delete("/api/v1/orders/abc"), "CANCEL", 400, "INVALID_ORDER_ID");
            refusedRecord(api.post("/api/v1/orders", "{\"pad\":\"" + "x".repeat(17 * 1024) + "\"}"), "PLACE", 413,
                    "BODY_TOO_LARGE");
            refusedRecord(api.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + service.port()
                    + "/api/v1/orders")).POST(HttpRequest.BodyPublishers.ofByteArray(new byte[64 * 1024]))), "PLACE",
                    413, "BODY_TOO_LARGE");

            final int before = Trails.records(audit()).size();
            assertNotNull(api.get("/api/v1/orders/" + orderId).header(REQUEST_ID), "reads carry an id too");
            api.get("/api/v1/orders?accountId=acct-1");
            api.get("/api/v1/orders?accountId=" + "bad!");
            assertEquals(before, Trails.records(audit()).size(), "reads are not audited");
        }
        assertTrue(Trails.verify(audit()).intact(), Trails.verify(audit()).summary());
    }

    @Test
    void refusedRequestsAreAuditedButNeverJournaled() {
        try (RunningService service = RunningService.start(dir, Map.of())) {
            final ApiClient api = service.client();
            final long first = answeredRecord(api.post("/api/v1/orders",
                    limit("a", null, "ETHUSD", "SELL", "9000.00", "1", null)), "PLACE", 201, null)
                    .get("journalSequence").asLong();
            for (int i = 0; i < 5; i++) {
                refusedRecord(api.post("/api/v1/orders", limit("a", null, "ETHUSD", "SELL", "-1", "1", null)),
                        "PLACE", 422, "INVALID_PRICE");
                refusedRecord(api.delete("/api/v1/orders/0"), "CANCEL", 400, "INVALID_ORDER_ID");
            }
            final long next = answeredRecord(api.post("/api/v1/orders",
                    limit("a", null, "ETHUSD", "SELL", "9001.00", "1", null)), "PLACE", 201, null)
                    .get("journalSequence").asLong();
            assertEquals(first + 1, next, "refusals took no journal sequence");
            assertEquals(Optional.of(next), journalLastSequence(api));
            for (final JsonNode record : Trails.records(audit())) {
                if (record.get("kind").asText().equals("REJECTED_AT_EDGE")) {
                    assertTrue(record.get("journalSequence").isNull(), record.toString());
                }
            }
        }
    }

    @Test
    void theChainVerifiesAcrossRotationsAndARestart() {
        // no price bands: a first start with bands journals (and audits) one PRICE_BAND_SET per instrument before any
        // order, which the counts below leave out; AuditStageTest records those
        final Map<String, String> smallFiles = Map.of("ORDERS_AUDIT_MAX_FILE_BYTES", "4096", "ORDERS_PRICE_BAND_PERCENT",
                "0");
        try (RunningService service = RunningService.start(dir, smallFiles)) {
            placeOrders(service.client(), 0, 25);
        }
        try (RunningService service = RunningService.start(dir, smallFiles)) {
            placeOrders(service.client(), 25, 10);
        }
        final AuditVerification verification = Trails.verify(audit());
        assertTrue(verification.intact(), verification.summary());
        assertTrue(verification.files() >= 3, verification.summary());
        final List<JsonNode> records = Trails.records(audit());
        assertEquals(2 + 35, records.size());
        assertEquals("SERVICE_STARTED", records.get(0).get("kind").asText());
        assertEquals(0, records.get(0).get("journalSequence").asLong());
        final JsonNode restart = records.get(26);
        assertEquals("SERVICE_STARTED", restart.get("kind").asText());
        assertEquals(25, restart.get("journalSequence").asLong(), "the restart replayed 25 commands");
        assertFalse(records.stream().anyMatch(r -> r.get("recovered").asBoolean()), "nothing was missing");
    }

    @Test
    void aJournaledCommandWhoseRecordWasLostIsAuditedAsRecoveredAtRestart() {
        final Map<String, String> noBands = Map.of("ORDERS_PRICE_BAND_PERCENT", "0");   // as above
        try (RunningService service = RunningService.start(dir, noBands)) {
            placeOrders(service.client(), 0, 5);
        }
        final Path file = Trails.files(audit()).get(0);
        final List<String> lines = Trails.lines(file);
        final JsonNode lost = Trails.records(audit()).get(5);
        Trails.rewrite(file, lines.subList(0, lines.size() - 2));
        try (RunningService service = RunningService.start(dir, noBands)) {
            assertEquals(5, service.client().get("/api/v1/orders?accountId=acct-r").json().size());
        }
        final List<JsonNode> records = Trails.records(audit());
        assertEquals(7, records.size());
        for (int i = 4; i <= 5; i++) {
            final JsonNode recovered = records.get(i);
            assertTrue(recovered.get("recovered").asBoolean(), recovered.toString());
            assertFalse(recovered.get("requestId").isNull(), "who asked is in the journal");
            assertTrue(recovered.get("outcome").get("httpStatus").isNull(), "whether it was answered is not known");
            assertEquals(i, recovered.get("journalSequence").asLong());
            assertEquals("NEW", recovered.get("outcome").get("status").asText());
        }
        assertEquals(lost.get("orderId"), records.get(5).get("orderId"));
        assertEquals(lost.get("clientOrderId"), records.get(5).get("clientOrderId"));
        assertEquals(lost.get("requestId"), records.get(5).get("requestId"));
        assertEquals(lost.get("remoteAddress"), records.get(5).get("remoteAddress"));
        assertEquals("SERVICE_STARTED", records.get(6).get("kind").asText());
        assertTrue(Trails.verify(audit()).intact(), Trails.verify(audit()).summary());
    }

    @Test
    void orderEntryAnswers503WhileTheAuditTrailCannotWriteReadsStillWorkAndOrdersAreTakenAgainOnceItWrites() {
        try (RunningService service = RunningService.start(dir, Map.of())) {
            final ApiClient api = service.client();
            final long orderId = api.post("/api/v1/orders", limit("a", null, "BTCUSD", "BUY", "1.00", "1", null))
                    .json().get("orderId").asLong();
            service.service().status().auditFailed("test: disk gone", true);
            final Answer place = api.post("/api/v1/orders", limit("a", null, "BTCUSD", "BUY", "2.00", "1", null));
            assertEquals(503, place.status());
            assertEquals("AUDIT_UNAVAILABLE", place.errorCode());
            assertEquals("1", place.header("Retry-After"));
            assertNotNull(place.header(REQUEST_ID));
            assertEquals("AUDIT_UNAVAILABLE", api.delete("/api/v1/orders/" + orderId).errorCode());
            final Answer ready = api.get("/ready");
            assertEquals(503, ready.status());
            assertEquals("DOWN", ready.json().get("components").get("audit").get("status").asText());
            assertEquals(200, api.get("/api/v1/orders/" + orderId).status());
            assertEquals(200, api.get("/health").status(), "the trail retries by itself: no reason to restart");
            service.service().status().auditResumed();
            assertEquals(201, api.post("/api/v1/orders", limit("a", null, "BTCUSD", "BUY", "2.00", "1", null))
                    .status());
            assertEquals(200, api.get("/ready").status());
        }
    }

    @Test
    void healthIsDownOnceTheAuditTrailCannotGoOnBeforeARestart() {
        try (RunningService service = RunningService.start(dir, Map.of())) {
            final ApiClient api = service.client();
            service.service().status().auditFailed("test: disk gone", true);
            service.service().status().auditFailed("test: records lost", false);
            service.service().status().auditResumed();   // too late: the chain is broken
            assertEquals("AUDIT_UNAVAILABLE", api.post("/api/v1/orders",
                    limit("a", null, "BTCUSD", "BUY", "2.00", "1", null)).errorCode());
            final Answer health = api.get("/health");
            assertEquals(503, health.status(), "only a restart helps: an orchestrator should restart the process");
            assertEquals("DOWN", health.json().get("status").asText());
            assertTrue(health.json().get("reason").asText().contains("test: records lost"), health.body());
        }
    }

    private static void placeOrders(final ApiClient api, final int from, final int count) {
        for (int i = from; i < from + count; i++) {
            final Answer answer = api.post("/api/v1/orders", limit("acct-r", "r-" + i, "BTCUSD", "SELL",
                    (60_000 + i) + ".00", "1", null));
            assertEquals(201, answer.status(), answer.body());
        }
    }

    /** The record of an answered command must be in the trail as soon as the answer is. */
    private JsonNode answeredRecord(final Answer answer, final String kind, final int status, final String code) {
        final JsonNode record = recordOf(answer).orElseThrow(() -> new AssertionError(
                "no audit record for an answered request " + answer.header(REQUEST_ID) + ": " + answer.body()));
        assertRecord(record, answer, kind, status, code);
        return record;
    }

    /** Refusals are answered at once and written in order by the audit thread: wait for the record. */
    private JsonNode refusedRecord(final Answer answer, final String action, final int status, final String code) {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        Optional<JsonNode> record = recordOf(answer);
        while (record.isEmpty() && System.nanoTime() < deadline) {
            pause();
            record = recordOf(answer);
        }
        final JsonNode found = record.orElseThrow(() -> new AssertionError("no audit record for refused request "
                + answer.header(REQUEST_ID) + ": " + answer.body()));
        assertRecord(found, answer, "REJECTED_AT_EDGE", status, code);
        assertEquals(action, found.get("action").asText());
        assertEquals(answer.json().get("error").get("message").asText(), found.get("outcome").get("message").asText());
        return found;
    }

    private static void assertRecord(final JsonNode record, final Answer answer, final String kind, final int status,
                                     final String code) {
        assertEquals(status, answer.status(), answer.body());
        assertEquals(kind, record.get("kind").asText(), record.toString());
        assertEquals(status, record.get("outcome").get("httpStatus").asInt(), record.toString());
        assertEquals(code, answer.errorCode());
        if (code == null) {
            assertTrue(record.get("outcome").get("code").isNull(), record.toString());
        } else {
            assertEquals(code, record.get("outcome").get("code").asText(), record.toString());
        }
        assertFalse(record.get("recovered").asBoolean());
    }

    private Optional<JsonNode> recordOf(final Answer answer) {
        final String id = answer.header(REQUEST_ID);
        assertNotNull(id, "every order-entry answer carries " + REQUEST_ID);
        return Trails.records(audit()).stream().filter(r -> id.equals(r.get("requestId").asText())).findFirst();
    }

    private static Optional<Long> journalLastSequence(final ApiClient api) {
        return api.get("/metrics").body().lines().filter(l -> l.startsWith("orders_journal_last_sequence "))
                .map(l -> (long) Double.parseDouble(l.substring(l.indexOf(" ") + 1).trim())).findFirst();
    }

    private static void pause() {
        try {
            Thread.sleep(5);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
