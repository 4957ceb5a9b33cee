package io.orderentry.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.orderentry.engine.CommandResult;
import io.orderentry.engine.EngineConfig;
import io.orderentry.engine.OrderStatus;
import io.orderentry.engine.RejectReason;
import io.orderentry.engine.SelfTradePrevention;
import io.orderentry.engine.Side;
import io.orderentry.engine.TimeInForce;
import io.orderentry.pipeline.CommandType;
import io.orderentry.pipeline.EngineEvent;
import io.orderentry.pipeline.EventType;
import io.orderentry.pipeline.Refusal;
import io.orderentry.testing.TestEngine;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class AuditStageTest {

    @TempDir
    Path dir;

    private final List<FailingChannel> channels = new ArrayList<>();
    private final List<String> failures = new ArrayList<>();
    private final List<Boolean> failuresResumable = new ArrayList<>();
    private int resumed;
    private long nanos;
    /** While set, opening an audit file fails, as on a disk that is still full. */
    private boolean opensFail;
    private AuditTrail trail;
    private AuditStage handler;
    private long ringSequence;
    private final java.util.Set<Long> ordersNotHeld = new java.util.HashSet<>();

    private void start() throws IOException {
        trail = AuditTrail.open(new AuditConfig(dir, AuditConfig.DEFAULT_FILE_BYTES, AuditSync.NONE),
                () -> 1_700_000_000_000_000L, (path, create) -> {
                    if (opensFail) {
                        throw new IOException("injected: No space left on device");
                    }
                    return FailingChannel.factory(channels).open(path, create);
                });
        handler = new AuditStage(trail, (reason, resumable) -> {
            failures.add(reason);
            failuresResumable.add(resumable);
        }, () -> resumed++, orderId -> !ordersNotHeld.contains(orderId), () -> nanos);
        handler.onStart();
    }

    @AfterEach
    void stop() {
        if (handler != null) {
            handler.onShutdown();
        }
    }

    private void feed(final boolean endOfBatch, final EngineEvent... events) {
        for (int i = 0; i < events.length; i++) {
            handler.onEvent(events[i], ringSequence++, endOfBatch && i == events.length - 1);
        }
    }

    @Test
    void shouldRecordAPlacedOrderWithItsStatusAndTheRequestThatPlacedIt() throws IOException {
        start();
        feed(true, accepted(7), updated(7, OrderStatus.PARTIALLY_FILLED, RejectReason.NONE, "acct-1"),
                completed(CommandType.PLACE, CommandResult.PLACED, 7, 31, false));
        final JsonNode record = only();
        assertEquals("PLACE", record.get("kind").asText());
        assertEquals("PLACE", record.get("action").asText());
        assertEquals("req-7", record.get("requestId").asText());
        assertEquals("127.0.0.1:50000", record.get("remoteAddress").asText());
        assertEquals("k0000000000000007", record.get("keyId").asText(), "the key the request authenticated with");
        assertEquals("acct-1", record.get("accountId").asText());
        assertEquals("c-7", record.get("clientOrderId").asText());
        assertEquals(7, record.get("orderId").asLong());
        assertEquals(31, record.get("journalSequence").asLong());
        assertFalse(record.get("recovered").asBoolean());
        assertEquals("PLACED", record.get("outcome").get("result").asText());
        assertEquals("PARTIALLY_FILLED", record.get("outcome").get("status").asText());
        assertEquals(201, record.get("outcome").get("httpStatus").asInt());
    }

    @Test
    void shouldKeepTheOrderStatusWhenACommandSpansTwoBatches() throws IOException {
        start();
        feed(true, accepted(7), updated(7, OrderStatus.REJECTED, RejectReason.POST_ONLY_WOULD_CROSS, "acct-1"));
        feed(true, completed(CommandType.PLACE, CommandResult.PLACED, 7, 1, false));
        final JsonNode outcome = only().get("outcome");
        assertEquals("REJECTED", outcome.get("status").asText());
        assertEquals("POST_ONLY_WOULD_CROSS", outcome.get("rejectReason").asText());
    }

    @Test
    void shouldRecordACancelWithTheAccountOfTheOrderItCanceled() throws IOException {
        start();
        final EngineEvent cancel = completed(CommandType.CANCEL, CommandResult.CANCELED, 9, 2, false);
        cancel.accountId = null;
        cancel.clientOrderId.clear();
        feed(true, updated(9, OrderStatus.CANCELED, RejectReason.NONE, "acct-owner"), cancel);
        final JsonNode record = only();
        assertEquals("CANCEL", record.get("kind").asText());
        assertEquals("acct-owner", record.get("accountId").asText());
        assertEquals("CANCELED", record.get("outcome").get("status").asText());
        assertEquals(200, record.get("outcome").get("httpStatus").asInt());
    }

    @Test
    void shouldRecordAnAmendWithTheTermsAskedForAndTheStateItLeftTheOrderIn() throws IOException {
        start();
        final EngineEvent amended = event(EventType.ORDER_AMENDED);
        amended.orderId = 9;
        amended.price = 5_001_000;
        amended.quantity = 30;
        final EngineEvent amend = completed(CommandType.AMEND, CommandResult.AMENDED, 9, 4, false);
        amend.price = 5_001_000;            // the terms as the command carried them: a new price, the quantity kept
        feed(true, amended, updated(9, OrderStatus.PARTIALLY_FILLED, RejectReason.NONE, "acct-1"), amend);
        final JsonNode record = only();
        assertEquals("AMEND", record.get("kind").asText());
        assertEquals("AMEND", record.get("action").asText());
        assertEquals(9, record.get("orderId").asLong());
        assertEquals(5_001_000, record.get("terms").get("price").asLong());
        assertTrue(record.get("terms").get("quantity").isNull(), "not asked for");
        assertEquals("AMENDED", record.get("outcome").get("result").asText());
        assertEquals("PARTIALLY_FILLED", record.get("outcome").get("status").asText());
        assertOutcome(record, 200, null);
        assertTrue(record.get("outcome").get("canceledOrderIds").isNull());
    }

    @Test
    void shouldRecordAnAmendTheEngineRefusedWithTheAnswerTheEdgeGives() throws IOException {
        start();
        final EngineEvent refused = completed(CommandType.AMEND, CommandResult.QUANTITY_NOT_ABOVE_FILLED, 9, 5, false);
        refused.quantity = 3;
        feed(true, refused);
        final JsonNode record = only();
        assertEquals(3, record.get("terms").get("quantity").asLong());
        assertOutcome(record, 422, "INVALID_QUANTITY");
        assertTrue(record.get("outcome").get("status").isNull(), "the order did not change");
    }

    @Test
    void shouldRecordACancelAllWithItsInstrumentItsCauseAndEveryOrderItCanceled() throws IOException {
        start();
        final EngineEvent all = completed(CommandType.CANCEL_ALL, CommandResult.CANCELED_ALL, 0, 6, false);
        all.symbol = 1;
        all.rejectReason = RejectReason.CANCEL_ALL_AFTER;
        feed(true, updated(3, OrderStatus.CANCELED, RejectReason.CANCEL_ALL_AFTER, "acct-1"),
                updated(8, OrderStatus.CANCELED, RejectReason.CANCEL_ALL_AFTER, "acct-1"), all);
        final JsonNode record = only();
        assertEquals("CANCEL_ALL", record.get("kind").asText());
        assertTrue(record.get("orderId").isNull(), "a cancel-all names no order");
        assertEquals("acct-1", record.get("accountId").asText());
        assertEquals(1, record.get("terms").get("instrument").asInt());
        assertFalse(record.get("terms").get("allInstruments").asBoolean());
        assertEquals("CANCEL_ALL_AFTER", record.get("terms").get("cause").asText(), "fired by the dead man's switch");
        assertEquals(2, record.get("outcome").get("canceledCount").asInt());
        assertEquals("[3,8]", record.get("outcome").get("canceledOrderIds").toString());
        assertTrue(record.get("outcome").get("status").isNull(), "no one order's status");
        assertOutcome(record, 200, null);
    }

    @Test
    void shouldRecordACancelAllThatFoundNothingWithAnEmptyList() throws IOException {
        start();
        final EngineEvent all = completed(CommandType.CANCEL_ALL, CommandResult.CANCELED_ALL, 0, 6, false);
        all.symbol = -1;
        all.rejectReason = RejectReason.CANCEL_ALL;
        feed(true, all);
        final JsonNode record = only();
        assertTrue(record.get("terms").get("instrument").isNull());
        assertTrue(record.get("terms").get("allInstruments").asBoolean());
        assertEquals(0, record.get("outcome").get("canceledCount").asInt());
        assertEquals("[]", record.get("outcome").get("canceledOrderIds").toString());
    }

    /**
     * Against the real engine and matcher stage: each command's record lists the orders it canceled without naming
     * them, and keeps the status of the order it names, whatever came between; the matcher stage carries each
     * command's terms (an amend's, a cancel-all's, a band change's) into its completion, and the record shows them.
     */
    @Test
    void shouldRecordEachOrderACommandCanceledWithoutNamingItAgainstTheRealEngine() throws IOException {
        start();
        final TestEngine engine = new TestEngine(2, EngineConfig.DEFAULTS);
        final long first = engine.limit("A", Side.SELL, 1_000, 1);
        final long second = engine.limit("A", Side.SELL, 1_001, 1);
        engine.limit("B", Side.SELL, 1_001, 1);
        final long taker = engine.place("A", 0, Side.BUY, TimeInForce.GTC, false, SelfTradePrevention.EXPIRE_MAKER,
                1_001, 2);                               // cancels 1 and 2 (its own), buys B's 1, rests 1
        final long other = engine.place("A", 1, Side.BUY, TimeInForce.GTC, false, SelfTradePrevention.NONE, 900, 1);
        engine.amend(taker, 0, 5);                       // a larger total at the same price: to the back of its level
        engine.cancelAll("A", -1, RejectReason.CANCEL_ALL);
        engine.cancel(other);                            // no longer open
        engine.cancelAll("B", 1, RejectReason.CANCEL_ALL_AFTER);
        engine.setPriceBand(1, 250);
        for (final EngineEvent event : engine.events()) {
            feed(false, event);
        }
        feed(true, event(EventType.TICK));

        final List<JsonNode> records = Trails.records(dir);
        assertEquals(List.of("PLACE", "PLACE", "PLACE", "PLACE", "PLACE", "AMEND", "CANCEL_ALL", "CANCEL", "CANCEL_ALL",
                "PRICE_BAND_SET"), records.stream().map(r -> r.get("kind").asText()).toList());
        final JsonNode amendTerms = records.get(5).get("terms");
        assertTrue(amendTerms.get("price").isNull(), "the amend left the price as it was");
        assertEquals(5, amendTerms.get("quantity").asLong(), "the total the amend asked for");
        final JsonNode oneInstrument = records.get(8).get("terms");
        assertEquals(1, oneInstrument.get("instrument").asInt());
        assertFalse(oneInstrument.get("allInstruments").asBoolean());
        assertEquals("CANCEL_ALL_AFTER", oneInstrument.get("cause").asText());
        assertEquals(1, records.get(9).get("terms").get("instrument").asInt());
        assertEquals(250, records.get(9).get("terms").get("bandBasisPoints").asInt());
        final JsonNode place = records.get(3);
        assertEquals(taker, place.get("orderId").asLong());
        assertEquals("PARTIALLY_FILLED", place.get("outcome").get("status").asText(), "the taker's, not a maker's");
        assertEquals(2, place.get("outcome").get("canceledCount").asInt());
        assertEquals("[" + first + "," + second + "]", place.get("outcome").get("canceledOrderIds").toString());
        assertTrue(records.get(4).get("outcome").get("canceledOrderIds").isNull(), "it canceled nothing");
        assertEquals("PARTIALLY_FILLED", records.get(5).get("outcome").get("status").asText());
        final JsonNode all = records.get(6);
        assertEquals("[" + taker + "," + other + "]", all.get("outcome").get("canceledOrderIds").toString());
        assertEquals("CANCEL_ALL", all.get("terms").get("cause").asText());
        assertTrue(all.get("terms").get("allInstruments").asBoolean());
        assertOutcome(all, 200, null);
        assertOutcome(records.get(7), 409, "ORDER_NOT_OPEN");
        assertTrue(Trails.verify(dir).intact(), Trails.verify(dir).summary());
    }

    @Test
    void shouldListTheFirstThousandCanceledOrdersAndCountThemAll() throws IOException {
        start();
        for (long id = 1; id <= 1_500; id++) {
            feed(false, updated(id, OrderStatus.CANCELED, RejectReason.CANCEL_ALL, "acct-1"));
        }
        feed(true, completed(CommandType.CANCEL_ALL, CommandResult.CANCELED_ALL, 0, 1, false));
        final JsonNode outcome = only().get("outcome");
        assertEquals(1_500, outcome.get("canceledCount").asInt());
        assertEquals(AuditEntry.MAX_LISTED_CANCELED, outcome.get("canceledOrderIds").size());
        assertEquals(1, outcome.get("canceledOrderIds").get(0).asLong());
        assertEquals(1_000, outcome.get("canceledOrderIds").get(999).asLong());
        assertTrue(Trails.verify(dir).intact(), Trails.verify(dir).summary());
    }

    @Test
    void shouldRecordAPriceBandAsASystemRecordWithNoRequestAndNoAnswer() throws IOException {
        start();
        final EngineEvent band = completed(CommandType.SET_PRICE_BAND, CommandResult.PRICE_BAND_SET, 0, 1, false);
        band.requestTag.clear();
        band.remoteAddress = null;
        band.keyId = null;
        band.accountId = null;
        band.clientOrderId.clear();
        band.symbol = 1;
        feed(true, band);
        final JsonNode record = only();
        assertEquals("PRICE_BAND_SET", record.get("kind").asText());
        assertTrue(record.get("action").isNull(), "no request caused it");
        assertTrue(record.get("requestId").isNull());
        assertEquals(1, record.get("journalSequence").asLong());
        assertEquals(1, record.get("terms").get("instrument").asInt());
        assertEquals("PRICE_BAND_SET", record.get("outcome").get("result").asText());
        assertTrue(record.get("outcome").get("httpStatus").isNull(), "nobody is answered");
    }

    @Test
    void shouldRecordEngineRefusalsWithTheStatusAndCodeTheyAreAnsweredWith() throws IOException {
        start();
        feed(true, completed(CommandType.PLACE, CommandResult.DUPLICATE_MISMATCH, 3, 1, false),
                completed(CommandType.CANCEL, CommandResult.ORDER_NOT_FOUND, 99, 2, false),
                completed(CommandType.CANCEL, CommandResult.ORDER_NOT_OPEN, 3, 3, false),
                completed(CommandType.PLACE, CommandResult.DUPLICATE, 3, 4, false));
        final List<JsonNode> records = Trails.records(dir);
        assertOutcome(records.get(0), 409, "DUPLICATE_CLIENT_ORDER_ID");
        assertOutcome(records.get(1), 404, "ORDER_NOT_FOUND");
        assertOutcome(records.get(2), 409, "ORDER_NOT_OPEN");
        assertOutcome(records.get(3), 200, null);
        assertTrue(records.get(3).get("outcome").get("status").isNull(), "a duplicate changes no order");
    }

    @Test
    void shouldRecordTheAnswerTheEdgeGivesWhenTheOrderViewNoLongerHoldsTheOrder() throws IOException {
        ordersNotHeld.add(3L);
        start();
        feed(true, completed(CommandType.PLACE, CommandResult.DUPLICATE, 3, 1, false),
                completed(CommandType.CANCEL, CommandResult.ORDER_NOT_OPEN, 3, 2, false));
        final List<JsonNode> records = Trails.records(dir);
        assertOutcome(records.get(0), 404, "ORDER_NOT_RETAINED");   // as OrderVerticle answers, from Answer.of
        assertOutcome(records.get(1), 409, "ORDER_NOT_OPEN");
        for (final CommandResult result : CommandResult.values()) {
            for (final boolean held : new boolean[] {true, false}) {
                final io.orderentry.pipeline.Answer answer = io.orderentry.pipeline.Answer.of(result, false, held);
                assertTrue(answer.status() >= 200 && answer.status() < 500, result + " " + held);
                assertTrue((answer.code() == null) == answer.success(), "an error always has a code: " + answer);
            }
        }
    }

    @Test
    void shouldRecordACommandTheJournalCouldNotTakeAsUnavailableWithoutAJournalSequence() throws IOException {
        start();
        final EngineEvent failed = completed(CommandType.PLACE, null, 0, 0, false);
        failed.journalFailed = true;
        feed(true, failed);
        final JsonNode record = only();
        assertTrue(record.get("journalSequence").isNull());
        assertTrue(record.get("outcome").get("result").isNull());
        assertOutcome(record, 503, "JOURNAL_UNAVAILABLE");
    }

    @Test
    void shouldRecordAnEdgeRefusalWithItsReason() throws IOException {
        start();
        final EngineEvent event = event(EventType.REQUEST_REJECTED);
        event.requestTag.set("req-r");
        event.remoteAddress = "10.1.2.3:999";
        event.accountId = "acct-2";
        event.refusal = new Refusal(CommandType.PLACE, 422, "PRICE_NOT_ON_TICK", "price 1.001 is not a multiple",
                "price");
        feed(true, event);
        final JsonNode record = only();
        assertEquals("REJECTED_AT_EDGE", record.get("kind").asText());
        assertEquals("PLACE", record.get("action").asText());
        assertEquals("req-r", record.get("requestId").asText());
        assertTrue(record.get("keyId").isNull(), "no key was presented");
        assertEquals("acct-2", record.get("accountId").asText());
        assertTrue(record.get("journalSequence").isNull());
        assertOutcome(record, 422, "PRICE_NOT_ON_TICK");
        assertEquals("price", record.get("outcome").get("field").asText());
        assertEquals("price 1.001 is not a multiple", record.get("outcome").get("message").asText());
    }

    @Test
    void shouldRecordTheKeyOfARequestRefusedForItsPermission() throws IOException {
        start();
        final EngineEvent event = event(EventType.REQUEST_REJECTED);
        event.requestTag.set("req-k");
        event.remoteAddress = "10.1.2.3:999";
        event.keyId = "k0123456789abcdef";
        event.accountId = "acct-3";
        event.refusal = new Refusal(CommandType.PLACE, 403, "PERMISSION_DENIED", "this key is 'read'", null);
        feed(true, event);
        final JsonNode record = only();
        assertEquals("k0123456789abcdef", record.get("keyId").asText());
        assertEquals("acct-3", record.get("accountId").asText());
        assertOutcome(record, 403, "PERMISSION_DENIED");
    }

    @Test
    void shouldWriteTheBatchOnlyAtItsEnd() throws IOException {
        start();
        feed(false, completed(CommandType.PLACE, CommandResult.PLACED, 1, 1, false));
        assertEquals(0, trail.lastSeq());
        assertTrue(Trails.records(dir).isEmpty());
        feed(true, completed(CommandType.PLACE, CommandResult.PLACED, 2, 2, false));
        assertEquals(2, trail.lastSeq());
    }

    /**
     * A batch may end on any event type; its records must be written then, not when a later batch happens to end
     * on a completed command (an earlier version returned before the flush on ORDER_ACCEPTED and TRADE, leaving a
     * command's answer waiting on the next batch).
     */
    @ParameterizedTest
    @EnumSource(EventType.class)
    void shouldWriteTheBatchWhateverTheTypeOfItsLastEvent(final EventType last) throws IOException {
        start();
        feed(false, completed(CommandType.PLACE, CommandResult.PLACED, 1, 1, false));
        final EngineEvent end = switch (last) {
            case ORDER_ACCEPTED -> accepted(2);
            case ORDER_UPDATED -> updated(2, OrderStatus.NEW, RejectReason.NONE, "acct-1");
            case COMMAND_COMPLETED -> completed(CommandType.PLACE, CommandResult.PLACED, 2, 2, false);
            case REPLAY_COMPLETED -> replayCompleted(1);
            default -> event(last);
        };
        feed(true, end);
        final List<JsonNode> records = Trails.records(dir);
        assertFalse(records.isEmpty(), "nothing written at the end of a batch ending on " + last);
        assertEquals(1, records.get(0).get("orderId").asLong());
        assertEquals(trail.lastSeq(), records.size(), "every appended record is on file");
    }

    @Test
    void shouldSkipReplayedCommandsTheTrailHasAndRecoverTheOnesItLacks() throws IOException {
        try (AuditTrail earlier = AuditTrail.open(new AuditConfig(dir, AuditConfig.DEFAULT_FILE_BYTES, AuditSync.NONE),
                () -> 1_600_000_000_000_000L)) {
            Trails.append(earlier, 1, 5, 5);
        }
        start();
        for (long journal = 4; journal <= 7; journal++) {
            feed(false, accepted(journal), updated(journal, OrderStatus.NEW, RejectReason.NONE, "a"),
                    completed(CommandType.PLACE, CommandResult.PLACED, journal, journal, true));
        }
        feed(true, replayCompleted(7));
        final List<JsonNode> records = Trails.records(dir);
        assertEquals(8, records.size());
        for (final JsonNode recovered : records.subList(5, 7)) {
            assertTrue(recovered.get("recovered").asBoolean());
            assertTrue(recovered.get("requestId").isNull());
            assertTrue(recovered.get("keyId").isNull(), "the journal does not keep the key: unknown on replay");
            assertTrue(recovered.get("outcome").get("httpStatus").isNull(), "no answer is known to have been sent");
            assertEquals("NEW", recovered.get("outcome").get("status").asText());
        }
        assertEquals(6, records.get(5).get("journalSequence").asLong());
        assertEquals(7, records.get(6).get("journalSequence").asLong());
        assertEquals("SERVICE_STARTED", records.get(7).get("kind").asText());
        assertEquals(7, records.get(7).get("journalSequence").asLong());
        assertEquals(2, handler.recoveredRecords());
        assertTrue(Trails.verify(dir).intact(), Trails.verify(dir).summary());
    }

    @Test
    void shouldRecoverNothingIntoANewTrail() throws IOException {
        start();
        feed(false, completed(CommandType.PLACE, CommandResult.PLACED, 1, 1, true));
        feed(true, replayCompleted(1));
        final JsonNode record = only();
        assertEquals("SERVICE_STARTED", record.get("kind").asText());
        assertEquals(1, record.get("journalSequence").asLong());
    }

    @Test
    void shouldAuditACommandAnotherClusterMemberSentIntoANewTrailAsRecoveredWithWhoAskedAsTheLogHoldsIt()
            throws IOException {
        start();
        feed(true, replayCompleted(3));   // a member's engine starts at the snapshot of command 3; the log follows
        final EngineEvent forwarded = completed(CommandType.PLACE, CommandResult.PLACED, 4, 4, true);
        forwarded.requestTag.set("r2-17");   // the member that took the request, as the cluster's log carries it
        forwarded.remoteAddress = "10.0.0.2:41000";
        forwarded.keyId = "k0000000000000002";
        feed(false, accepted(4), updated(4, OrderStatus.NEW, RejectReason.NONE, "acct-1"));
        feed(true, forwarded);
        feed(true, completed(CommandType.PLACE, CommandResult.PLACED, 5, 5, false));   // one this member answered
        final List<JsonNode> records = Trails.records(dir);
        assertEquals(3, records.size(), records.toString());
        assertEquals("SERVICE_STARTED", records.get(0).get("kind").asText());
        final JsonNode other = records.get(1);
        assertEquals(4, other.get("journalSequence").asLong());
        assertTrue(other.get("recovered").asBoolean(), "this member did not answer it");
        assertEquals("r2-17", other.get("requestId").asText());
        assertEquals("10.0.0.2:41000", other.get("remoteAddress").asText());
        assertEquals("k0000000000000002", other.get("keyId").asText());
        assertTrue(other.get("outcome").get("httpStatus").isNull(), "its answer went out elsewhere");
        assertEquals(5, records.get(2).get("journalSequence").asLong());
        assertFalse(records.get(2).get("recovered").asBoolean());
        assertTrue(Trails.verify(dir).complete(), Trails.verify(dir).summary());
    }

    @Test
    void shouldNotAuditAReplayedCommandAtOrBelowTheSequenceANewTrailStartedAt() throws IOException {
        start();
        feed(true, replayCompleted(3));
        feed(true, completed(CommandType.PLACE, CommandResult.PLACED, 3, 3, true));
        final JsonNode record = only();
        assertEquals("SERVICE_STARTED", record.get("kind").asText());
    }

    @Test
    void shouldReportAWriteFailureOnceAndKeepConsumingWithoutThrowing() throws IOException {
        start();
        feed(true, completed(CommandType.PLACE, CommandResult.PLACED, 1, 1, false));
        channels.get(0).failWrites = true;
        opensFail = true;
        feed(true, completed(CommandType.PLACE, CommandResult.PLACED, 2, 2, false));
        assertEquals(1, failures.size());
        assertTrue(failures.get(0).contains("injected write failure"), failures.get(0));
        assertTrue(failuresResumable.get(0), "the trail keeps the records and tries again");
        feed(true, completed(CommandType.PLACE, CommandResult.PLACED, 3, 3, false), event(EventType.REQUEST_REJECTED));
        assertEquals(1, failures.size(), "reported once");
        assertEquals(3, trail.pendingRecords(), "kept, not lost");
        assertEquals(0, trail.unwrittenRecords());
        assertEquals(1, Trails.records(dir).size());
    }

    @Test
    void shouldWriteTheKeptRecordsInOrderAndResumeOnceTheDiskTakesThemAgain() throws IOException {
        start();
        feed(true, completed(CommandType.PLACE, CommandResult.PLACED, 1, 1, false));
        channels.get(0).failWrites = true;
        opensFail = true;
        feed(true, completed(CommandType.PLACE, CommandResult.PLACED, 2, 2, false));
        feed(true, completed(CommandType.PLACE, CommandResult.PLACED, 3, 3, false), event(EventType.REQUEST_REJECTED));
        nanos += 999_000_000L;
        feed(true, event(EventType.TICK));
        assertEquals(0, resumed, "not tried before a second has passed");
        nanos += 1_000_000L;
        feed(true, event(EventType.TICK));
        assertEquals(0, resumed, "tried once a second while the disk still fails");
        assertEquals(3, trail.pendingRecords());
        nanos += 500_000_000L;
        opensFail = false;
        feed(true, event(EventType.TICK));
        assertEquals(0, resumed, "the next try comes a second after the last one");
        nanos += 500_000_000L;
        feed(true, event(EventType.TICK));
        assertEquals(1, resumed, "the disk takes the records again");
        assertTrue(trail.isHealthy());
        assertEquals(0, trail.pendingRecords());
        feed(true, completed(CommandType.PLACE, CommandResult.PLACED, 4, 4, false));
        final List<JsonNode> records = Trails.records(dir);
        assertEquals(5, records.size(), "nothing lost, nothing twice: " + records);
        for (int i = 0; i < records.size(); i++) {
            assertEquals(i + 1, records.get(i).get("seq").asLong());
        }
        assertEquals(List.of(1L, 2L, 3L), List.of(records.get(0).get("orderId").asLong(),
                records.get(1).get("orderId").asLong(), records.get(2).get("orderId").asLong()));
        assertEquals("REJECTED_AT_EDGE", records.get(3).get("kind").asText());
        assertEquals(4, records.get(4).get("orderId").asLong());
        assertTrue(Trails.verify(dir).intact(), Trails.verify(dir).summary());
        assertEquals(1, failures.size());
    }

    private JsonNode only() {
        final List<JsonNode> records = Trails.records(dir);
        assertEquals(1, records.size(), records.toString());
        return records.get(0);
    }

    private static void assertOutcome(final JsonNode record, final int status, final String code) {
        assertEquals(status, record.get("outcome").get("httpStatus").asInt(), record.toString());
        if (code == null) {
            assertTrue(record.get("outcome").get("code").isNull(), record.toString());
        } else {
            assertEquals(code, record.get("outcome").get("code").asText(), record.toString());
        }
    }

    private static EngineEvent event(final EventType type) {
        final EngineEvent event = new EngineEvent();
        event.reset();
        event.type = type;
        if (type == EventType.REQUEST_REJECTED) {
            event.refusal = new Refusal(CommandType.CANCEL, 400, "INVALID_ORDER_ID", "bad id", "orderId");
        }
        return event;
    }

    private static EngineEvent accepted(final long orderId) {
        final EngineEvent event = event(EventType.ORDER_ACCEPTED);
        event.orderId = orderId;
        return event;
    }

    private static EngineEvent updated(final long orderId, final OrderStatus status, final RejectReason reason,
                                       final String accountId) {
        final EngineEvent event = event(EventType.ORDER_UPDATED);
        event.orderId = orderId;
        event.status = status;
        event.rejectReason = reason;
        event.accountId = accountId;
        return event;
    }

    private static EngineEvent completed(final CommandType type, final CommandResult result, final long orderId,
                                         final long journalSequence, final boolean replay) {
        final EngineEvent event = event(EventType.COMMAND_COMPLETED);
        event.commandType = type;
        event.result = result;
        event.orderId = orderId;
        event.commandSequence = journalSequence;
        event.replay = replay;
        if (!replay) {
            event.requestTag.set("req-" + orderId);
            event.remoteAddress = "127.0.0.1:50000";
            event.keyId = "k00000000000000" + String.format("%02x", orderId & 0xff);
        }
        event.accountId = "acct-1";
        event.clientOrderId.set("c-" + orderId);
        return event;
    }

    private static EngineEvent replayCompleted(final long journalSequence) {
        final EngineEvent event = event(EventType.REPLAY_COMPLETED);
        event.commandSequence = journalSequence;
        event.replay = true;
        return event;
    }
}
