package io.orderentry.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class DedupWindowTest {

    @Test
    void remembersExactlyTheMostRecentPairsWhileGrowingAndAfterWrapping() {
        for (final int window : new int[] {1, 7, 1_024, 3_000}) {
            final DedupWindow dedup = new DedupWindow(window);
            final Map<String, Long> model = new LinkedHashMap<>();
            final Random random = new Random(window);
            for (long orderId = 1; orderId <= 20_000; orderId++) {
                final String account = "a" + random.nextInt(3);
                final String clientOrderId = "c" + random.nextInt(window * 2 + 10);
                final int hash = DedupWindow.hash(account, clientOrderId);
                final int entry = dedup.find(hash, account, clientOrderId);
                final Long expected = model.get(account + "/" + clientOrderId);
                assertEquals(expected == null ? -1 : expected, entry < 0 ? -1 : dedup.orderId(entry), "window " + window);
                if (entry < 0) {
                    dedup.remember(hash, orderId, account, clientOrderId, 0, Side.BUY, OrderType.LIMIT,
                            TimeInForce.GTC, false, SelfTradePrevention.NONE, 1, 1);
                    model.put(account + "/" + clientOrderId, orderId);
                    if (model.size() > window) {
                        model.remove(model.keySet().iterator().next());
                    }
                }
                assertEquals(model.size(), dedup.size());
            }
        }
    }

    @Test
    void comparesEveryFieldOfTheOriginalOrder() {
        final DedupWindow dedup = new DedupWindow(4);
        final int hash = DedupWindow.hash("a", "c");
        dedup.remember(hash, 9, "a", "c", 1, Side.SELL, OrderType.LIMIT, TimeInForce.FOK, false,
                SelfTradePrevention.EXPIRE_MAKER, 100, 5);
        final int entry = dedup.find(hash, new String("a"), new String("c"));
        assertEquals(9, dedup.orderId(entry));
        assertTrue(dedup.sameOrder(entry, 1, Side.SELL, OrderType.LIMIT, TimeInForce.FOK, false, SelfTradePrevention.EXPIRE_MAKER, 100, 5));
        assertFalse(dedup.sameOrder(entry, 0, Side.SELL, OrderType.LIMIT, TimeInForce.FOK, false, SelfTradePrevention.EXPIRE_MAKER, 100, 5));
        assertFalse(dedup.sameOrder(entry, 1, Side.BUY, OrderType.LIMIT, TimeInForce.FOK, false, SelfTradePrevention.EXPIRE_MAKER, 100, 5));
        assertFalse(dedup.sameOrder(entry, 1, Side.SELL, OrderType.MARKET, TimeInForce.FOK, false, SelfTradePrevention.EXPIRE_MAKER, 100, 5));
        assertFalse(dedup.sameOrder(entry, 1, Side.SELL, OrderType.LIMIT, TimeInForce.IOC, false, SelfTradePrevention.EXPIRE_MAKER, 100, 5));
        assertFalse(dedup.sameOrder(entry, 1, Side.SELL, OrderType.LIMIT, TimeInForce.FOK, true, SelfTradePrevention.EXPIRE_MAKER, 100, 5));
        assertFalse(dedup.sameOrder(entry, 1, Side.SELL, OrderType.LIMIT, TimeInForce.FOK, false, SelfTradePrevention.EXPIRE_MAKER, 101, 5));
        assertFalse(dedup.sameOrder(entry, 1, Side.SELL, OrderType.LIMIT, TimeInForce.FOK, false, SelfTradePrevention.EXPIRE_MAKER, 100, 6));
        assertFalse(dedup.sameOrder(entry, 1, Side.SELL, OrderType.LIMIT, TimeInForce.FOK, false, SelfTradePrevention.NONE, 100, 5));
    }
}
