package io.orderentry.app;

import io.orderentry.auth.AuthConfig;
import io.orderentry.auth.DemoKey;
import io.orderentry.auth.KeyRing;
import io.orderentry.auth.KeysFile;
import io.orderentry.config.ConfigException;
import io.orderentry.http.AccessControl;
import io.orderentry.ops.HealthComponent;
import io.orderentry.ops.MetricsText;
import io.orderentry.ops.ServiceStatus;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts authentication into the service: loads the keys file (on a first start without one, creates it with a key for
 * account {@code demo} whose secret goes to a file only the owner may read, {@link DemoKey}; the log names the file,
 * never the secret), reloads it once a second on a thread of its own, drops idle rate-limit buckets once a minute,
 * registers the figures in {@code /metrics} and an {@code auth} part in {@code /ready}. It warns, in the log at start
 * and in that part, when keys would cross the network in clear: keys on, TLS off and a listen address that is not
 * loopback. With {@code ORDERS_AUTH=none} it warns loudly and keeps only the per-address budget of requests without a
 * key.
 *
 * <p>Threads: {@link #open} and {@link #close} on the service's main thread; the reload and the sweep on
 * {@code oe-keys}.
 */
final class AuthWiring implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(AuthWiring.class);

    private final AccessControl access;
    private final ScheduledExecutorService reloads;

    private AuthWiring(final AccessControl access, final ScheduledExecutorService reloads) {
        this.access = access;
        this.reloads = reloads;
    }

    /**
     * @param host   the address the HTTP server listens on ({@code ORDERS_HTTP_HOST})
     * @param status where the {@code auth} part of {@code /ready} goes
     * @throws ConfigException when the keys file exists but cannot be read or may be read or written by other users
     *                         than its owner, or cannot be created
     */
    static AuthWiring open(final AuthConfig config, final String host, final ServiceStatus status,
                           final MetricsText metrics) {
        if (!config.enabled()) {
            LOG.warn("auth: AUTHENTICATION IS OFF (ORDERS_AUTH=none): anyone who can reach this port may place, cancel"
                    + " and read orders of any account. Use it only on a closed network; /ready says so too. Requests"
                    + " that need no key are still limited per address ({}/s, burst {}).",
                    (long) config.address().perSecond(), config.address().burst());
            final AccessControl access = new AccessControl(config, null);
            register(access, metrics);
            return new AuthWiring(access, sweeper(access, null));
        }
        final KeysFile file = new KeysFile(config.keysFile());
        final KeyRing ring;
        try {
            if (!Files.exists(config.keysFile())) {
                final Path secretFile = DemoKey.create(file);
                LOG.warn("auth: no keys file at {}: created it with one API key for account '{}'. Its secret is in {},"
                        + " which only this user may read (it is not logged): export KEY=$(cat {}) and send"
                        + " 'Authorization: Bearer $KEY'. Delete that file once the secret is kept elsewhere, or revoke"
                        + " the key. More keys: java -jar order-entry.jar keys create --account ACCOUNT [--read-only |"
                        + " --admin]; list: keys list; revoke: keys revoke KEY_ID (README, \"Accounts and API keys\").",
                        config.keysFile().toAbsolutePath().normalize(), DemoKey.ACCOUNT, secretFile, secretFile);
            }
            ring = new KeyRing(file);
        } catch (final KeysFile.NotPrivateException e) {
            throw new ConfigException(e.getMessage() + " (ORDERS_AUTH_KEYS_FILE)");
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
        final String clearText = clearTextWarning(config, host);
        if (clearText != null) {
            LOG.warn("auth: {}", clearText);
        }
        final AccessControl access = new AccessControl(config, ring);
        register(access, metrics);
        status.addComponent(() -> readiness(config, ring, clearText));
        final ScheduledExecutorService reloads = sweeper(access, ring);
        return new AuthWiring(access, reloads);
    }

    /**
     * @return the warning that API keys cross the network in clear (keys on, TLS off, a listen address that is not
     *         loopback), or null when they do not
     */
    static String clearTextWarning(final AuthConfig config, final String host) {
        if (!config.enabled() || config.tls() || loopback(host)) {
            return null;
        }
        return "API KEYS TRAVEL IN CLEAR TEXT: TLS is off (ORDERS_TLS_CERT and ORDERS_TLS_KEY are not set) and the"
                + " service listens on " + host + ", not only on loopback, so anyone on the network path can read a"
                + " secret and trade with it. Set ORDERS_TLS_CERT and ORDERS_TLS_KEY, or listen on 127.0.0.1"
                + " (ORDERS_HTTP_HOST) behind a proxy that speaks TLS; /ready says so too.";
    }

    /** @return whether {@code host} names only this machine (a name is resolved: at start, on the main thread) */
    private static boolean loopback(final String host) {
        try {
            for (final InetAddress address : InetAddress.getAllByName(host)) {
                if (!address.isLoopbackAddress()) {
                    return false;
                }
            }
            return true;
        } catch (final UnknownHostException e) {
            return false;
        }
    }

    /** The {@code auth} part of {@code /ready}: informational, always UP; called on an event loop. */
    private static HealthComponent readiness(final AuthConfig config, final KeyRing ring, final String clearText) {
        final Map<String, Object> details = new LinkedHashMap<>();
        details.put("tls", config.tls());
        details.put("activeKeys", ring.activeKeys());
        if (clearText != null) {
            details.put("warning", clearText);
        }
        return HealthComponent.informational("auth", true, details);
    }

    /**
     * The {@code oe-keys} thread: the keys file's reload once a second (when {@code ring} is not null) and the sweep of
     * the rate-limit buckets that are full again once a minute, which bounds the per-address buckets a scan from many
     * addresses leaves, with authentication on or off.
     */
    private static ScheduledExecutorService sweeper(final AccessControl access, final KeyRing ring) {
        final ScheduledExecutorService reloads = Executors.newSingleThreadScheduledExecutor(runnable -> {
            final Thread thread = new Thread(runnable, "oe-keys");
            thread.setDaemon(true);
            return thread;
        });
        if (ring != null) {
            reloads.scheduleWithFixedDelay(ring::reload, 1, 1, TimeUnit.SECONDS);
        }
        reloads.scheduleWithFixedDelay(() -> access.limits().sweep(System.nanoTime()), 60, 60, TimeUnit.SECONDS);
        return reloads;
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
            metrics.counter("orders_auth_key_reload_failures_total", "Times a changed keys file could not be read, or"
                    + " could be read or written by other users than its owner (the keys stayed as they were)",
                    access.keys()::reloadFailures);
        }
    }

    @Override
    public void close() {
        if (reloads != null) {
            reloads.shutdownNow();
        }
    }
}
