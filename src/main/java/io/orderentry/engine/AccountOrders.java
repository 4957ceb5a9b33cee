package io.orderentry.engine;

/**
 * Each account's open (resting) orders: how many, and the orders themselves in a list through their
 * {@link Order#accountPrev}/{@link Order#accountNext} links, in the order they first rested (which is ascending order
 * id: an order rests only when it is placed, and an amend leaves its place in this list alone). A cancel-all walks
 * that list instead of the whole book.
 *
 * <p>Only accounts with at least one open order are held, so the table is bounded by the number of resting orders.
 * Open addressing with linear probing over the accounts' strings (whose hash codes the JDK caches), backward-shift
 * deletion: lookups and updates allocate nothing. Grows by doubling when half full; never shrinks.
 *
 * <p>Not thread safe: used only by the matcher thread.
 */
final class AccountOrders {

    private String[] accounts;
    private int[] counts;
    private Order[] heads;
    private Order[] tails;
    private int mask;
    private int size;

    AccountOrders(final int initialCapacity) {
        allocate(Math.max(8, Integer.highestOneBit(Math.max(4, initialCapacity) * 4 - 1)));
    }

    /** @return how many accounts have at least one open order */
    int accountCount() {
        return size;
    }

    /** @return the account's open orders, 0 for an account the engine holds none for */
    int count(final String accountId) {
        final int i = find(accountId);
        return i < 0 ? 0 : counts[i];
    }

    /** @return the account's oldest open order, or null; the next is {@link Order#accountNext} */
    Order first(final String accountId) {
        final int i = find(accountId);
        return i < 0 ? null : heads[i];
    }

    /** Adds a resting order at the end of its account's list ({@link Order#accountId} must be set). */
    void add(final Order order) {
        final String accountId = order.accountId;
        int i = slot(accountId);
        for (String account = accounts[i]; account != null; account = accounts[i]) {
            if (account == accountId || account.equals(accountId)) {
                final Order tail = tails[i];
                order.accountPrev = tail;
                order.accountNext = null;
                tail.accountNext = order;
                tails[i] = order;
                counts[i]++;
                return;
            }
            i = (i + 1) & mask;
        }
        order.accountPrev = null;
        order.accountNext = null;
        accounts[i] = accountId;
        counts[i] = 1;
        heads[i] = order;
        tails[i] = order;
        if (++size * 2 > accounts.length) {
            rehash(accounts.length * 2);
        }
    }

    /**
     * Removes a resting order from its account's list, forgetting the account when it has none left.
     *
     * @throws IllegalStateException if the account has no open order (a bug in the caller)
     */
    void remove(final Order order) {
        final int i = find(order.accountId);
        if (i < 0) {
            throw new IllegalStateException("account has no open orders: " + order.accountId);
        }
        final Order prev = order.accountPrev;
        final Order next = order.accountNext;
        if (prev == null) {
            heads[i] = next;
        } else {
            prev.accountNext = next;
        }
        if (next == null) {
            tails[i] = prev;
        } else {
            next.accountPrev = prev;
        }
        order.accountPrev = null;
        order.accountNext = null;
        if (--counts[i] == 0) {
            deleteAt(i);
            size--;
        }
    }

    private int find(final String accountId) {
        for (int i = slot(accountId); ; i = (i + 1) & mask) {
            final String account = accounts[i];
            if (account == null) {
                return -1;
            }
            if (account == accountId || account.equals(accountId)) {
                return i;
            }
        }
    }

    /** Empties {@code slot} and closes the hole by shifting back later entries of the same probe run. */
    private void deleteAt(final int slot) {
        int hole = slot;
        for (int i = (slot + 1) & mask; accounts[i] != null; i = (i + 1) & mask) {
            final int home = slot(accounts[i]);
            if (((i - home) & mask) >= ((i - hole) & mask)) {
                accounts[hole] = accounts[i];
                counts[hole] = counts[i];
                heads[hole] = heads[i];
                tails[hole] = tails[i];
                hole = i;
            }
        }
        accounts[hole] = null;
        counts[hole] = 0;
        heads[hole] = null;
        tails[hole] = null;
    }

    private int slot(final String accountId) {
        final int h = accountId.hashCode() * 0x9E3779B9;
        return (h ^ (h >>> 16)) & mask;
    }

    private void rehash(final int capacity) {
        final String[] oldAccounts = accounts;
        final int[] oldCounts = counts;
        final Order[] oldHeads = heads;
        final Order[] oldTails = tails;
        allocate(capacity);
        for (int j = 0; j < oldAccounts.length; j++) {
            final String account = oldAccounts[j];
            if (account != null) {
                int i = slot(account);
                while (accounts[i] != null) {
                    i = (i + 1) & mask;
                }
                accounts[i] = account;
                counts[i] = oldCounts[j];
                heads[i] = oldHeads[j];
                tails[i] = oldTails[j];
            }
        }
    }

    private void allocate(final int capacity) {
        accounts = new String[capacity];
        counts = new int[capacity];
        heads = new Order[capacity];
        tails = new Order[capacity];
        mask = capacity - 1;
    }
}
