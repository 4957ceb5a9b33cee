package io.orderentry.query;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class LongSetTest {

    @Test
    void behavesAsAHashSetUnderRandomAddsAndRemovesWithCollidingClusters() {
        final LongSet set = new LongSet();
        final Set<Long> reference = new HashSet<>();
        final Random random = new Random(5);
        for (int i = 0; i < 200_000; i++) {
            final long key = 1 + random.nextInt(5_000);   // few distinct keys: long probe clusters, many deletions
            if (random.nextBoolean()) {
                assertEquals(reference.add(key), set.add(key), "add " + key);
            } else {
                assertEquals(reference.remove(key), set.remove(key), "remove " + key);
            }
            if (i % 997 == 0) {
                for (long k = 1; k <= 5_000; k++) {
                    assertEquals(reference.contains(k), set.contains(k), "contains " + k + " after " + i);
                }
            }
        }
        assertEquals(reference.size(), set.size());
    }
}
