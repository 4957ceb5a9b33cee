package io.orderentry.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class AccountOrdersTest {

    @Test
    void holdsEachAccountsOrdersInTheOrderTheyWereAddedAndForgetsAccountsAtZero() {
        final AccountOrders orders = new AccountOrders(2);
        final Map<String, List<Order>> model = new HashMap<>();
        final Map<Long, Order> live = new LinkedHashMap<>();
        final Random random = new Random(3);
        long nextId = 1;
        for (int i = 0; i < 200_000; i++) {
            final String account = "acct-" + random.nextInt(500);
            final List<Order> own = model.get(account);
            if (random.nextBoolean() || own == null) {
                final Order order = new Order();
                order.init(nextId++, new String(account), 10, 0, false, SelfTradePrevention.NONE, 0);
                orders.add(order);
                model.computeIfAbsent(account, a -> new ArrayList<>()).add(order);
                live.put(order.orderId, order);
            } else {
                final Order victim = own.remove(random.nextInt(own.size()));
                orders.remove(victim);
                if (own.isEmpty()) {
                    model.remove(account);
                }
            }
            assertEquals(model.containsKey(account) ? model.get(account).size() : 0, orders.count(account));
            assertEquals(model.size(), orders.accountCount());
        }
        model.forEach((account, expected) -> {
            final List<Order> actual = new ArrayList<>();
            for (Order o = orders.first(account); o != null; o = o.accountNext) {
                actual.add(o);
            }
            assertEquals(expected, actual, account);
        });
        assertNull(orders.first("nobody"));
    }

    @Test
    void removingAnOrderOfAnAccountWithoutOpenOrdersIsABug() {
        final AccountOrders orders = new AccountOrders(8);
        final Order order = new Order();
        order.init(1, "nobody", 1, 0, false, SelfTradePrevention.NONE, 0);
        assertThrows(IllegalStateException.class, () -> orders.remove(order));
    }
}
