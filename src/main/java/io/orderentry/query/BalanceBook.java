package io.orderentry.query;

import io.orderentry.pipeline.EngineEvent;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every account's balances as the engine's BALANCE_CHANGED events left them, for {@code GET /api/v1/balances}: per
 * account, per asset, available and held in units of the asset, and the event sequence of its last change. Each event
 * carries the balance after it, so the book is the last event of each account and asset; it is restored from the
 * engine's balances with a snapshot ({@link #restore}).
 *
 * <p>Threads: {@link #changed} and {@link #restore} on the order view's writer thread; {@link #read} from any thread
 * (an event loop). One monitor per account: a reader sees all of an account's assets as of one event.
 */
public final class BalanceBook {

    /** One account's balances, by asset index, grown to the highest asset it has had; guarded by its own monitor. */
    private static final class Account {
        long[] available = new long[INITIAL_ASSETS];
        long[] held = new long[INITIAL_ASSETS];
        long sequence;

        void set(final int asset, final long newAvailable, final long newHeld) {
            if (asset >= available.length) {
                final int length = Math.max(asset + 1, available.length * 2);
                available = java.util.Arrays.copyOf(available, length);
                held = java.util.Arrays.copyOf(held, length);
            }
            available[asset] = newAvailable;
            held[asset] = newHeld;
        }
    }

    private static final int INITIAL_ASSETS = 4;

    /**
     * What {@link #read} answers: per asset index (up to the highest the account has had), available and held; and the
     * sequence of the account's last change.
     */
    public record Balances(long[] available, long[] held, long sequence) {
    }

    private final ConcurrentHashMap<String, Account> accounts = new ConcurrentHashMap<>();

    /** Applies one BALANCE_CHANGED event. */
    void changed(final EngineEvent event) {
        final Account account = accounts.computeIfAbsent(event.accountId, a -> new Account());
        synchronized (account) {
            account.set(event.asset, event.available, event.held);
            account.sequence = event.eventSequence;
        }
    }

    /**
     * Sets one account's balance of one asset, as a restored engine holds it (a snapshot's state, before the replay
     * after it); the writer's thread, before any event.
     */
    public void restore(final String accountId, final int asset, final long available, final long held,
                        final long sequence) {
        final Account account = accounts.computeIfAbsent(accountId, a -> new Account());
        synchronized (account) {
            account.set(asset, available, held);
            account.sequence = Math.max(account.sequence, sequence);
        }
    }

    /** @return the account's balances, or null for an account that never had any */
    public Balances read(final String accountId) {
        final Account account = accounts.get(accountId);
        if (account == null) {
            return null;
        }
        synchronized (account) {
            return new Balances(account.available.clone(), account.held.clone(), account.sequence);
        }
    }
}
