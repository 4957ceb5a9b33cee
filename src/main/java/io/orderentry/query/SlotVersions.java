package io.orderentry.query;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The writer's half of the per-slot seqlock that the order view and its open-order lists share: a slot's version is
 * odd while the writer changes the slot, and a reader takes what it read only if the version was even and the same
 * before and after. Chunks of {@value #CHUNK} slots; slot {@code s} is chunk {@code s >>> SHIFT}, index
 * {@code s & MASK}.
 *
 * <p>Threads: {@link #begin} and {@link #end} on the one thread that applies events.
 */
final class SlotVersions {

    static final int SHIFT = 14;
    static final int CHUNK = 1 << SHIFT;
    static final int MASK = CHUNK - 1;
    static final VarHandle INTS = MethodHandles.arrayElementVarHandle(int[].class);

    private SlotVersions() {
    }

    /** Makes slot {@code i} of a chunk odd: readers retry until {@link #end}. */
    static void begin(final int[] version, final int i) {
        INTS.setOpaque(version, i, version[i] + 1);
        VarHandle.storeStoreFence();
    }

    /** Makes slot {@code i} even again, publishing what was written since {@link #begin}. */
    static void end(final int[] version, final int i) {
        INTS.setRelease(version, i, version[i] + 1);
    }
}
