package io.orderentry.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.lmax.disruptor.RingBuffer;
import io.orderentry.engine.CommandResult;
import io.orderentry.engine.EngineConfig;
import io.orderentry.engine.Matcher;
import io.orderentry.engine.OrderType;
import io.orderentry.engine.Side;
import io.orderentry.engine.TimeInForce;
import org.junit.jupiter.api.Test;

/** What the matcher stage publishes for refusals, completed commands and the end of the replay. */
class MatcherStageTest {

    private final RingBuffer<EngineEvent> output = RingBuffer.createSingleProducer(EngineEvent::new, 64);
    private final MatcherStage stage = new MatcherStage(sink -> new Matcher(1, EngineConfig.DEFAULTS, sink), output,
            new MatcherMetrics());

    @Test
    void shouldForwardATickAsOneUnsequencedEventWithoutTouchingTheEngine() {
        final OrderCommand command = new OrderCommand();
        command.reset();
        command.type = CommandType.TICK;
        stage.onEvent(command, 0, true);
        assertEquals(0, output.getCursor());
        assertEquals(EventType.TICK, output.get(0).type);
        assertFalse(output.get(0).type.isSequenced());
        assertEquals(0, stage.matcher().lastEventSequence());
    }

    @Test
    void shouldForwardARefusalAsOneUnsequencedEventWithoutTouchingTheEngine() {
        final Refusal refusal = new Refusal(CommandType.PLACE, 422, "PRICE_NOT_ON_TICK", "off tick", "price");
        final OrderCommand command = new OrderCommand();
        command.reset();
        command.type = CommandType.REJECTED;
        command.requestTag = "r-1";
        command.remoteAddress = "127.0.0.1:4000";
        command.accountId = "acct-1";
        command.clientOrderId = "c-1";
        command.refusal = refusal;
        stage.onEvent(command, 0, true);

        assertEquals(0, output.getCursor());
        final EngineEvent event = output.get(0);
        assertEquals(EventType.REQUEST_REJECTED, event.type);
        assertFalse(event.type.isSequenced());
        assertSame(refusal, event.refusal);
        assertEquals("r-1", event.requestTag.toStringOrNull());
        assertEquals("127.0.0.1:4000", event.remoteAddress);
        assertEquals("acct-1", event.accountId);
        assertEquals("c-1", event.clientOrderId.toStringOrNull());
        assertEquals(0, stage.matcher().lastEventSequence());
        assertEquals(0, stage.matcher().lastOrderId());
    }

    @Test
    void shouldCarryTheRequestIntoTheCompletedEvent() {
        stage.onEvent(place("r-7", 5), 0, true);
        final EngineEvent completed = output.get(output.getCursor());
        assertEquals(EventType.COMMAND_COMPLETED, completed.type);
        assertEquals(CommandResult.PLACED, completed.result);
        assertEquals(CommandType.PLACE, completed.commandType);
        assertEquals("r-7", completed.requestTag.toStringOrNull());
        assertEquals("10.0.0.1:5555", completed.remoteAddress);
        assertEquals("acct-9", completed.accountId);
        assertEquals("c-9", completed.clientOrderId.toStringOrNull());
        assertEquals(5, completed.commandSequence);
    }

    @Test
    void shouldCarryALiveCommandsClockReadingsIntoItsCompletedEventInTheOrderTheyWereTaken() {
        final OrderCommand command = place("r-10", 8);
        command.edgeNanos = System.nanoTime() - 2_000;
        command.journalNanos = command.edgeNanos + 1_000;
        final long before = System.nanoTime();
        stage.onEvent(command, 0, true);
        final EngineEvent completed = output.get(output.getCursor());
        assertEquals(command.edgeNanos, completed.edgeNanos);
        assertEquals(command.journalNanos, completed.journalNanos);
        assertTrue(completed.matchNanos >= before && completed.matchNanos <= System.nanoTime(),
                "the matcher's own reading, taken when it started the command");
    }

    @Test
    void shouldCarryNoClockReadingsIntoAReplayedCommandsEventSoThatNoStageTimeIsRecordedForIt() {
        final OrderCommand command = place("journaled", 2);
        command.edgeNanos = 5;
        command.journalNanos = 6;
        stage.replay(command);
        final EngineEvent completed = output.get(output.getCursor());
        assertEquals(0, completed.edgeNanos);
        assertEquals(0, completed.journalNanos);
        assertEquals(0, completed.matchNanos);
    }

    @Test
    void shouldDropTheInputSlotsReferencesOnceItsCommandRan() {
        final OrderCommand command = place("r-8", 6);
        stage.onEvent(command, 0, true);
        assertNull(command.requestTag, "a slot would keep its strings alive until the ring comes round");
        assertNull(command.remoteAddress);
        assertNull(command.accountId);
        assertNull(command.clientOrderId);
        assertEquals("r-8", output.get(output.getCursor()).requestTag.toStringOrNull(), "the event keeps what it needs");
    }

    @Test
    void shouldCarryWhoAskedAsTheJournalHoldsItIntoReplayedEventsButNoReplyTarget() {
        stage.replay(place("journaled", 1));
        final EngineEvent completed = output.get(output.getCursor());
        assertTrue(completed.replay);
        assertEquals(0, completed.requestId, "nobody waits for a replayed command");
        assertEquals(-1, completed.replyTo);
        assertEquals("journaled", completed.requestTag.toStringOrNull(), "the audit trail rebuilds a lost record with it");
        assertEquals("10.0.0.1:5555", completed.remoteAddress);
        assertEquals("acct-9", completed.accountId);
    }

    @Test
    void shouldAnnounceTheEndOfTheReplayWithTheLastJournalSequence() {
        stage.replayCompleted(41);
        final EngineEvent event = output.get(0);
        assertEquals(EventType.REPLAY_COMPLETED, event.type);
        assertEquals(41, event.commandSequence);
        assertFalse(event.type.isSequenced());
    }

    private static OrderCommand place(final String tag, final long sequence) {
        final OrderCommand command = new OrderCommand();
        command.reset();
        command.type = CommandType.PLACE;
        command.requestTag = tag;
        command.remoteAddress = "10.0.0.1:5555";
        command.sequence = sequence;
        command.timestampMicros = 1_000;
        command.accountId = "acct-9";
        command.clientOrderId = "c-9";
        command.symbol = 0;
        command.side = Side.BUY;
        command.orderType = OrderType.LIMIT;
        command.timeInForce = TimeInForce.GTC;
        command.price = 100;
        command.quantity = 1;
        return command;
    }
}
