package io.orderentry.testing;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;

/**
 * One API key per account, for tests that run the jar with {@code ORDERS_AUTH=keys} as it ships: each key is made by
 * {@link ServiceProcess#createKey} (the jar's {@code keys create}, as an operator would) in the keys file the service
 * reads, and each account's requests go through a client that sends that account's key. {@link #NONE} stands for a
 * service with {@code ORDERS_AUTH=none}: every account's requests go through the one client, without a key.
 * Immutable; the clients it hands out are thread-safe.
 */
public final class AccountKeys {

    /** No keys: the service runs with {@code ORDERS_AUTH=none}, and requests name their accounts. */
    public static final AccountKeys NONE = new AccountKeys(null, Map.of());

    private final Path file;
    private final Map<String, String> secrets;

    private AccountKeys(final Path file, final Map<String, String> secrets) {
        this.file = file;
        this.secrets = secrets;
    }

    /**
     * Creates a {@code trade} key for each account in {@code keysFile} (created if missing), four {@code keys create}
     * processes at a time. Create them before the service starts, so that it reads them at once (and makes no demo
     * key); a running service picks them up within a second.
     */
    public static AccountKeys create(final Path keysFile, final Collection<String> accounts) {
        final ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            final List<Future<String>> made = new ArrayList<>();
            for (final String account : accounts) {
                made.add(pool.submit(() -> ServiceProcess.createKey(keysFile, account)));
            }
            final Map<String, String> secrets = new LinkedHashMap<>();
            int i = 0;
            for (final String account : accounts) {
                secrets.put(account, made.get(i++).get());
            }
            return new AccountKeys(keysFile, Map.copyOf(secrets));
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (final ExecutionException e) {
            throw new IllegalStateException("keys create failed", e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }

    /** @return the environment of a service that asks for these keys ({@code ORDERS_AUTH=none} for {@link #NONE}) */
    public Map<String, String> env() {
        return file == null ? Map.of("ORDERS_AUTH", "none")
                : Map.of("ORDERS_AUTH", "keys", "ORDERS_AUTH_KEYS_FILE", file.toAbsolutePath().toString());
    }

    /** @return {@code env} with this authentication added */
    public Map<String, String> env(final Map<String, String> env) {
        final Map<String, String> all = new java.util.HashMap<>(env);
        all.putAll(env());
        return all;
    }

    /** @return the accounts that have a key (none for {@link #NONE}) */
    public Set<String> accounts() {
        return secrets.keySet();
    }

    /** @return the secret of {@code account}'s key; fails for an account without one */
    public String secret(final String account) {
        final String secret = secrets.get(account);
        if (secret == null) {
            throw new IllegalArgumentException("no API key was made for account " + account);
        }
        return secret;
    }

    /**
     * @return for each account, a client of {@code api}'s service that sends the account's key, made once per account
     *         ({@code api} itself for every account with {@link #NONE})
     */
    public Function<String, ApiClient> clients(final ApiClient api) {
        if (file == null) {
            return account -> api;
        }
        final Map<String, ApiClient> byAccount = new ConcurrentHashMap<>();
        return account -> byAccount.computeIfAbsent(account, a -> api.withKey(secret(a)));
    }
}
