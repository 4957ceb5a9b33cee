package io.orderentry.engine;

/**
 * Every account's balances: per account a row of {@code available} and {@code held} per asset, in units of the asset.
 * An account gets a row when it is first funded or paid (the fee account) and keeps it: balances outlive orders.
 * Rows are numbered in the order they were created, which is the order snapshots write them in.
 *
 * <p>Open addressing with linear probing over the accounts' strings (whose hash codes the JDK caches) into row
 * numbers; the balances themselves are two flat {@code long} arrays. Lookups and updates allocate nothing; the
 * arrays grow by doubling.
 *
 * <p>Not thread safe: used only by the matcher thread.
 */
final class BalanceTable {

    private final int assets;
    private String[] slotAccounts;
    private int[] slotRows;
    private int mask;
    private String[] rowAccounts;
    long[] available;
    long[] held;
    private int rows;

    BalanceTable(final int assets, final int initialRows) {
        this.assets = assets;
        final int capacity = Math.max(8, Integer.highestOneBit(Math.max(4, initialRows) * 4 - 1));
        allocateSlots(capacity);
        rowAccounts = new String[capacity / 2];
        available = new long[capacity / 2 * assets];
        held = new long[capacity / 2 * assets];
    }

    int rowCount() {
        return rows;
    }

    String account(final int row) {
        return rowAccounts[row];
    }

    /** @return the index into {@link #available} and {@link #held} of the account's row and asset */
    int cell(final int row, final int asset) {
        return row * assets + asset;
    }

    /** @return the account's row, or -1 when it has none (it holds nothing) */
    int find(final String accountId) {
        for (int i = slot(accountId); ; i = (i + 1) & mask) {
            final String account = slotAccounts[i];
            if (account == null) {
                return -1;
            }
            if (account == accountId || account.equals(accountId)) {
                return slotRows[i];
            }
        }
    }

    /** @return the account's row, created (all zero) if it had none */
    int findOrAdd(final String accountId) {
        int i = slot(accountId);
        for (String account = slotAccounts[i]; account != null; account = slotAccounts[i]) {
            if (account == accountId || account.equals(accountId)) {
                return slotRows[i];
            }
            i = (i + 1) & mask;
        }
        final int row = rows++;
        if (row == rowAccounts.length) {
            growRows(rowAccounts.length * 2);
        }
        rowAccounts[row] = accountId;
        slotAccounts[i] = accountId;
        slotRows[i] = row;
        if (rows * 2 > slotAccounts.length) {
            rehash(slotAccounts.length * 2);
        }
        return row;
    }

    private int slot(final String accountId) {
        final int h = accountId.hashCode() * 0x9E3779B9;
        return (h ^ (h >>> 16)) & mask;
    }

    private void growRows(final int capacity) {
        rowAccounts = java.util.Arrays.copyOf(rowAccounts, capacity);
        available = java.util.Arrays.copyOf(available, capacity * assets);
        held = java.util.Arrays.copyOf(held, capacity * assets);
    }

    private void rehash(final int capacity) {
        allocateSlots(capacity);
        for (int row = 0; row < rows; row++) {
            int i = slot(rowAccounts[row]);
            while (slotAccounts[i] != null) {
                i = (i + 1) & mask;
            }
            slotAccounts[i] = rowAccounts[row];
            slotRows[i] = row;
        }
    }

    private void allocateSlots(final int capacity) {
        slotAccounts = new String[capacity];
        slotRows = new int[capacity];
        mask = capacity - 1;
    }
}
