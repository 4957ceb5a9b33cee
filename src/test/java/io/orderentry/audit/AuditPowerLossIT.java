package io.orderentry.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.orderentry.auth.Secrets;
import io.orderentry.http.RequestIds;
import io.orderentry.testing.ApiClient;
import io.orderentry.testing.ApiClient.Answer;
import io.orderentry.testing.ServiceProcess;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real jar, with the default {@code ORDERS_AUDIT_SYNC=none}: a power loss can take the trail's unforced tail
 * while the fsync'd journal keeps every answered command. Simulated by kill -9 and then cutting the trail back to an
 * earlier record boundary, as the lost page cache would. The restart rebuilds the lost records from the journal,
 * with who asked: the key id, the address and the request id.
 */
class AuditPowerLossIT {

    private static final int ORDERS = 12;
    private static final int KEPT = 4;

    @TempDir
    Path dir;

    @Test
    void answeredOrdersWhoseRecordsAPowerLossTookAreRebuiltWithTheirKeyIdAddressAndRequestId() {
        final Path keys = dir.resolve("keys");
        final String alice = ServiceProcess.createKey(keys, "alice");
        final Map<String, String> env = Map.of("ORDERS_AUTH", "keys", "ORDERS_AUTH_KEYS_FILE", keys.toString(),
                "ORDERS_JOURNAL_SYNC", "fsync", "ORDERS_AUDIT_SYNC", "none");
        final List<String> answered = new ArrayList<>();
        try (ServiceProcess first = ServiceProcess.start(dir, env, "first")) {
            final ApiClient client = first.client().withKey(alice);
            for (int i = 0; i < ORDERS; i++) {
                final Answer placed = client.post("/api/v1/orders",
                        "{\"symbol\":\"BTCUSD\",\"side\":\"BUY\",\"type\":\"LIMIT\",\"price\":\"100.00\",\"quantity\":\"1\","
                                + "\"clientOrderId\":\"p-" + i + "\"}");
                assertEquals(201, placed.status(), placed.body());
                answered.add(placed.header(RequestIds.HEADER));
            }
            first.kill9();
        }
        final Path newest = Trails.files(dir.resolve("audit")).get(Trails.files(dir.resolve("audit")).size() - 1);
        final List<String> lines = Trails.lines(newest);
        final int firstLost = lostFrom(lines, answered.get(KEPT));
        Trails.rewrite(newest, lines.subList(0, firstLost));   // the power loss: the unforced tail is gone

        try (ServiceProcess second = ServiceProcess.start(dir, env, "second")) {
            assertTrue(second.log().contains("audited as recovered, with the request id, address and key id"),
                    second.log());
            second.terminate();
        }
        final Map<String, JsonNode> byRequest = Trails.records(dir.resolve("audit")).stream()
                .filter(r -> !r.get("requestId").isNull())
                .collect(Collectors.toMap(r -> r.get("requestId").asText(), r -> r, (a, b) -> b));
        for (int i = KEPT; i < ORDERS; i++) {
            final JsonNode record = byRequest.get(answered.get(i));
            assertNotNull(record, "the answered order " + answered.get(i) + " has no record after the power loss");
            assertTrue(record.get("recovered").asBoolean(), record.toString());
            assertEquals("PLACE", record.get("kind").asText());
            assertEquals(Secrets.keyIdOf(alice), record.get("keyId").asText(), record.toString());
            assertTrue(record.get("remoteAddress").asText().startsWith("127.0.0.1:"), record.toString());
            assertEquals("alice", record.get("accountId").asText());
            assertEquals("p-" + i, record.get("clientOrderId").asText());
            assertEquals("PLACED", record.at("/outcome/result").asText(), record.toString());
        }
        for (int i = 0; i < KEPT; i++) {
            assertTrue(!byRequest.get(answered.get(i)).get("recovered").asBoolean(), "written before the loss");
        }
        final AuditVerification verified = Trails.verify(dir.resolve("audit"));
        assertTrue(verified.intact(), verified.summary());
    }

    /** @return the index of the line recording {@code requestId}: the trail is cut there */
    private static int lostFrom(final List<String> lines, final String requestId) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains("\"requestId\":\"" + requestId + "\"")) {
                return i;
            }
        }
        throw new AssertionError("no record of " + requestId + " before the power loss");
    }
}
