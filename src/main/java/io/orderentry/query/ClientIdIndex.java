package io.orderentry.query;

/**
 * (account, clientOrderId) to slot of the {@link OrderStateView}, for the routes that name an order by the client's
 * own id ({@code /api/v1/orders/client:{clientOrderId}}): open addressing on primitive arrays keyed by a 64-bit hash of
 * the pair, with linear probing and backward-shift deletion, no per-entry object and no String kept (a map of
 * Strings would bring back the per-order objects the young collection copies, issue 33).
 *
 * <p>The key is only a hash, so several cells may hold the same key: two pairs whose hashes collide, or one pair that
 * two orders carry (a final order the view still retains whose clientOrderId the engine's dedup window has forgotten,
 * and the newer order that reused it). A cell is therefore a candidate only: the reader checks the slot's own account
 * and clientOrderId ({@link OrderStateView#orderIdOf}). Hash 0 marks an empty cell and is never a key.
 *
 * <p>Threads: one writer ({@link #put}, {@link #remove}), the view's. {@link #candidates} may run on other threads at
 * the same time; it is bounded (it never loops forever on a table being changed) but may then miss or report a stale
 * slot, so such a reader checks the view's index version around it and retries, as {@link OrderStateView#orderIdOf}
 * does.
 */
final class ClientIdIndex {

    /** Receives the candidate slots of one key. */
    interface SlotVisitor {
        void visit(int slot);
    }

    /** The cells, replaced whole when the index grows. */
    private ProbeTable table = new ProbeTable(1024);
    private int size;

    /** @return the key of a pair: never 0; the same for the same account and clientOrderId text */
    static long key(final String account, final CharSequence clientOrderId) {
        long h = 0xcbf29ce484222325L ^ account.hashCode();
        for (int k = 0; k < clientOrderId.length(); k++) {
            h = (h ^ clientOrderId.charAt(k)) * 0x100000001b3L;
        }
        return finish(h, clientOrderId.length());
    }

    /** @return the key of a pair whose clientOrderId is {@code length} ASCII bytes of {@code bytes} from {@code at} */
    static long key(final String account, final byte[] bytes, final int at, final int length) {
        long h = 0xcbf29ce484222325L ^ account.hashCode();
        for (int k = 0; k < length; k++) {
            h = (h ^ (bytes[at + k] & 0xff)) * 0x100000001b3L;
        }
        return finish(h, length);
    }

    private static long finish(final long hash, final int length) {
        long h = hash ^ length;
        h = (h ^ (h >>> 33)) * 0xff51afd7ed558ccdL;
        h = h ^ (h >>> 33);
        return h == 0 ? 1 : h;
    }

    /** Hands {@code visitor} every slot stored under {@code key}; any thread, see the class comment. */
    void candidates(final long key, final SlotVisitor visitor) {
        final ProbeTable t = table;
        final long[] keys = t.keys;
        int cell = ProbeTable.home(key) & t.mask;
        for (int probes = 0; probes <= t.mask; probes++) {
            final long k = keys[cell];
            if (k == 0) {
                return;
            }
            if (k == key) {
                visitor.visit(t.values[cell]);
            }
            cell = (cell + 1) & t.mask;
        }
    }

    /** Stores {@code slot} under {@code key} (non-zero), beside any other slot stored under it. Writer only. */
    void put(final long key, final int slot) {
        if (key == 0) {
            throw new IllegalArgumentException("key 0 marks an empty cell");
        }
        if ((size + 1) * 2 > table.keys.length) {
            table = table.grown();
        }
        table.insert(key, slot);
        size++;
    }

    /** Forgets {@code slot} under {@code key}, if stored; keeps every probe chain whole. Writer only. */
    void remove(final long key, final int slot) {
        final ProbeTable t = table;
        int cell = ProbeTable.home(key) & t.mask;
        while (t.keys[cell] != key || t.values[cell] != slot) {
            if (t.keys[cell] == 0) {
                return;
            }
            cell = (cell + 1) & t.mask;
        }
        t.removeAt(cell);
        size--;
    }

    /** @return how many slots are stored; writer only */
    int size() {
        return size;
    }
}
