package io.orderentry.marketdata;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.orderentry.engine.Side;
import org.junit.jupiter.api.Test;

class L2SideTest {

    @Test
    void bidsAreListedHighestFirstAndAsksLowestFirst() {
        final L2Side bids = new L2Side(Side.BUY, 1);
        final L2Side asks = new L2Side(Side.SELL, 1);
        for (final long price : new long[] {100, 102, 101}) {
            bids.add(price, 1);
            asks.add(price, 1);
        }
        assertEquals(102, bids.priceFromBest(0));
        assertEquals(100, bids.priceFromBest(2));
        assertEquals(100, asks.priceFromBest(0));
        assertEquals(102, asks.priceFromBest(2));
    }

    @Test
    void quantitiesAggregateByPriceAndALevelAtZeroIsGone() {
        final L2Side side = new L2Side(Side.BUY, 1);
        side.add(100, 5);
        side.add(100, 3);
        assertEquals(8, side.quantity(100));
        assertEquals(0, side.add(100, -8));
        assertEquals(0, side.levelCount());
        assertEquals(0, side.quantity(100));
    }

    @Test
    void shouldGrowPastItsInitialCapacity() {
        final L2Side side = new L2Side(Side.SELL, 1);
        for (long price = 1; price <= 1000; price++) {
            side.add(price, price);
        }
        assertEquals(1000, side.levelCount());
        assertEquals(1, side.priceFromBest(0));
        assertEquals(1000, side.quantityFromBest(999));
    }

    @Test
    void takingMoreThanALevelHoldsIsABug() {
        final L2Side side = new L2Side(Side.BUY, 1);
        side.add(100, 2);
        assertThrows(IllegalStateException.class, () -> side.add(100, -3));
        assertThrows(IllegalStateException.class, () -> side.add(99, -1));
    }

    @Test
    void copyFromASnapshotKeepsTheOrder() {
        final L2Side side = new L2Side(Side.SELL, 1);
        side.add(7, 1);
        side.add(5, 2);
        final BookSnapshot snapshot = BookSnapshot.of(0, 1, new L2Side(Side.BUY, 1), side);
        final L2Side copy = snapshot.side(Side.SELL);
        assertEquals(5, copy.priceFromBest(0));
        assertEquals(2, copy.quantityFromBest(0));
        copy.set(6, 4);
        assertEquals(6, copy.priceFromBest(1));
    }
}
