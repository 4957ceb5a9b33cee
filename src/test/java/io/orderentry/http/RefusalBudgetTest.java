package io.orderentry.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.Sequence;
import io.orderentry.http.rest.InputGateway;
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
        final InputGateway gateway = new InputGateway(ring, 20);   // 2 a second from one address, a burst of 10
        int published = 0;
        for (int i = 0; i < 30; i++) {
            if (gateway.tryReject(BAD, "req-" + i, "127.0.0.1:" + (1000 + i), null, null, 0)) {
                published++;
            }
        }
        assertEquals(10, published, "the address's burst is recorded one by one, whatever the port");
        assertEquals(20, gateway.refusalsSuppressed());
        assertTrue(gateway.recordSuppressedRefusals());
        final OrderCommand summary = ring.get(ring.getCursor());
        assertEquals(CommandType.REJECTED, summary.type);
        assertEquals("REFUSALS_NOT_RECORDED", summary.refusal.code());
        assertTrue(summary.refusal.message().startsWith("20 refused request(s)"), summary.refusal.message());
        assertTrue(summary.refusal.message().contains("from 1 address(es)"), summary.refusal.message());
        assertTrue(summary.refusal.message().endsWith("most from 127.0.0.1: 20"), summary.refusal.message());
        assertFalse(gateway.recordSuppressedRefusals(), "nothing new to summarise");
    }

    @Test
    void oneAddressFloodingRefusalsDoesNotStopAnotherAddresssRefusalBeingRecordedOneByOne() {
        final RingBuffer<OrderCommand> ring = RingBuffer.createMultiProducer(OrderCommand::new, 4096);
        // 20 a second from one address, 200 in all; a clock standing still, so that a slow machine cannot refill it
        final InputGateway gateway = new InputGateway(ring, 200, () -> 1_000_000_000L);
        for (int i = 0; i < 1_500; i++) {
            gateway.tryReject(BAD, "flood-" + i, "203.0.113.9:" + (1024 + i % 60_000), null, null, 0);
        }
        assertTrue(gateway.refusalsSuppressed() >= 1_400, "the flooder spent its own share");
        assertTrue(gateway.tryReject(BAD, "other", "198.51.100.7:5555", null, null, 0),
                "another address's 401 is still recorded one by one");
        assertEquals("other", ring.get(ring.getCursor()).requestTag);
    }

    @Test
    void anIpv6HostIsBudgetedByItsSlash64SoOneHostCannotTakeEveryShare() {
        assertEquals("2001:db8:1:2::/64", RefusalBudget.addressKey("[2001:db8:1:2:aaaa:bbbb:cccc:dddd]:443"));
        assertEquals("2001:db8:1:2::/64", RefusalBudget.addressKey("[2001:db8:1:2::9%eth0]:1"));
        assertEquals("10.0.0.1", RefusalBudget.addressKey("10.0.0.1:80"));
        assertEquals("", RefusalBudget.addressKey(null));
        final RefusalBudget budget = new RefusalBudget(200, 0);
        int published = 0;
        for (int i = 0; i < 1_000; i++) {
            if (budget.take("[2001:db8:1:2::" + Integer.toHexString(i + 1) + "]:1", i)) {
                published++;
            }
        }
        assertEquals(100, published, "one /64 has one address's burst");
    }

    @Test
    void theAddressTableHasAFixedSizeAndAFlooderKeepsItsSpentBucketWhileNewAddressesCome() {
        final RefusalBudget budget = new RefusalBudget(200, 0);
        long now = 0;   // a nanosecond a request: nothing refills in the test's span
        for (int i = 0; i < 200; i++) {
            budget.take("203.0.113.9:1", ++now);   // 100 recorded (its burst), 100 suppressed
        }
        final int others = 20 * RefusalBudget.SETS * RefusalBudget.WAYS;
        for (int i = 0; i < others; i++) {   // far more addresses than the table holds, the flooder among them
            budget.take("10." + (i >> 16 & 255) + "." + (i >> 8 & 255) + "." + (i & 255) + ":1", ++now);
            assertFalse(budget.take("203.0.113.9:1", ++now), "the flooder is never evicted to come back refilled");
        }
        final RefusalBudget.Suppressed drained = budget.drainSuppressed();
        assertEquals("203.0.113.9", drained.topAddress());
        assertEquals(100 + others, drained.topCount(), "its count survived every other address passing through");
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
