package io.orderentry.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.orderentry.testing.ApiClient;
import io.orderentry.testing.ApiClient.Answer;
import io.orderentry.testing.ServiceProcess;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every status and code of API.md's "Accounts and authentication" against the real jar, with keys made by the
 * {@code keys} command as an operator makes them: missing, malformed, unknown, revoked and read-only keys, another
 * account's order for GET and DELETE, an accountId that is not the key's, and what the audit trail and
 * {@code /metrics} record of it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AuthenticationIT {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String ORDER = "{\"symbol\":\"BTCUSD\",\"side\":\"BUY\",\"type\":\"LIMIT\",\"price\":\"100.00\","
            + "\"quantity\":\"0.5\"}";

    @TempDir
    static Path dir;
    private ServiceProcess service;
    private Path keys;
    private String alice;
    private String aliceReader;
    private String bob;

    @BeforeAll
    void start() {
        keys = dir.resolve("keys");
        alice = ServiceProcess.createKey(keys, "alice");
        aliceReader = ServiceProcess.createKey(keys, "alice", "--read-only");
        bob = ServiceProcess.createKey(keys, "bob");
        service = ServiceProcess.start(dir, Map.of("ORDERS_AUTH", "keys", "ORDERS_AUTH_KEYS_FILE", keys.toString()),
                "auth");
    }

    @AfterAll
    void stop() {
        service.close();
    }

    private ApiClient as(final String secret) {
        return service.client().withKey(secret);
    }

    @Test
    void anOrderEndpointWithoutAnAuthorizationHeaderIs401UnauthenticatedWithABearerChallenge() {
        for (final Answer answer : List.of(service.client().post("/api/v1/orders", ORDER),
                service.client().get("/api/v1/orders"), service.client().get("/api/v1/orders/1"),
                service.client().delete("/api/v1/orders/1"))) {
            assertEquals(401, answer.status(), answer.body());
            assertEquals("UNAUTHENTICATED", answer.errorCode());
            assertEquals("Bearer", answer.header("WWW-Authenticate"));
        }
    }

    @Test
    void aMalformedAuthorizationHeaderIs401Unauthenticated() {
        for (final String header : List.of("Basic YWxpY2U6cHc=", "Bearer", "Bearer ", alice, "Bearer a b")) {
            final Answer answer = service.client().send(HttpRequest.newBuilder(uri("/api/v1/orders"))
                    .header("Authorization", header).GET());
            assertEquals(401, answer.status(), header + " -> " + answer.body());
            assertEquals("UNAUTHENTICATED", answer.errorCode(), header);
        }
    }

    @Test
    void anUnknownKeyIs401InvalidApiKeyWhetherOrNotItHasTheShapeOfOne() {
        final String wellFormed = Secrets.newSecret(Secrets.newKeyId());
        final String sameIdOtherSecret = alice.substring(0, alice.indexOf('.') + 1) + "x".repeat(43);
        for (final String secret : List.of(wellFormed, sameIdOtherSecret, "not-a-key")) {
            final Answer answer = as(secret).post("/api/v1/orders", ORDER);
            assertEquals(401, answer.status(), answer.body());
            assertEquals("INVALID_API_KEY", answer.errorCode());
            assertTrue(answer.header("WWW-Authenticate").startsWith("Bearer"), answer.header("WWW-Authenticate"));
        }
    }

    @Test
    void aKeyRevokedWhileTheServiceRunsIsRefusedWithinSecondsAndOthersStillWork() throws Exception {
        final String carol = ServiceProcess.createKey(keys, "carol");
        awaitStatus(as(carol), 201);
        ServiceProcess.revokeKey(keys, Secrets.keyIdOf(carol));
        final Answer refused = awaitStatus(as(carol), 401);
        assertEquals("INVALID_API_KEY", refused.errorCode());
        assertTrue(refused.json().at("/error/message").asText().contains("revoked"), refused.body());
        assertEquals(201, as(bob).post("/api/v1/orders", ORDER).status());
    }

    @Test
    void aReadOnlyKeyReadsItsAccountsOrdersButEveryWriteIs403PermissionDenied() {
        final Answer placed = as(alice).post("/api/v1/orders", ORDER);
        assertEquals(201, placed.status(), placed.body());
        final long orderId = placed.json().get("orderId").asLong();
        final Answer place = as(aliceReader).post("/api/v1/orders", ORDER);
        assertEquals(403, place.status(), place.body());
        assertEquals("PERMISSION_DENIED", place.errorCode());
        final Answer cancel = as(aliceReader).delete("/api/v1/orders/" + orderId);
        assertEquals(403, cancel.status(), cancel.body());
        assertEquals("PERMISSION_DENIED", cancel.errorCode());
        assertEquals("NEW", as(alice).get("/api/v1/orders/" + orderId).json().get("status").asText());
        assertEquals(200, as(aliceReader).get("/api/v1/orders/" + orderId).status());
        assertEquals(200, as(aliceReader).get("/api/v1/orders/" + orderId + "/fills").status());
        assertTrue(ids(as(aliceReader).get("/api/v1/orders")).contains(orderId));
    }

    @Test
    void theAccountIsTheKeysAndAnOrderWithoutAccountIdIsPlacedForIt() {
        final Answer placed = as(bob).post("/api/v1/orders", ORDER);
        assertEquals(201, placed.status(), placed.body());
        assertEquals("bob", placed.json().get("accountId").asText());
        final Answer named = as(bob).post("/api/v1/orders", ORDER.replace("{", "{\"accountId\":\"bob\","));
        assertEquals(201, named.status(), named.body());
        assertEquals("bob", named.json().get("accountId").asText());
        assertNotNull(placed.header("RateLimit-Limit"));
        assertNotNull(placed.header("RateLimit-Remaining"));
        assertNotNull(placed.header("RateLimit-Reset"));
    }

    @Test
    void anAccountIdThatIsNotTheKeysIs403AccountMismatchAndPlacesNothing() throws Exception {
        final double placedBefore = placed();
        final Answer place = as(bob).post("/api/v1/orders", ORDER.replace("{", "{\"accountId\":\"alice\","));
        assertEquals(403, place.status(), place.body());
        assertEquals("ACCOUNT_MISMATCH", place.errorCode());
        assertEquals("accountId", place.json().at("/error/field").asText());
        final Answer list = as(bob).get("/api/v1/orders?accountId=alice");
        assertEquals(403, list.status(), list.body());
        assertEquals("ACCOUNT_MISMATCH", list.errorCode());
        assertEquals(placedBefore, placed());
    }

    @Test
    void anotherAccountsOrderIs404ForGetFillsAndDeleteExactlyAsAnUnknownIdAndStaysOpen() {
        final Answer placed = as(alice).post("/api/v1/orders", ORDER);
        final long orderId = placed.json().get("orderId").asLong();
        final Answer unknown = as(bob).get("/api/v1/orders/" + Long.MAX_VALUE);
        for (final Answer answer : List.of(as(bob).get("/api/v1/orders/" + orderId),
                as(bob).get("/api/v1/orders/" + orderId + "/fills"), as(bob).delete("/api/v1/orders/" + orderId))) {
            assertEquals(404, answer.status(), answer.body());
            assertEquals("ORDER_NOT_FOUND", answer.errorCode());
            assertEquals(unknown.json().at("/error/field"), answer.json().at("/error/field"));
        }
        assertFalse(ids(as(bob).get("/api/v1/orders")).contains(orderId));
        assertEquals("NEW", as(alice).get("/api/v1/orders/" + orderId).json().get("status").asText());
        final Answer canceled = as(alice).delete("/api/v1/orders/" + orderId);
        assertEquals(200, canceled.status(), canceled.body());
        assertEquals("CANCELED", canceled.json().get("status").asText());
    }

    @Test
    void marketDataHealthAndSymbolsNeedNoKey() {
        assertEquals(200, service.client().get("/api/v1/orderbook/BTCUSD").status());
        assertEquals(200, service.client().get("/api/v1/trades/BTCUSD").status());
        assertEquals(200, service.client().get("/api/v1/symbols").status());
        assertEquals(200, service.client().get("/health").status());
        assertEquals(200, service.client().get("/ready").status());
    }

    @Test
    void theAuditTrailRecordsTheKeyIdNeverTheSecretAndEveryFailedAuthentication() throws Exception {
        final Answer placed = as(alice).post("/api/v1/orders", ORDER);
        final String placedTag = placed.header("X-Request-Id");
        final Answer refused = as("kdeadbeefdeadbeef." + "y".repeat(43)).get("/api/v1/orders/1");
        final String refusedTag = refused.header("X-Request-Id");
        final Answer bare = service.client().delete("/api/v1/orders/1");
        final String bareTag = bare.header("X-Request-Id");
        final JsonNode place = awaitRecord(placedTag);
        assertEquals("PLACE", place.get("kind").asText());
        assertEquals(Secrets.keyIdOf(alice), place.get("keyId").asText());
        assertEquals("alice", place.get("accountId").asText());
        final JsonNode invalid = awaitRecord(refusedTag);
        assertEquals("REJECTED_AT_EDGE", invalid.get("kind").asText());
        assertEquals("INVALID_API_KEY", invalid.at("/outcome/code").asText());
        assertEquals(401, invalid.at("/outcome/httpStatus").asInt());
        assertTrue(invalid.get("action").isNull(), invalid.toString());
        final JsonNode missing = awaitRecord(bareTag);
        assertEquals("UNAUTHENTICATED", missing.at("/outcome/code").asText());
        assertEquals("CANCEL", missing.get("action").asText());
        assertTrue(missing.get("keyId").isNull(), missing.toString());
        final String trail = auditText();
        for (final String secret : List.of(alice, aliceReader, bob)) {
            assertFalse(trail.contains(secret.substring(secret.indexOf('.') + 1)), "a secret is in the audit trail");
        }
    }

    @Test
    void aKeyless401NamingAnAccountIsRecordedAsClaimedNeverAsTheAccount() throws Exception {
        final String body = ORDER.replace("{", "{\"accountId\":\"victim\",\"clientOrderId\":\"c-1\",");
        final Answer keyless = service.client().post("/api/v1/orders", body);
        assertEquals(401, keyless.status(), keyless.body());
        final Answer forged = as("kdeadbeefdeadbeef." + "y".repeat(43)).post("/api/v1/orders", body);
        assertEquals(401, forged.status(), forged.body());
        final Answer mismatch = as(alice).post("/api/v1/orders", body);
        assertEquals(403, mismatch.status(), mismatch.body());
        for (final Answer refused : List.of(keyless, forged)) {
            final JsonNode record = awaitRecord(refused.header("X-Request-Id"));
            assertTrue(record.get("accountId").isNull(), record.toString());
            assertEquals("victim", record.get("claimedAccountId").asText(), record.toString());
        }
        final JsonNode other = awaitRecord(mismatch.header("X-Request-Id"));
        assertEquals("alice", other.get("accountId").asText(), "the key vouches for its own account");
        assertEquals("victim", other.get("claimedAccountId").asText(), other.toString());
        final Answer placed = as(alice).post("/api/v1/orders", ORDER);
        assertTrue(awaitRecord(placed.header("X-Request-Id")).get("claimedAccountId").isNull());
    }

    @Test
    void failedAuthenticationsAreCountedByCodeInMetrics() {
        final double before = metric("orders_auth_failures_total{code=\"INVALID_API_KEY\"}");
        as("nobody").get("/api/v1/orders");
        as("nobody").get("/api/v1/orders");
        assertTrue(metric("orders_auth_failures_total{code=\"INVALID_API_KEY\"}") >= before + 2);
        assertEquals(3.0, metric("orders_auth_keys_active"), 1.0);
        assertEquals(1.0, metric("orders_auth_enabled"));
    }

    private Answer awaitStatus(final ApiClient client, final int status) throws InterruptedException {
        final long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        Answer answer;
        do {
            answer = client.post("/api/v1/orders", ORDER);
            if (answer.status() == status) {
                return answer;
            }
            Thread.sleep(100);
        } while (System.nanoTime() < deadline);
        throw new AssertionError("still " + answer.status() + " after 15 s: " + answer.body());
    }

    private JsonNode awaitRecord(final String requestId) throws Exception {
        assertNotNull(requestId);
        final long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (System.nanoTime() < deadline) {
            for (final String line : auditText().split("\n")) {
                if (line.contains("\"requestId\":\"" + requestId + "\"")) {
                    return MAPPER.readTree(line);
                }
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no audit record of request " + requestId);
    }

    private String auditText() throws Exception {
        final StringBuilder text = new StringBuilder();
        try (Stream<Path> files = Files.list(dir.resolve("audit"))) {
            for (final Path file : files.filter(Files::isRegularFile).sorted().toList()) {
                if (!file.getFileName().toString().endsWith(".gz")) {
                    text.append(Files.readString(file));
                }
            }
        }
        return text.toString();
    }

    private double placed() {
        return metric("orders_commands_total{result=\"PLACED\"}");
    }

    private double metric(final String series) {
        for (final String line : service.client().get("/metrics").body().split("\n")) {
            if (line.startsWith(series + " ")) {
                return Double.parseDouble(line.substring(series.length() + 1).trim());
            }
        }
        return 0;
    }

    private URI uri(final String path) {
        return URI.create("http://127.0.0.1:" + service.port() + path);
    }

    private static List<Long> ids(final Answer list) {
        assertEquals(200, list.status(), list.body());
        final List<Long> ids = new ArrayList<>();
        list.json().forEach(order -> ids.add(order.get("orderId").asLong()));
        return ids;
    }

    @Test
    void withAuthenticationOffNoKeyIsAskedForAndAccountIdIsRequiredAsBefore(@TempDir final Path open) {
        try (ServiceProcess none = ServiceProcess.start(open, Map.of("ORDERS_AUTH", "none"), "none")) {
            final Answer missing = none.client().post("/api/v1/orders", ORDER);
            assertEquals(400, missing.status(), missing.body());
            assertEquals("MISSING_FIELD", missing.errorCode());
            final Answer placed = none.client().post("/api/v1/orders", ORDER.replace("{", "{\"accountId\":\"x\","));
            assertEquals(201, placed.status(), placed.body());
            assertNull(placed.header("RateLimit-Limit"));
            assertTrue(none.client().get("/ready").json().get("warnings").get(0).asText().contains("ORDERS_AUTH=none"));
            assertTrue(none.log().contains("AUTHENTICATION IS OFF"), none.log());
            assertFalse(Files.exists(open.resolve("keys")), "no keys file is made with authentication off");
        }
    }
}
