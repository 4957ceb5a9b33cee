package io.orderentry.marketdata;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class VolumeWindowTest {

    private static final long MINUTE = 60_000_000L;
    private static final long START = 1_800_000_000_000_000L;

    @Test
    void countsTradesOfTheLast24HoursOnly() {
        final VolumeWindow window = new VolumeWindow();
        window.add(START, 5);
        window.add(START + 10 * MINUTE, 7);
        assertEquals(12, window.total());
        window.add(START + 24 * 60 * MINUTE, 1);
        assertEquals(8, window.total(), "the first minute left the window");
        window.add(START + 24 * 60 * MINUTE + 11 * MINUTE, 2);
        assertEquals(3, window.total());
    }

    @Test
    void aLateTradeInsideTheWindowCountsAndOneOutsideDoesNot() {
        final VolumeWindow window = new VolumeWindow();
        window.add(START + 100 * MINUTE, 4);
        window.add(START + 50 * MINUTE, 6);
        assertEquals(10, window.total());
        window.add(START - 24 * 60 * MINUTE, 100);
        assertEquals(10, window.total());
    }

    @Test
    void aGapLongerThanADayEmptiesTheWindow() {
        final VolumeWindow window = new VolumeWindow();
        window.add(START, 5);
        window.add(START + 3 * 24 * 60 * MINUTE, 1);
        assertEquals(1, window.total());
    }
}
