package io.orderentry.app;

import io.orderentry.auth.AuthConfig;
import io.orderentry.auth.KeyRing;
import io.orderentry.auth.KeysCommand;
import io.orderentry.auth.KeysFile;
import io.orderentry.auth.Permission;
import io.orderentry.http.AccessControl;
import io.orderentry.http.MetricsText;
import java.io.IOException;
import java.nio.file.Files;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts authentication into the service: loads the keys file (on a first start without one, creates it with a key for
 * account {@code demo} and logs that key's secret once), reloads it once a second on a thread of its own, drops idle
 * rate-limit buckets once a minute, and registers the figures in {@code /metrics}. With {@code ORDERS_AUTH=none} it
 * warns loudly and does nothing else.
 *
 * <p>Threads: {@link #open} and {@link #close} on the service's main thread; the reload on {@code oe-keys}.
 */
final class AuthWiring implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(AuthWiring.class);
    /** The account of the key made on a first start, so that the README's curl example works at once. */
    static final String DEMO_ACCOUNT = "demo";

    private final AccessControl access;
    private final ScheduledExecutorService reloads;

    private AuthWiring(final AccessControl access, final ScheduledExecutorService reloads) {
        this.access = access;
        this.reloads = reloads;
    }

    /** @throws ConfigException when the keys file exists but cannot be read, or cannot be created */
    static AuthWiring open(final AuthConfig config, final MetricsText metrics) {
        if (!config.enabled()) {
            LOG.warn("auth: AUTHENTICATION IS OFF (ORDERS_AUTH=none): anyone who can reach this port may place, cancel"
                    + " and read orders of any account. Use it only on a closed network; /ready says so too.");
            final AccessControl access = new AccessControl(config, null);
            register(access, metrics);
            return new AuthWiring(access, null);
        }
        final KeysFile file = new KeysFile(config.keysFile());
        final KeyRing ring;
        try {
            if (!Files.exists(config.keysFile())) {
                final String secret = KeysCommand.create(file, DEMO_ACCOUNT, Permission.TRADE);
                LOG.warn("auth: no keys file at {}: created it with one API key for account '{}'. Its secret, shown"
                        + " only this once:\n\n    {}\n\n    curl -H 'Authorization: Bearer {}' ...\n\nMore keys:"
                        + " java -jar order-entry.jar keys create --account ACCOUNT [--read-only | --admin];"
                        + " list: keys list; revoke: keys revoke KEY_ID (README, \"Accounts and API keys\").",
                        config.keysFile().toAbsolutePath().normalize(), DEMO_ACCOUNT, secret, secret);
            }
            ring = new KeyRing(file);
        } catch (final IOException e) {
            throw new ConfigException("the API keys file " + config.keysFile() + " cannot be read or created: "
                    + e.getMessage());
        }
        LOG.info("auth: API keys from {}: {} valid; limits per key {}/s (burst {}) requests, {}/s (burst {}) orders;"
                + " {}/s (burst {}) per address without a key; /metrics and /ready details {}",
                config.keysFile().toAbsolutePath().normalize(), ring.activeKeys(), (long) config.requests().perSecond(),
                config.requests().burst(), (long) config.orders().perSecond(), config.orders().burst(),
                (long) config.address().perSecond(), config.address().burst(),
                config.adminOnlyOps() ? "need an admin key" : "are open (ORDERS_AUTH_OPS=open)");
        final AccessControl access = new AccessControl(config, ring);
        register(access, metrics);
        final ScheduledExecutorService reloads = Executors.newSingleThreadScheduledExecutor(runnable -> {
            final Thread thread = new Thread(runnable, "oe-keys");
            thread.setDaemon(true);
            return thread;
        });
        reloads.scheduleWithFixedDelay(ring::reload, 1, 1, TimeUnit.SECONDS);
        reloads.scheduleWithFixedDelay(() -> access.limits().sweep(System.nanoTime()), 60, 60, TimeUnit.SECONDS);
        return new AuthWiring(access, reloads);
    }

    AccessControl access() {
        return access;
    }

    private static void register(final AccessControl access, final MetricsText metrics) {
        metrics.gauge("orders_auth_enabled", "1 while order endpoints need an API key, 0 with ORDERS_AUTH=none",
                () -> access.enabled() ? 1 : 0);
        final String failures = "Requests refused for their API key since start, by error code";
        metrics.counter("orders_auth_failures_total", failures, "code=\"UNAUTHENTICATED\"", access::unauthenticated);
        metrics.counter("orders_auth_failures_total", failures, "code=\"INVALID_API_KEY\"", access::invalidKeys);
        metrics.counter("orders_auth_failures_total", failures, "code=\"PERMISSION_DENIED\"", access::permissionDenied);
        metrics.counter("orders_auth_failures_total", failures, "code=\"ACCOUNT_MISMATCH\"", access::accountMismatches);
        final String limited = "Requests answered 429 RATE_LIMITED since start, by the budget that ran out";
        metrics.counter("orders_rate_limited_total", limited, "budget=\"requests\"", access::limitedRequests);
        metrics.counter("orders_rate_limited_total", limited, "budget=\"orders\"", access::limitedOrders);
        metrics.counter("orders_rate_limited_total", limited, "budget=\"address\"", access::limitedAddresses);
        if (access.keys() != null) {
            metrics.gauge("orders_auth_keys_active", "API keys that authenticate now", access.keys()::activeKeys);
            metrics.counter("orders_auth_key_reloads_total", "Times the keys file was read again after a change",
                    access.keys()::reloads);
            metrics.counter("orders_auth_key_reload_failures_total", "Times a changed keys file could not be read (the"
                    + " keys stayed as they were)", access.keys()::reloadFailures);
        }
    }

    @Override
    public void close() {
        if (reloads != null) {
            reloads.shutdownNow();
        }
    }
}
