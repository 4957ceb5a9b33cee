package io.orderentry.persistence;

import io.orderentry.pipeline.EngineEvent;

/**
 * Up to {@code capacity} consecutive engine events on their way into one database transaction, in
 * preallocated slots that are filled in place and reused for every batch.
 *
 * <p>Threads: owned by the persistence writer thread.
 */
final class EventBatch {

    private final EngineEvent[] events;
    private int size;

    /** @param capacity most events in one batch */
    EventBatch(final int capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("batch capacity must be > 0, was " + capacity);
        }
        events = new EngineEvent[capacity];
        for (int i = 0; i < capacity; i++) {
            events[i] = new EngineEvent();
        }
    }

    /** @return the free slot after the last event, to be filled and then {@link #commitSlot() committed} */
    EngineEvent slot() {
        return events[size];
    }

    /** Makes the slot returned by {@link #slot()} the last event of the batch. */
    void commitSlot() {
        size++;
    }

    /** @return the {@code index}-th event, oldest first */
    EngineEvent get(final int index) {
        if (index >= size) {
            throw new IndexOutOfBoundsException(index + " >= " + size);
        }
        return events[index];
    }

    int size() {
        return size;
    }

    int capacity() {
        return events.length;
    }

    boolean isEmpty() {
        return size == 0;
    }

    boolean isFull() {
        return size == events.length;
    }

    /** @return the first event's sequence; the batch must not be empty */
    long firstSequence() {
        return get(0).eventSequence;
    }

    /** @return the last event's sequence; the batch must not be empty */
    long lastSequence() {
        return get(size - 1).eventSequence;
    }

    /** Removes the leading events with a sequence up to {@code sequence}, keeping the rest in order. */
    void dropThrough(final long sequence) {
        int drop = 0;
        while (drop < size && events[drop].eventSequence <= sequence) {
            drop++;
        }
        if (drop == 0) {
            return;
        }
        final EngineEvent[] dropped = new EngineEvent[drop];
        System.arraycopy(events, 0, dropped, 0, drop);
        System.arraycopy(events, drop, events, 0, size - drop);
        System.arraycopy(dropped, 0, events, size - drop, drop);
        size -= drop;
    }

    /** Empties the batch; the slots are kept for the next one. */
    void clear() {
        size = 0;
    }
}
