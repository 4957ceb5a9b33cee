package io.orderentry.engine;

import java.util.Arrays;
import java.util.function.Supplier;

/**
 * A stack of reusable objects that creates them lazily, a chunk at a time, up to a fixed maximum.
 * Once warmed up, {@link #acquire()} and {@link #release} allocate nothing.
 *
 * <p>The caller guarantees it never holds more than {@code max} objects at once; asking for more is
 * a bug. Not thread safe: used only by the matcher thread.
 *
 * @param <T> the pooled type
 */
final class ObjectPool<T> {

    private final Supplier<T> factory;
    private final int max;
    private final int chunk;
    private Object[] free;
    private int freeCount;
    private int created;

    /**
     * @param factory creates one new object; called only while the pool grows
     * @param max     the most objects the pool will ever create
     * @param chunk   how many objects to create at once when the pool is empty
     */
    ObjectPool(final Supplier<T> factory, final int max, final int chunk) {
        if (max <= 0 || chunk <= 0) {
            throw new IllegalArgumentException("max and chunk must be > 0: " + max + ", " + chunk);
        }
        this.factory = factory;
        this.max = max;
        this.chunk = chunk;
        this.free = new Object[Math.min(chunk, max)];
    }

    /**
     * @return a free object, in whatever state {@link #release} received it
     * @throws IllegalStateException when {@code max} objects are already out (a bug in the caller)
     */
    @SuppressWarnings("unchecked")
    T acquire() {
        if (freeCount == 0) {
            grow();
        }
        final Object object = free[--freeCount];
        free[freeCount] = null;
        return (T) object;
    }

    /** Returns an object obtained from {@link #acquire()}; the caller must no longer use it. */
    void release(final T object) {
        free[freeCount++] = object;
    }

    /**
     * Creates every object the pool may ever hand out, now: a service that can afford its limits' memory reserves it
     * at start, so that the objects are old before the first order and an order that rests never makes an old
     * object point at a young one (each such pointer is a card the next young collection scans, and the new object
     * one it copies: issue 33).
     */
    void reserve() {
        while (created < max) {
            grow();
        }
    }

    /** @return how many objects the pool has created so far */
    int created() {
        return created;
    }

    private void grow() {
        final int n = Math.min(chunk, max - created);
        if (n <= 0) {
            throw new IllegalStateException("pool exhausted: all " + max + " objects are in use");
        }
        if (free.length < created + n) {
            free = Arrays.copyOf(free, (int) Math.min(Math.max((long) free.length * 2, created + n), max));
        }
        for (int i = 0; i < n; i++) {
            free[freeCount++] = factory.get();
        }
        created += n;
    }
}
