package io.orderentry.marketdata;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.orderentry.engine.Side;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TradeHistoryTest {

    @Test
    void recentTradesAreNewestFirstAndBoundedByCapacityAcrossRebases() {
        TradeHistory history = TradeHistory.empty(10);
        long tradeId = 0;
        for (long sequence = 1; sequence <= 25; sequence++) {
            final List<Trade> batch = new ArrayList<>();
            for (int i = 0; i < 1 + sequence % 3; i++) {
                batch.add(new Trade(++tradeId, 100, 1, Side.BUY, tradeId));
            }
            history = history.next(new TradeBatch(0, sequence, batch, history.latest()));
        }
        assertEquals(25, history.sequence());
        final List<Trade> recent = history.recent(1000);
        assertEquals(10, recent.size(), "never more than the capacity");
        for (int i = 0; i < recent.size(); i++) {
            assertEquals(tradeId - i, recent.get(i).tradeId());
        }
        assertEquals(3, history.recent(3).size());
    }

    @Test
    void anEmptyHistoryHasNoTradesAndSequenceZero() {
        final TradeHistory history = TradeHistory.empty(5);
        assertEquals(0, history.sequence());
        assertEquals(List.of(), history.recent(100));
    }
}
