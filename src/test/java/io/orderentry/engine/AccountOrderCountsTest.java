package io.orderentry.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class AccountOrderCountsTest {

    @Test
    void countsLikeAMapAndForgetsAccountsAtZero() {
        final AccountOrderCounts counts = new AccountOrderCounts(2);
        final Map<String, Integer> model = new HashMap<>();
        final Random random = new Random(3);
        for (int i = 0; i < 200_000; i++) {
            final String account = "acct-" + random.nextInt(500);
            if (random.nextBoolean() || !model.containsKey(account)) {
                counts.increment(account);
                model.merge(account, 1, Integer::sum);
            } else {
                counts.decrement(new String(account));
                model.computeIfPresent(account, (a, n) -> n == 1 ? null : n - 1);
            }
            assertEquals(model.getOrDefault(account, 0), counts.get(account));
            assertEquals(model.size(), counts.accountCount());
        }
        model.forEach((account, n) -> assertEquals(n, counts.get(account)));
    }

    @Test
    void decrementOfAnAccountWithoutOpenOrdersIsABug() {
        final AccountOrderCounts counts = new AccountOrderCounts(8);
        assertThrows(IllegalStateException.class, () -> counts.decrement("nobody"));
    }
}
