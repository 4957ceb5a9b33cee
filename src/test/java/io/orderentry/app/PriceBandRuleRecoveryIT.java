package io.orderentry.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.orderentry.journal.JournalFormat;
import io.orderentry.testing.ApiClient;
import io.orderentry.testing.ApiClient.Answer;
import io.orderentry.testing.ServiceProcess;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 31 changed how a band bounds MARKET orders. A journal written by a build before it must replay its MARKET
 * orders as that build matched and answered them, and the new rule must apply from the first start of this build on,
 * across later restarts too. The older journal is made by rewriting this build's band records into the form the older
 * builds wrote (record type 5, no rule byte), so that the orders after them replay under the older rule.
 */
class PriceBandRuleRecoveryIT {

    /** The record's command type, after length, CRC, sequence and timestamp (JournalFormat). */
    private static final int TYPE_OFFSET = 24;
    private static final byte SET_PRICE_BAND_OLDER = 5;
    private static final byte SET_PRICE_BAND_WITH_RULE = 6;
    private static final Map<String, String> ENV = Map.of("ORDERS_AUTH", "none", "ORDERS_PRICE_BAND_PERCENT", "10");

    @TempDir
    Path dir;

    private static long place(final ApiClient client, final String body) {
        final Answer answer = client.post("/api/v1/orders", body);
        assertEquals(201, answer.status(), answer.body());
        return answer.json().get("orderId").asLong();
    }

    private static String limit(final String account, final String side, final String price, final String quantity) {
        return ApiClient.limit(account, null, "BTCUSD", side, price, quantity, null);
    }

    private static JsonNode order(final ApiClient client, final long id) {
        final Answer answer = client.get("/api/v1/orders/" + id);
        assertEquals(200, answer.status(), answer.body());
        return answer.json();
    }

    private static List<String> statusAndFill(final JsonNode order) {
        final JsonNode reason = order.get("rejectReason");
        return List.of(order.get("status").asText(), order.get("filledQuantity").asText(),
                reason == null || reason.isNull() ? "-" : reason.asText());
    }

    /** The issue's book: a trade at 45,000 and the rest of a BUY resting at 50,000, above the band [40,500, 49,500]. */
    private static void bidAboveTheBand(final ApiClient client) {
        place(client, limit("a", "SELL", "45000.00", "0.0001"));
        final long bid = place(client, limit("b", "BUY", "50000.00", "0.0002"));
        assertEquals("PARTIALLY_FILLED", order(client, bid).get("status").asText());
    }

    @Test
    void aJournalOfABuildBeforeIssue31ReplaysItsMarketOrdersUnderItsRuleAndTheNewRuleAppliesFromTheNextStartOn()
            throws IOException {
        final long olderMarket;
        try (ServiceProcess first = ServiceProcess.start(dir, ENV, "first")) {
            final ApiClient client = first.client();
            bidAboveTheBand(client);
            olderMarket = place(client, ApiClient.market("c", "BTCUSD", "SELL", "0.0001"));
            // this build's answer; the journal rewritten below is the one an older build wrote, which answered FILLED
            assertEquals(List.of("EXPIRED", "0.0000", "PRICE_OUTSIDE_BAND"), statusAndFill(order(client, olderMarket)));
            first.kill9();
        }
        assertEquals(2, rewriteBandsAsOlderBuildsWroteThem(dir.resolve("journal")), "one band per instrument");

        final long newerMarket;
        final List<String> olderState;
        try (ServiceProcess second = ServiceProcess.start(dir, ENV, "second")) {
            final ApiClient client = second.client();
            olderState = statusAndFill(order(client, olderMarket));
            assertEquals(List.of("FILLED", "0.0001", "-"), olderState,
                    "replayed under the older rule: it sold to the bid above the band, as the older build answered");
            // the reference is now 50,000 (that trade); the same book again, one band further down
            place(client, limit("a", "SELL", "45000.00", "0.0001"));
            final long bid = place(client, limit("b", "BUY", "50000.00", "0.0002"));
            assertEquals("PARTIALLY_FILLED", order(client, bid).get("status").asText());
            newerMarket = place(client, ApiClient.market("c", "BTCUSD", "SELL", "0.0001"));
            assertEquals(List.of("EXPIRED", "0.0000", "PRICE_OUTSIDE_BAND"), statusAndFill(order(client, newerMarket)),
                    "this build journaled its bands again at start: the new rule applies from there");
            assertEquals("PARTIALLY_FILLED", order(client, bid).get("status").asText(), "the bid was not touched");
            assertTrue(second.log().contains("price band of BTCUSD: 10% from now on"), second.log());
            second.kill9();
        }
        try (ServiceProcess third = ServiceProcess.start(dir, ENV, "third")) {
            final ApiClient client = third.client();
            assertEquals(olderState, statusAndFill(order(client, olderMarket)));
            assertEquals(List.of("EXPIRED", "0.0000", "PRICE_OUTSIDE_BAND"), statusAndFill(order(client, newerMarket)),
                    "each MARKET order replays under the rule it met");
            assertTrue(!third.log().contains("% from now on"), "the engine's bands are this build's: none journaled"
                    + " again\n" + third.log());
        }
    }

    /**
     * Rewrites every band record (type 6: symbol, basis points, rule byte) as type 5 without the rule byte, fixing
     * each record's length and CRC and moving the records after it. @return how many it rewrote
     */
    private static int rewriteBandsAsOlderBuildsWroteThem(final Path journal) throws IOException {
        int rewritten = 0;
        try (var files = Files.list(journal)) {
            for (final Path segment : files.filter(f -> f.toString().endsWith(JournalFormat.SEGMENT_SUFFIX)).sorted()
                    .toList()) {
                final ByteBuffer in = ByteBuffer.wrap(Files.readAllBytes(segment)).order(JournalFormat.BYTE_ORDER);
                final ByteBuffer out = ByteBuffer.allocate(in.capacity()).order(JournalFormat.BYTE_ORDER);
                out.put(in.array(), 0, JournalFormat.SEGMENT_HEADER_SIZE);
                int at = JournalFormat.SEGMENT_HEADER_SIZE;
                while (at + 4 <= in.capacity() && in.getInt(at) > 0) {
                    final int length = in.getInt(at);
                    final byte[] record = new byte[length];
                    in.get(at, record);
                    at += length;
                    if (record[TYPE_OFFSET] != SET_PRICE_BAND_WITH_RULE) {
                        out.put(record);
                        continue;
                    }
                    final ByteBuffer r = ByteBuffer.wrap(record).order(JournalFormat.BYTE_ORDER);
                    final int symbolLength = r.getShort(TYPE_OFFSET + 1) & 0xFFFF;
                    final int ruleAt = TYPE_OFFSET + 1 + 2 + symbolLength + Integer.BYTES;
                    final ByteBuffer older = ByteBuffer.allocate(length - 1).order(JournalFormat.BYTE_ORDER);
                    older.put(record, 0, ruleAt).put(record, ruleAt + 1, length - ruleAt - 1);
                    older.putInt(0, length - 1).put(TYPE_OFFSET, SET_PRICE_BAND_OLDER);
                    final CRC32C crc = new CRC32C();
                    crc.update(older.array(), 8, length - 1 - 8);
                    older.putInt(4, (int) crc.getValue());
                    out.put(older.array());
                    rewritten++;
                }
                Files.write(segment, java.util.Arrays.copyOf(out.array(), out.position()));
            }
        }
        return rewritten;
    }
}
