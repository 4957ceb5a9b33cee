package io.orderentry.marketdata;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.orderentry.engine.Side;
import java.util.Random;
import org.junit.jupiter.api.Test;

class BookStateTest {

    @Test
    void mergeRebuildsTheLiveBookAcrossSnapshotsAndChains() {
        final Random random = new Random(7);
        final L2Side bids = new L2Side(Side.BUY, 16);
        final L2Side asks = new L2Side(Side.SELL, 16);
        BookState state = BookState.of(BookSnapshot.empty(0));
        int snapshots = 0;
        for (long sequence = 1; sequence <= 3_000; sequence++) {
            final int changes = 1 + random.nextInt(4);
            final Side[] sides = new Side[changes];
            final long[] prices = new long[changes];
            final long[] quantities = new long[changes];
            for (int i = 0; i < changes; i++) {
                sides[i] = random.nextBoolean() ? Side.BUY : Side.SELL;
                prices[i] = 1000L * i + random.nextInt(300);
                quantities[i] = random.nextInt(4) == 0 ? 0 : 1 + random.nextInt(50);
                (sides[i] == Side.BUY ? bids : asks).set(prices[i], quantities[i]);
            }
            final BookUpdate update = new BookUpdate(0, sequence, sides, prices, quantities, state.latest(),
                    BookSnapshot.top(0, sequence, bids, asks));
            state = state.next(update, bids, asks);
            if (state.latest() == null) {
                snapshots++;
            }
            if (sequence % 97 == 0) {
                assertSame(BookSnapshot.of(0, sequence, bids, asks), state.merge());
            }
        }
        assertEquals(3_000, state.sequence());
        assertSame(BookSnapshot.of(0, 3_000, bids, asks), state.merge());
        assertEquals(true, snapshots > 5, "the chain is folded into snapshots as it grows: " + snapshots);
    }

    static void assertSame(final BookSnapshot expected, final BookSnapshot actual) {
        assertEquals(expected.sequence(), actual.sequence());
        for (final Side side : Side.values()) {
            assertEquals(expected.levelCount(side), actual.levelCount(side), side + " levels");
            for (int i = 0; i < expected.levelCount(side); i++) {
                assertEquals(expected.price(side, i), actual.price(side, i), side + " price " + i);
                assertEquals(expected.quantity(side, i), actual.quantity(side, i), side + " quantity " + i);
            }
        }
    }
}
