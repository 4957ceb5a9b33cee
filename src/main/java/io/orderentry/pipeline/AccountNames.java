package io.orderentry.pipeline;

/**
 * Hands the matcher one String instance per account, so that the state an order leaves in the engine and the order
 * view (its resting node, its dedup entry, its view slot) refers to the account's String rather than a copy born
 * with the request: with API keys the edge already passes the key's own String, but commands read back from the
 * journal, from the cluster log or sent with authentication off carry a new String each (issue 33).
 *
 * <p>A direct-mapped cache of {@value #SLOTS} entries by hash: a bounded table that no number of accounts can grow,
 * at the price that two busy accounts sharing a slot take turns in it (their orders then hold one of a few equal
 * Strings, which every comparison in the engine and the view treats alike: they compare with {@code equals}).
 *
 * <p>Not thread safe: owned by the thread that runs the matcher.
 */
final class AccountNames {

    static final int SLOTS = 1 << 14;

    private final String[] names = new String[SLOTS];

    /** @return the cached String equal to {@code account}, caching {@code account} when there is none; null for null */
    String canonical(final String account) {
        if (account == null) {
            return null;
        }
        final int h = account.hashCode() * 0x9E3779B9;
        final int slot = (h ^ (h >>> 16)) & (SLOTS - 1);
        final String cached = names[slot];
        if (cached != null && (cached == account || cached.equals(account))) {
            return cached;
        }
        names[slot] = account;
        return account;
    }
}
