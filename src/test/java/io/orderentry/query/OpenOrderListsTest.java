package io.orderentry.query;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The per-account open lists replace sorted sets: they must list exactly what a sorted set would, page from any
 * id, and give a reader on another thread, while slots are unlinked and reused for other accounts, only ascending
 * ids of that account, never missing an order that stays open throughout.
 */
class OpenOrderListsTest {

    private static final String[] ACCOUNTS = {"a", "b", "c", "d"};

    @Test
    void shouldListEveryAccountsOpenOrdersInIdOrderAsASortedSetWould() {
        final Random random = new Random(5);
        final ViewSlots lists = new ViewSlots(16);
        final Map<String, TreeSet<Long>> reference = new HashMap<>();
        final TreeMap<Integer, Long> slotIds = new TreeMap<>();
        final Map<Integer, String> slotAccounts = new HashMap<>();
        final List<Integer> freeSlots = new ArrayList<>();
        int slotsUsed = 0;
        long nextId = 1;
        for (int step = 0; step < 50_000; step++) {
            if (slotIds.isEmpty() || random.nextInt(100) < 55) {
                final int slot = freeSlots.isEmpty() ? slotsUsed++ : freeSlots.remove(freeSlots.size() - 1);
                final long id = nextId++;
                final String account = ACCOUNTS[random.nextInt(ACCOUNTS.length)];
                lists.open(slot, id, account);
                lists.open(slot, id, account);      // a second open of the same order changes nothing
                slotIds.put(slot, id);
                slotAccounts.put(slot, account);
                reference.computeIfAbsent(account, a -> new TreeSet<>()).add(id);
            } else {
                final Integer[] slots = slotIds.keySet().toArray(new Integer[0]);
                final int slot = slots[random.nextInt(slots.length)];
                lists.close(slot);
                lists.close(slot);                  // closing twice changes nothing
                reference.get(slotAccounts.get(slot)).remove(slotIds.remove(slot));
                lists.forget(slot);
                freeSlots.add(slot);
            }
            if (step % 997 == 0) {
                for (final String account : ACCOUNTS) {
                    final long[] expected = reference.getOrDefault(account, new TreeSet<>()).stream()
                            .mapToLong(Long::longValue).toArray();
                    assertArrayEquals(expected, lists.read(account, 0, OpenOrderLists.NONE, Integer.MAX_VALUE));
                    assertArrayEquals(expected, pageThrough(lists, account, slotIds, 7), "paged " + account);
                    final long after = expected.length == 0 ? 5 : expected[expected.length / 2] - 1;
                    final long[] tail = reference.getOrDefault(account, new TreeSet<>()).tailSet(after, false).stream()
                            .mapToLong(Long::longValue).limit(3).toArray();
                    assertArrayEquals(tail, lists.read(account, after, OpenOrderLists.NONE, 3),
                            "after an id that is not open");
                }
            }
        }
        final Map<String, long[]> written = new HashMap<>();
        lists.forEach(written::put);
        for (final String account : ACCOUNTS) {
            final TreeSet<Long> open = reference.getOrDefault(account, new TreeSet<>());
            if (open.isEmpty()) {
                assertFalse(written.containsKey(account));
            } else {
                assertArrayEquals(open.stream().mapToLong(Long::longValue).toArray(), written.get(account));
            }
        }
    }

    @Test
    void shouldKeepIdOrderWhenAnOrderOpensAfterANewerOne() {
        final ViewSlots lists = new ViewSlots(1);
        lists.open(0, 10, "a");
        lists.open(1, 30, "a");
        lists.open(2, 20, "a");
        lists.open(3, 5, "a");
        assertArrayEquals(new long[] {5, 10, 20, 30}, lists.read("a", 0, OpenOrderLists.NONE, 100));
        lists.close(1);
        lists.close(3);
        assertArrayEquals(new long[] {10, 20}, lists.read("a", 0, OpenOrderLists.NONE, 100));
        assertArrayEquals(new long[] {20}, lists.read("a", 10, 0, 100));
        lists.close(0);
        lists.close(2);
        assertEquals(0, lists.accounts());
        assertArrayEquals(new long[0], lists.read("a", 0, OpenOrderLists.NONE, 100));
    }

