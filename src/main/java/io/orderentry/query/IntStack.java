package io.orderentry.query;

import java.util.Arrays;

/** A growable stack of ints: the order view's free slots and free fill entries. Writer thread only. */
final class IntStack {

    private int[] values = new int[64];
    private int size;

    void push(final int value) {
        if (size == values.length) {
            values = Arrays.copyOf(values, size * 2);
        }
        values[size++] = value;
    }

    int pop() {
        return values[--size];
    }

    boolean isEmpty() {
        return size == 0;
    }
}
