package io.orderentry.query;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;

/**
 * Each account's open orders, oldest (lowest id) first: one doubly linked list per account, threaded through the
 * order view's slots in primitive arrays, so that an order that rests costs no object the garbage collector has to
 * copy (the skip-list sets this replaces cost a node, an index entry and a boxed id per open order, and their
 * inserts and removals were 35-40% of the order stage's samples under load).
 *
 * <p>Contract:
 * <ul>
 *   <li>{@link #open} links a slot into its account's list, in id order (normally at the tail: ids grow); a slot
 *       already linked stays where it is. {@link #close} unlinks it. Both only on the thread that applies events,
 *       and a slot must be closed before the view reuses it for another order.</li>
 *   <li>{@link #read} runs on any thread without a lock and is weakly consistent, like the iterators of the
 *       concurrent collections: it returns ids in ascending order, each of which was an open order of that account
 *       at some moment during the call. Orders open in id order (an order is accepted and rests in one command),
 *       and then it never misses an order that stayed open during the whole call. The caller checks each id
 *       against the order's current state, as it would have to anyway.</li>
 * </ul>
 *
 * <p>How a reader stays safe: every change of a slot's links happens under that slot's version in the order view
 * (odd while it changes; the view changes a slot's order id and account under the same version), and a reader takes a slot's id, account and next link only when the version was even and unchanged
 * around the three reads. An unlinked slot keeps its next link, so a reader standing on it walks on to later
 * orders; if the slot was reused meanwhile, its id or account no longer match and the reader starts again after
 * the last id it returned. A slot's id only grows over its reuses and ids grow along a list, so every step of a
 * walk reads a larger id than the one before and a walk always ends.
 */
final class OpenOrderLists {

    private static final int SHIFT = SlotVersions.SHIFT;
    private static final int CHUNK = SlotVersions.CHUNK;
    private static final int MASK = SlotVersions.MASK;
    static final int NONE = -1;
    /** {@code prev} of a slot in no list. */
    private static final int UNLINKED = -2;
    private static final VarHandle INTS = SlotVersions.INTS;
    private static final VarHandle HEAD;