    /**
     * Account "a" keeps a fixed set of orders open the whole time while the writer opens, closes and reuses other
     * slots for every account; readers must always see all of them, in ascending order, and nothing of another
     * account.
     */
    @Test
    void shouldNeverShowAReaderAnotherAccountsOrderNorMissOneThatStaysOpen() throws Exception {
        final ViewSlots lists = new ViewSlots(4);
        final long[] stay = new long[50];
        final TreeMap<Long, String> owners = new TreeMap<>();
        long nextId = 1;
        int slotsUsed = 0;
        final Random random = new Random(9);
        final List<Integer> churn = new ArrayList<>();
        for (int k = 0; k < stay.length; k++) {
            // the staying orders interleave with others that come and go
            for (int j = 0; j < 3; j++) {
                final long id = nextId++;
                final String account = ACCOUNTS[random.nextInt(ACCOUNTS.length)];
                owners.put(id, account);
                lists.open(slotsUsed, id, account);
                churn.add(slotsUsed++);
            }
            stay[k] = nextId++;
            owners.put(stay[k], "a");
            lists.open(slotsUsed++, stay[k], "a");
        }
        final AtomicBoolean done = new AtomicBoolean();
        final AtomicReference<String> broken = new AtomicReference<>();
        final AtomicLong reads = new AtomicLong();
        final Map<Long, String> ownersSeen = new java.util.concurrent.ConcurrentHashMap<>(owners);
        final List<Thread> readers = new ArrayList<>();
        for (int r = 0; r < 2; r++) {
            final int pageSize = r == 0 ? Integer.MAX_VALUE : 9;
            final Thread reader = new Thread(() -> {
                while (!done.get() && broken.get() == null) {
                    final List<Long> seen = new ArrayList<>();
                    long after = 0;
                    while (true) {
                        final long[] page = lists.read("a", after, OpenOrderLists.NONE, pageSize);
                        for (final long id : page) {
                            seen.add(id);
                        }
                        if (page.length < pageSize) {
                            break;
                        }
                        after = page[page.length - 1];
                    }
                    reads.incrementAndGet();
                    for (int k = 1; k < seen.size(); k++) {
                        if (seen.get(k) <= seen.get(k - 1)) {
                            broken.compareAndSet(null, "not ascending: " + seen);
                        }
                    }
                    for (final long id : seen) {
                        if (!"a".equals(ownersSeen.get(id))) {
                            broken.compareAndSet(null, "order " + id + " of " + ownersSeen.get(id) + " listed for a");
                        }
                    }
                    for (final long id : stay) {
                        if (!seen.contains(id)) {
                            broken.compareAndSet(null, "order " + id + " stayed open but was missed: " + seen);
                        }
                    }
                }
            }, "open-list-reader-" + r);
            reader.start();
            readers.add(reader);
        }
        for (int step = 0; step < 400_000 && broken.get() == null; step++) {
            final int slot = churn.get(random.nextInt(churn.size()));
            lists.close(slot);
            lists.forget(slot);
            final long id = nextId++;
            final String account = ACCOUNTS[random.nextInt(ACCOUNTS.length)];
            ownersSeen.put(id, account);     // before the list can show it
            lists.open(slot, id, account);
        }
        done.set(true);
        for (final Thread reader : readers) {
            reader.join(60_000);
        }
        assertNull(broken.get(), broken.get());
        assertTrue(reads.get() > 10, "the readers must have read: " + reads.get());
    }

    private static long[] pageThrough(final ViewSlots lists, final String account,
                                      final TreeMap<Integer, Long> slotIds, final int pageSize) {
        final List<Long> all = new ArrayList<>();
        long after = 0;
        int afterSlot = OpenOrderLists.NONE;
        while (true) {
            final long[] page = lists.read(account, after, afterSlot, pageSize);
            for (final long id : page) {
                all.add(id);
            }
            if (page.length < pageSize) {
                break;
            }
            after = page[page.length - 1];
            afterSlot = OpenOrderLists.NONE;
            for (final Map.Entry<Integer, Long> entry : slotIds.entrySet()) {
                if (entry.getValue() == after) {
                    afterSlot = entry.getKey();
                }
            }
        }
        return all.stream().mapToLong(Long::longValue).toArray();
    }

    /**
     * The slot storage the order view gives the lists, kept as the view keeps it: an order's id and account are put in
     * its slot (under the slot's version) before the slot is linked, and cleared when the view forgets the order and
     * reuses the slot. Calls go through to the lists under test.
     */
    private static final class ViewSlots {
        private final int[][] versions;
        private final long[][] ids;
        private final String[][] accounts;
        private final OpenOrderLists lists;

        ViewSlots(final int chunks) {
            versions = new int[chunks][];
            ids = new long[chunks][];
            accounts = new String[chunks][];
            lists = new OpenOrderLists(versions, ids, accounts);
        }

        /** The view accepting order {@code id} into {@code slot} and the order resting: links it. */
        void open(final int slot, final long id, final String account) {
            final int c = slot >>> SlotVersions.SHIFT;
            final int i = slot & SlotVersions.MASK;
            if (versions[c] == null) {
                ids[c] = new long[SlotVersions.CHUNK];
                accounts[c] = new String[SlotVersions.CHUNK];
                versions[c] = new int[SlotVersions.CHUNK];
            }
            if (ids[c][i] != id) {
                SlotVersions.begin(versions[c], i);
                ids[c][i] = id;
                accounts[c][i] = account;
                SlotVersions.end(versions[c], i);
            }
            lists.open(slot, id, account);
        }

        /** The order becoming final: unlinks it; the view forgets it later, and then the slot can be reused. */
        void close(final int slot) {
            lists.close(slot);
        }

        /** The view forgetting the final order in {@code slot}, so that the slot can take another order. */
        void forget(final int slot) {
            final int c = slot >>> SlotVersions.SHIFT;
            final int i = slot & SlotVersions.MASK;
            SlotVersions.begin(versions[c], i);
            ids[c][i] = 0;
            accounts[c][i] = null;
            SlotVersions.end(versions[c], i);
        }

        long[] read(final String account, final long after, final int afterSlot, final int limit) {
            return lists.read(account, after, afterSlot, limit);
        }

        void forEach(final java.util.function.BiConsumer<String, long[]> action) {
            lists.forEach(action);
        }

        int accounts() {
            return lists.accounts();
        }
    }
}
