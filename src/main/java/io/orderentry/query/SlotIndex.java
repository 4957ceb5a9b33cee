package io.orderentry.query;

/**
 * Order id to slot of the {@link OrderStateView}: open addressing on primitive arrays with linear probing and
 * backward-shift deletion, no per-entry object. Ids are positive; 0 marks an empty cell.
 *
 * <p>Threads: one writer ({@link #put}, {@link #remove}). {@link #find} may run on other threads at the same
 * time; it is bounded (it never loops forever on a table being changed) but may then answer wrongly, so such a
 * reader must check the view's index version around it and retry, as {@link OrderStateView#get} does.
 */
final class SlotIndex {

    private static final int NONE = -1;

    /** The cells, replaced whole when the index grows. */
    private ProbeTable table = new ProbeTable(1024);
    private volatile int size;

    /** @return the slot of {@code id}, or -1 */
    int find(final long id) {
        final ProbeTable t = table;
        final long[] keys = t.keys;
        int cell = ProbeTable.home(id) & t.mask;
        for (int probes = 0; probes <= t.mask; probes++) {
            final long key = keys[cell];
            if (key == id) {
                return t.values[cell];
            }
            if (key == 0) {
                return NONE;
            }
            cell = (cell + 1) & t.mask;
        }
        return NONE;
    }

    /** Maps {@code id} (new, positive) to {@code slot}. Writer only. */
    void put(final long id, final int slot) {
        if (id <= 0) {
            throw new IllegalArgumentException("order ids are positive, was " + id);
        }
        if ((size + 1) * 2 > table.keys.length) {
            table = table.grown();
        }
        table.insert(id, slot);
        size = size + 1;
    }

    /**
     * Maps {@code id} (positive) to {@code slot} unless it is mapped already. Writer only.
     *
     * @return false, changing nothing, if {@code id} was mapped
     */
    boolean putIfAbsent(final long id, final int slot) {
        if (find(id) != NONE) {
            return false;
        }
        put(id, slot);
        return true;
    }

    /** Forgets {@code id}; shifts back the entries after it so that no probe chain is broken. Writer only. */
    void remove(final long id) {
        final ProbeTable t = table;
        int cell = ProbeTable.home(id) & t.mask;
        while (t.keys[cell] != id) {
            if (t.keys[cell] == 0) {
                return;
            }
            cell = (cell + 1) & t.mask;
        }
        t.removeAt(cell);
        size = size - 1;
    }

    /** @return how many ids are mapped; any thread */
    int size() {
        return size;
    }
}
