package io.orderentry.engine;

/**
 * How many open (resting) orders each account has. Only accounts with at least one open order are
 * held, so the table is bounded by the number of resting orders. Open addressing with linear probing
 * over the accounts' strings (whose hash codes the JDK caches), backward-shift deletion: lookups and
 * updates allocate nothing. Grows by doubling when half full; never shrinks.
 *
 * <p>Not thread safe: used only by the matcher thread.
 */
final class AccountOrderCounts {

    private String[] accounts;
    private int[] counts;
    private int mask;
    private int size;

    AccountOrderCounts(final int initialCapacity) {
        allocate(Math.max(8, Integer.highestOneBit(Math.max(4, initialCapacity) * 4 - 1)));
    }

    /** @return how many accounts have at least one open order */
    int accountCount() {
        return size;
    }

    /** @return the account's open orders, 0 for an account the engine holds none for */
    int get(final String accountId) {
        for (int i = slot(accountId); ; i = (i + 1) & mask) {
            final String account = accounts[i];
            if (account == null) {
                return 0;
            }
            if (account == accountId || account.equals(accountId)) {
                return counts[i];
            }
        }
    }

    /** Counts one more open order for the account. */
    void increment(final String accountId) {
        int i = slot(accountId);
        for (String account = accounts[i]; account != null; account = accounts[i]) {
            if (account == accountId || account.equals(accountId)) {
                counts[i]++;
                return;
            }
            i = (i + 1) & mask;
        }
        accounts[i] = accountId;
        counts[i] = 1;
        if (++size * 2 > accounts.length) {
            rehash(accounts.length * 2);
        }
    }

    /**
     * Counts one open order less for the account, forgetting the account when it reaches 0.
     *
     * @throws IllegalStateException if the account has no open order (a bug in the caller)
     */
    void decrement(final String accountId) {
        for (int i = slot(accountId); ; i = (i + 1) & mask) {
            final String account = accounts[i];
            if (account == null) {
                throw new IllegalStateException("account has no open orders: " + accountId);
            }
            if (account == accountId || account.equals(accountId)) {
                if (--counts[i] == 0) {
                    deleteAt(i);
                    size--;
                }
                return;
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
                hole = i;
            }
        }
        accounts[hole] = null;
        counts[hole] = 0;
    }

    private int slot(final String accountId) {
        final int h = accountId.hashCode() * 0x9E3779B9;
        return (h ^ (h >>> 16)) & mask;
    }

    private void rehash(final int capacity) {
        final String[] oldAccounts = accounts;
        final int[] oldCounts = counts;
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
            }
        }
    }

    private void allocate(final int capacity) {
        accounts = new String[capacity];
        counts = new int[capacity];
        mask = capacity - 1;
    }
}
