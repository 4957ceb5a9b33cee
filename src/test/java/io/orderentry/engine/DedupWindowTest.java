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

    @Test
    void tellsApartIdsOfEveryLengthAndKeepsOnesThatDoNotFitWhole() {
        final DedupWindow dedup = new DedupWindow(10_000);   // more than one part of the ids' bytes
        final String longest = "x".repeat(DedupWindow.ID_WIDTH);
        final String tooLong = "y".repeat(DedupWindow.ID_WIDTH + 1);
        final String notAscii = "caf\u00e9";
        final String[] ids = {"c", longest, longest.substring(1) + "z", tooLong, notAscii};
        long orderId = 0;
        for (final String id : ids) {
            dedup.remember(DedupWindow.hash("a", id), ++orderId, "a", id, 0, Side.BUY, OrderType.LIMIT, TimeInForce.GTC,
                    false, SelfTradePrevention.NONE, 1, 1);
        }
        for (int n = 0; n < 9_000; n++) {    // past the first part: 4,096 entries
            dedup.remember(DedupWindow.hash("b", "n" + n), ++orderId, "b", "n" + n, 0, Side.BUY, OrderType.LIMIT,
                    TimeInForce.GTC, false, SelfTradePrevention.NONE, 1, 1);
        }
        for (int k = 0; k < ids.length; k++) {
            final String copy = new String(ids[k].toCharArray());
            assertEquals(k + 1, dedup.orderId(dedup.find(DedupWindow.hash("a", copy), "a", copy)), ids[k]);
        }
        assertEquals(-1, dedup.find(DedupWindow.hash("a", "x".repeat(63)), "a", "x".repeat(63)));
        assertEquals(-1, dedup.find(DedupWindow.hash("a", "caf\u00e8"), "a", "caf\u00e8"));
        assertEquals(ids.length + 9_000, dedup.orderId(dedup.find(DedupWindow.hash("b", "n8999"), "b", "n8999")));
    }

    @Test
    void snapshotCarriesTheIdsBackExactly() throws Exception {
        final DedupWindow dedup = new DedupWindow(100);
        final String[] ids = {"c-1", "x".repeat(DedupWindow.ID_WIDTH), "z".repeat(DedupWindow.ID_WIDTH + 5), "\u00fc"};
        long orderId = 0;
        for (final String id : ids) {
            dedup.remember(DedupWindow.hash("acct", id), ++orderId, "acct", id, 2, Side.SELL, OrderType.LIMIT,
                    TimeInForce.IOC, false, SelfTradePrevention.NONE, 7, 3);
        }
        final java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        dedup.writeSnapshot(new java.io.DataOutputStream(bytes));
        final DedupWindow restored = new DedupWindow(100);
        restored.restoreSnapshot(new java.io.DataInputStream(new java.io.ByteArrayInputStream(bytes.toByteArray())));
        for (int k = 0; k < ids.length; k++) {
            final int entry = restored.find(DedupWindow.hash("acct", ids[k]), "acct", ids[k]);
            assertEquals(k + 1, restored.orderId(entry), ids[k]);
            assertTrue(restored.sameOrder(entry, 2, Side.SELL, OrderType.LIMIT, TimeInForce.IOC, false,
                    SelfTradePrevention.NONE, 7, 3));
        }
    }
}
