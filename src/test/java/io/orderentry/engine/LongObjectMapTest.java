package io.orderentry.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LongObjectMapTest {

    @Test
    void behavesLikeAHashMapUnderRandomPutsGetsAndRemoves() {
        final LongObjectMap<String> map = new LongObjectMap<>(4);
        final Map<Long, String> model = new HashMap<>();
        final Random random = new Random(1);
        for (int i = 0; i < 200_000; i++) {
            final long key = 1 + random.nextInt(3_000);
            switch (random.nextInt(3)) {
                case 0 -> {
                    final String value = "v" + i;
                    map.put(key, value);
                    model.put(key, value);
                }
                case 1 -> assertEquals(model.remove(key), map.remove(key));
                default -> assertEquals(model.get(key), map.get(key));
            }
            assertEquals(model.size(), map.size());
        }
        for (long key = 1; key <= 3_000; key++) {
            assertEquals(model.get(key), map.get(key));
        }
    }

    @Test
    void sequentialIdsSurviveGrowthAndRemovalInAnyOrder() {
        final LongObjectMap<Long> map = new LongObjectMap<>(1);
        for (long id = 1; id <= 100_000; id++) {
            map.put(id, id);
        }
        for (long id = 1; id <= 100_000; id += 2) {
            assertEquals(id, map.remove(id));
        }
        for (long id = 1; id <= 100_000; id++) {
            assertEquals(id % 2 == 0 ? Long.valueOf(id) : null, map.get(id));
        }
        assertEquals(50_000, map.size());
    }

    @Test
    void absentKeysAreNull() {
        final LongObjectMap<String> map = new LongObjectMap<>(8);
        assertNull(map.get(7));
        assertNull(map.remove(7));
    }

    @Test
    void rejectsKeysThatCollideWithTheEmptyMarker() {
        final LongObjectMap<String> map = new LongObjectMap<>(8);
        assertThrows(IllegalArgumentException.class, () -> map.put(0, "x"));
        assertThrows(IllegalArgumentException.class, () -> map.put(-1, "x"));
    }
}
