package io.orderentry.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class ObjectPoolTest {

    @Test
    void createsLazilyInChunksUpToTheMaximum() {
        final ObjectPool<Order> pool = new ObjectPool<>(Order::new, 10, 4);
        assertEquals(0, pool.created());
        pool.acquire();
        assertEquals(4, pool.created());
        for (int i = 1; i < 10; i++) {
            pool.acquire();
        }
        assertEquals(10, pool.created());
        assertThrows(IllegalStateException.class, pool::acquire);
    }

    @Test
    void reusesReleasedObjectsInsteadOfCreating() {
        final ObjectPool<Order> pool = new ObjectPool<>(Order::new, 2, 1);
        final Order order = pool.acquire();
        pool.release(order);
        assertSame(order, pool.acquire());
        assertEquals(1, pool.created());
    }

    @Test
    void reservingCreatesEveryObjectAtOnceAndAcquiringThenCreatesNone() {
        final ObjectPool<Order> pool = new ObjectPool<>(Order::new, 10, 4);
        pool.acquire();
        pool.reserve();
        assertEquals(10, pool.created());
        for (int i = 1; i < 10; i++) {
            pool.acquire();
        }
        assertEquals(10, pool.created());
        assertThrows(IllegalStateException.class, pool::acquire, "the maximum still holds");
        pool.reserve();
        assertEquals(10, pool.created(), "a second reserve creates nothing");
    }
}
