package io.orderentry.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.Sequence;
import io.orderentry.pipeline.CommandType;
import io.orderentry.pipeline.OrderCommand;
import io.orderentry.pipeline.Refusal;
import org.junit.jupiter.api.Test;

/** A flood of bad requests can neither take the ring's slots from orders nor fill the audit disk (issue 13, 11). */
class RefusalBudgetTest {

    private static final Refusal BAD = new Refusal(CommandType.PLACE, 400, "INVALID_JSON", "body is not valid JSON", null);

    @Test
    void refusalsBeyondTheBudgetAreCountedAndRecordedAsOneSummary() {
        final RingBuffer<OrderCommand> ring = RingBuffer.createMultiProducer(OrderCommand::new, 1024);
        final InputGateway gateway = new InputGateway(ring, 2);   // 2 a second, a burst of 10
        int published = 0;
        for (int i = 0; i < 30; i++) {
            if (gateway.tryReject(BAD, "req-" + i, "127.0.0.1:1", null, null, 0)) {
                published++;
            }
        }
        assertEquals(10, published, "the burst is recorded one by one");
        assertEquals(20, gateway.refusalsSuppressed());
        assertTrue(gateway.recordSuppressedRefusals());
        final OrderCommand summary = ring.get(ring.getCursor());
        assertEquals(CommandType.REJECTED, summary.type);
        assertEquals("REFUSALS_NOT_RECORDED", summary.refusal.code());
        assertTrue(summary.refusal.message().startsWith("20 refused request(s)"), summary.refusal.message());
        assertFalse(gateway.recordSuppressedRefusals(), "nothing new to summarise");
    }

    @Test
    void refusalsNeverTakeTheHalfOfTheRingKeptForOrders() {
        final RingBuffer<OrderCommand> ring = RingBuffer.createMultiProducer(OrderCommand::new, 64);
        ring.addGatingSequences(new Sequence(-1));   // a consumer that does not move: the ring fills
        final InputGateway gateway = new InputGateway(ring, 1_000);
        int published = 0;
        for (int i = 0; i < 64; i++) {
            if (gateway.tryReject(BAD, "req-" + i, "127.0.0.1:1", null, null, 0)) {
                published++;
            }
        }
        assertEquals(33, published, "refusals stop once fewer than half the slots are free");
        assertEquals(31, gateway.refusalsDropped());
        assertEquals(31, ring.remainingCapacity(), "the rest is there for orders");
    }

    @Test
    void ticksNeverTakeTheHalfOfTheRingKeptForOrdersNorEnterAfterClose() {
        final RingBuffer<OrderCommand> ring = RingBuffer.createMultiProducer(OrderCommand::new, 64);
        ring.addGatingSequences(new Sequence(-1));
        final InputGateway gateway = new InputGateway(ring, 1_000);
        assertTrue(gateway.tick());
        assertEquals(CommandType.TICK, ring.get(ring.getCursor()).type);
        int ticks = 1;
        while (gateway.tick()) {
            ticks++;
        }
        assertEquals(33, ticks, "a tick, like a refusal, stops once fewer than half the slots are free");
        assertEquals(0, gateway.refusalsDropped(), "a tick that did not fit is not a dropped refusal");
        final RingBuffer<OrderCommand> other = RingBuffer.createMultiProducer(OrderCommand::new, 64);
        final InputGateway closing = new InputGateway(other, 1_000);
        closing.close();
        assertFalse(closing.tick());
        assertEquals(-1, other.getCursor());
    }

    @Test
    void afterCloseNothingMoreEntersTheRingAndTheCallerCanTellStoppingFromFull() {
        final RingBuffer<OrderCommand> ring = RingBuffer.createMultiProducer(OrderCommand::new, 64);
        final InputGateway gateway = new InputGateway(ring, 1_000);
        assertTrue(gateway.tryCancel(1, 1, 0, "req-1", "127.0.0.1:1"));
        final long cursor = ring.getCursor();
        gateway.close();
        assertTrue(gateway.closed());
        assertFalse(gateway.tryCancel(2, 2, 0, "req-2", "127.0.0.1:1"));
        assertFalse(gateway.tryReject(BAD, "req-3", "127.0.0.1:1", null, null, 0));
        assertEquals(cursor, ring.getCursor(), "a stop drains what the ring took; nothing enters after it");
    }
}