    static {
        try {
            HEAD = MethodHandles.lookup().findVarHandle(Heads.class, "head", int.class);
        } catch (final ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** One account's list ends; {@code count} and {@code tail} belong to the writer. */
    private static final class Heads {
        @SuppressWarnings("unused") // through HEAD
        private volatile int head = NONE;
        private int tail = NONE;
        private int count;
    }

    private final int maxChunks;
    /** Shared with the order view: its per-slot versions, order ids and accounts (chunks it allocates). */
    private final int[][] versions;
    private final long[][] ids;
    private final String[][] accounts;
    private final int[][] next;
    private final int[][] prev;
    private final Map<String, Heads> heads = new ConcurrentHashMap<>();

    /**
     * Lists over the order view's slots: links are changed under the view's per-slot versions, and a slot's order id
     * and account are the view's own, so that a slot costs 8 bytes more here, not a copy of what the view holds.
     *
     * @param versions the view's per-slot versions, in chunks of {@value #CHUNK}, allocated by the view
     * @param ids      the view's order id per slot
     * @param accounts the view's account per slot (one String instance per account)
     */
    OpenOrderLists(final int[][] versions, final long[][] ids, final String[][] accounts) {
        if (versions.length != ids.length || versions.length != accounts.length) {
            throw new IllegalArgumentException("slot arrays of different capacities");
        }
        this.maxChunks = versions.length;
        this.versions = versions;
        this.ids = ids;
        this.accounts = accounts;
        this.next = new int[maxChunks][];
        this.prev = new int[maxChunks][];
    }

    /**
     * Links {@code slot} into its account's list; writer only. The view has already put {@code orderId} and
     * {@code account} in the slot (they are passed so that the list need not read them back).
     */
    void open(final int slot, final long orderId, final String account) {
        final int c = slot >>> SHIFT;
        final int i = slot & MASK;
        if (next[c] == null) {
            allocate(c);
        }
        if (prev[c][i] != UNLINKED) {
            return;     // already open
        }
        final Heads list = heads.computeIfAbsent(account, a -> new Heads());
        // normally the newest order goes last; walk back over any newer one so that the list stays in id order
        int before = list.tail;
        while (before != NONE && ids[before >>> SHIFT][before & MASK] > orderId) {
            before = prev[before >>> SHIFT][before & MASK];
        }
        final int after = before == NONE ? (int) HEAD.getOpaque(list) : next[before >>> SHIFT][before & MASK];
        begin(c, i);
        prev[c][i] = before;
        next[c][i] = after;
        end(c, i);
        join(list, before, after, slot, slot);
        list.count++;
    }

    /** Unlinks {@code slot} from its account's list if it is in one; writer only. */
    void close(final int slot) {
        final int c = slot >>> SHIFT;
        final int i = slot & MASK;
        if (next[c] == null || prev[c][i] == UNLINKED) {
            return;
        }
        final String account = accounts[c][i];
        final Heads list = heads.get(account);
        final int before = prev[c][i];
        final int after = next[c][i];
        join(list, before, after, after, before);
        begin(c, i);
        prev[c][i] = UNLINKED;     // next stays: a reader standing here walks on to later orders
        end(c, i);
        if (--list.count == 0) {
            heads.remove(account, list);
        }
    }

    /**
     * Any thread. @param afterSlot the slot the caller found for {@code afterOrderId}, or {@link #NONE}: when it
     * still holds that open order of this account the walk starts right after it instead of at the list's head
     *
     * @return up to {@code limit} ids of the account's open orders above {@code afterOrderId}, ascending
     */
    long[] read(final String account, final long afterOrderId, final int afterSlot, final int limit) {
        long[] out = new long[Math.max(0, Math.min(limit, 64))];
        int n = 0;
        long last = afterOrderId;
        int slot = startAfter(afterSlot, afterOrderId, account);
        boolean fromHead = slot == UNLINKED;
        while (n < limit) {
            if (fromHead) {
                final Heads list = heads.get(account);
                if (list == null) {
                    break;
                }
                slot = (int) HEAD.getAcquire(list);
                fromHead = false;
            }
            if (slot == NONE) {
                break;
            }
            final int c = slot >>> SHIFT;
            final int i = slot & MASK;
            if (slot < 0 || c >= maxChunks) {
                fromHead = true;     // cannot happen with whole reads; never index out of the arrays
                continue;
            }
            final int[] version = versions[c];
            final long[] id = ids[c];
            final String[] owner = accounts[c];
            final int[] links = next[c];
            if (version == null || id == null || owner == null || links == null) {
                fromHead = true;     // a chunk this thread cannot see yet: start over
                continue;
            }
            final int v = (int) INTS.getAcquire(version, i);
            if ((v & 1) != 0) {
                Thread.onSpinWait();
                continue;
            }
            final long orderId = id[i];
            final String holder = owner[i];
            final int following = links[i];
            VarHandle.loadLoadFence();
            if ((int) INTS.getOpaque(version, i) != v) {
                continue;
            }
            if (!account.equals(holder)) {
                fromHead = true;     // the slot was reused for another account's order
                continue;
            }
            if (orderId > last) {     // at or below: before the page, or returned before a restart
                if (n == out.length) {
                    out = Arrays.copyOf(out, Math.min(limit, Math.max(16, n * 2)));
                }
                out[n++] = orderId;
                last = orderId;
            }
            slot = following;
        }
        return n == out.length ? out : Arrays.copyOf(out, n);
    }

    /** @return the slot after {@code afterSlot} if it still holds that open order, else {@link #UNLINKED} */
    private int startAfter(final int afterSlot, final long afterOrderId, final String account) {
        if (afterSlot < 0 || (afterSlot >>> SHIFT) >= maxChunks) {
            return UNLINKED;
        }
        final int c = afterSlot >>> SHIFT;
        final int i = afterSlot & MASK;
        final int[] version = versions[c];
        final long[] id = ids[c];
        final String[] owner = accounts[c];
        final int[] links = next[c];
        final int[] back = prev[c];
        if (version == null || id == null || owner == null || links == null || back == null) {
            return UNLINKED;
        }
        final int v = (int) INTS.getAcquire(version, i);
        if ((v & 1) != 0) {
            return UNLINKED;
        }
        final long orderId = id[i];
        final String holder = owner[i];
        final int following = links[i];
        final int linked = back[i];
        VarHandle.loadLoadFence();
        if ((int) INTS.getOpaque(version, i) != v || orderId != afterOrderId || linked == UNLINKED
                || !account.equals(holder)) {
            return UNLINKED;
        }
        return following;
    }

    /** Calls {@code action} with each account that has open orders and its ids, ascending; writer only. */
    void forEach(final BiConsumer<String, long[]> action) {
        for (final Map.Entry<String, Heads> entry : heads.entrySet()) {
            final Heads list = entry.getValue();
            final long[] out = new long[list.count];
            int n = 0;
            for (int slot = (int) HEAD.getOpaque(list); slot != NONE; slot = next[slot >>> SHIFT][slot & MASK]) {
                out[n++] = ids[slot >>> SHIFT][slot & MASK];
            }
            action.accept(entry.getKey(), out);
        }
    }

    /** @return whether the account has any open order; writer only (any thread may ask, weakly) */
    boolean hasAccount(final String account) {
        return heads.containsKey(account);
    }

    /** @return how many accounts have open orders */
    int accounts() {
        return heads.size();
    }

    /**
     * Points the link after {@code before} (the head when it is NONE) at {@code forward}, and the link before
     * {@code after} (the tail when it is NONE) at {@code backward}: with the new slot to link it in, or with each other
     * to unlink what was between them.
     */
    private void join(final Heads list, final int before, final int after, final int forward, final int backward) {
        if (before == NONE) {
            HEAD.setRelease(list, forward);
        } else {
            setNext(before, forward);
        }
        if (after == NONE) {
            list.tail = backward;
        } else {
            setPrev(after, backward);
        }
    }

    private void setNext(final int slot, final int value) {
        final int c = slot >>> SHIFT;
        final int i = slot & MASK;
        begin(c, i);
        next[c][i] = value;
        end(c, i);
    }

    private void setPrev(final int slot, final int value) {
        prev[slot >>> SHIFT][slot & MASK] = value;   // readers never follow prev: no version needed
    }

    private void allocate(final int c) {
        if (c >= maxChunks) {
            throw new IllegalStateException("open order lists are full: chunk " + c);
        }
        if (versions[c] == null) {
            throw new IllegalStateException("slot " + (c << SHIFT) + " was linked before the view allocated it");
        }
        final int[] back = new int[CHUNK];
        Arrays.fill(back, UNLINKED);
        prev[c] = back;
        next[c] = new int[CHUNK];   // readers test both for null before use
    }

    private void begin(final int c, final int i) {
        SlotVersions.begin(versions[c], i);
    }

    private void end(final int c, final int i) {
        SlotVersions.end(versions[c], i);
    }
}
