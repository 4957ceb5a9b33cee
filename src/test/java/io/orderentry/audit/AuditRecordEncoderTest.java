package io.orderentry.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
                "claimedAccountId", "clientOrderId", "orderId", "journalSequence", "recovered", "terms", "outcome", "prevHash", "hash"),
                fields);
        final List<String> outcome = new ArrayList<>();
        record.get("outcome").fieldNames().forEachRemaining(outcome::add);
        assertEquals(List.of("result", "status", "rejectReason", "httpStatus", "code", "message", "field",
                "canceledCount", "canceledOrderIds"), outcome);
        assertTrue(record.get("terms").isNull(), "a place's terms are its order's");
        assertTrue(record.get("outcome").get("canceledCount").isNull(), "it canceled no other order");
        assertTrue(record.get("outcome").get("canceledOrderIds").isNull());
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
    void shouldWriteTheTermsOfAnAmendACancelAllAndABandWithEveryMemberInTheDocumentedOrder() throws Exception {
        final AuditEntry amend = new AuditEntry();
        amend.kind = AuditKind.AMEND;
        amend.action = CommandType.AMEND;
        amend.price = 5_001_000;
        final JsonNode amendTerms = MAPPER.readTree(encode(1, amend)).get("terms");
        final List<String> members = new ArrayList<>();
        amendTerms.fieldNames().forEachRemaining(members::add);
        assertEquals(List.of("instrument", "allInstruments", "price", "quantity", "cause", "bandBasisPoints", "asset",
                "amount", "reference", "makerFeeRate", "takerFeeRate"), members);
        assertEquals(5_001_000, amendTerms.get("price").asLong());
        assertTrue(amendTerms.get("quantity").isNull(), "0: the quantity was kept, or is not known");
        assertTrue(amendTerms.get("instrument").isNull());
        assertTrue(amendTerms.get("bandBasisPoints").isNull());

        final AuditEntry cancelAll = new AuditEntry();
        cancelAll.kind = AuditKind.CANCEL_ALL;
        cancelAll.action = CommandType.CANCEL_ALL;
        cancelAll.instrument = 0;
        cancelAll.allInstruments = false;
        cancelAll.cause = RejectReason.CANCEL_ALL_AFTER;
        cancelAll.canceledCount = 2;
        cancelAll.canceledOrderIds = new long[] {7, 9, 11};
        final JsonNode all = MAPPER.readTree(encode(2, cancelAll));
        assertEquals(0, all.get("terms").get("instrument").asInt(), "instrument 0 is an instrument, not unknown");
        assertFalse(all.get("terms").get("allInstruments").asBoolean());
        assertEquals("CANCEL_ALL_AFTER", all.get("terms").get("cause").asText());
        assertEquals(2, all.get("outcome").get("canceledCount").asInt());
        assertEquals("[7,9]", all.get("outcome").get("canceledOrderIds").toString(), "as many as counted");

        final AuditEntry band = new AuditEntry();
        band.kind = AuditKind.PRICE_BAND_SET;
        band.instrument = 1;
        band.bandBasisPoints = 0;
        final JsonNode set = MAPPER.readTree(encode(3, band));
        assertEquals(1, set.get("terms").get("instrument").asInt());
        assertEquals(0, set.get("terms").get("bandBasisPoints").asInt(), "0 is no band, not unknown");
        assertTrue(set.get("action").isNull());
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
