package io.orderentry.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.orderentry.engine.CommandResult;
import io.orderentry.engine.OrderStatus;
import io.orderentry.engine.RejectReason;
import io.orderentry.pipeline.CommandType;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

class AuditRecordEncoderTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final byte[] PREV = "ab".repeat(32).getBytes(StandardCharsets.US_ASCII);
    private static final long TIME = Instant.parse("2026-11-22T10:15:30.123456Z").toEpochMilli() * 1000 + 456;

    private final AuditRecordEncoder encoder = new AuditRecordEncoder();

    private String encode(final long seq, final AuditEntry entry) {
        final int length = encoder.encode(seq, TIME, entry, PREV);
        return new String(encoder.line(), 0, length, StandardCharsets.UTF_8);
    }

    @Test
    void shouldWriteEveryFieldInTheDocumentedOrderOnOneLine() throws Exception {
        final AuditEntry entry = Trails.placed(new AuditEntry(), 17);
        entry.status = OrderStatus.REJECTED;
        entry.rejectReason = RejectReason.POST_ONLY_WOULD_CROSS;
        final String line = encode(42, entry);
        assertTrue(line.endsWith("\"}\n"));
        assertEquals(1, line.split("\n", -1).length - 1, "one line");
        final JsonNode record = MAPPER.readTree(line);
        final List<String> fields = new ArrayList<>();
        record.fieldNames().forEachRemaining(fields::add);
        assertEquals(List.of("seq", "time", "requestId", "remoteAddress", "keyId", "kind", "action", "accountId",
                "clientOrderId", "orderId", "journalSequence", "recovered", "outcome", "prevHash", "hash"), fields);
        final List<String> outcome = new ArrayList<>();
        record.get("outcome").fieldNames().forEachRemaining(outcome::add);
        assertEquals(List.of("result", "status", "rejectReason", "httpStatus", "code", "message", "field"), outcome);
        assertEquals(42, record.get("seq").asLong());
        assertTrue(record.get("keyId").isNull(), "a request without an API key (authentication off) has no key id");
        assertEquals("2026-11-22T10:15:30.123456Z", record.get("time").asText());
        assertEquals("PLACE", record.get("kind").asText());
        assertEquals("REJECTED", record.get("outcome").get("status").asText());
        assertEquals("POST_ONLY_WOULD_CROSS", record.get("outcome").get("rejectReason").asText());
        assertEquals(201, record.get("outcome").get("httpStatus").asInt());
        assertEquals(17, record.get("journalSequence").asLong());
        assertEquals("ab".repeat(32), record.get("prevHash").asText());
    }

    @Test
    void shouldWriteTheKeyIdRightAfterTheRemoteAddress() throws Exception {
        final AuditEntry entry = Trails.placed(new AuditEntry(), 5);
        entry.keyId = "k0123456789abcdef";
        final String line = encode(7, entry);
        assertTrue(line.contains("\"remoteAddress\":\"127.0.0.1:40000\",\"keyId\":\"k0123456789abcdef\",\"kind\""),
                line);
        assertEquals("k0123456789abcdef", MAPPER.readTree(line).get("keyId").asText());
    }

    @Test
    void shouldHashTheLineWithoutItsHashFieldClosedByABrace() throws Exception {
        final String line = encode(1, Trails.placed(new AuditEntry(), 1)).stripTrailing();
        final String hash = MAPPER.readTree(line).get("hash").asText();
        final String canonical = line.substring(0, line.indexOf(",\"hash\":\"")) + "}";
        final byte[] expected = MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8));
        assertEquals(HexFormat.of().formatHex(expected), hash);
    }

    @Test
    void shouldWriteUnknownsAsNull() throws Exception {
        final AuditEntry entry = new AuditEntry();
        entry.kind = AuditKind.CANCEL;
        entry.action = CommandType.CANCEL;
        entry.result = CommandResult.ORDER_NOT_FOUND;
        entry.rejectReason = RejectReason.NONE;
        final JsonNode record = MAPPER.readTree(encode(3, entry));
        for (final String field : new String[] {"requestId", "remoteAddress", "keyId", "accountId", "clientOrderId",
                "orderId", "journalSequence"}) {
            assertTrue(record.get(field).isNull(), field);
        }
        assertTrue(record.get("outcome").get("rejectReason").isNull(), "NONE is written as null");
        assertTrue(record.get("outcome").get("httpStatus").isNull());
    }

    @Test
    void shouldWriteTheJournalSequenceOfAStartEvenWhenZeroAndNoOutcome() throws Exception {
        final AuditEntry entry = new AuditEntry();
        entry.kind = AuditKind.SERVICE_STARTED;
        final JsonNode record = MAPPER.readTree(encode(1, entry));
        assertEquals(0, record.get("journalSequence").asLong());
        assertTrue(record.get("journalSequence").isNumber());
        assertTrue(record.get("outcome").isNull());
    }

    @Test
    void shouldEscapeUntrustedTextAndCutItAtTheLimit() throws Exception {
        final AuditEntry entry = new AuditEntry();
        entry.kind = AuditKind.REJECTED_AT_EDGE;
        entry.action = CommandType.PLACE;
        entry.httpStatus = 400;
        entry.code = "UNKNOWN_FIELD";
        final String nasty = "q\"b\\n\nt\tc\u0001 é € 😀 lone\ud800!";
        entry.field = nasty;
        entry.message = "x".repeat(AuditRecordEncoder.MAX_TEXT_CHARS + 50);
        final String line = encode(9, entry);
        assertEquals(1, line.split("\n", -1).length - 1, "control characters never break the line");
        final JsonNode outcome = MAPPER.readTree(line).get("outcome");
        assertEquals(nasty, outcome.get("field").asText());
        assertEquals("x".repeat(AuditRecordEncoder.MAX_TEXT_CHARS) + "...", outcome.get("message").asText());
    }
}
