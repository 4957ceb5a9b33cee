package io.orderentry.auth;

import io.orderentry.config.ConfigException;
import io.orderentry.config.ConfigReader;
import io.orderentry.config.SettingNames;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Authentication, rate limits and TLS, read from the settings and checked by {@link #from}.
 *
 * @param enabled      false only with {@code ORDERS_AUTH=none}: no key is asked for, {@code accountId} is required as
 *                     before, and the log and {@code /ready} say so
 * @param keysFile     where the keys are ({@link KeysFile})
 * @param adminOnlyOps whether {@code /metrics} and the detailed body of {@code /ready} need an {@code admin} key
 * @param requests     every request of a key
 * @param orders       the order commands (place, amend, cancel) of a key
 * @param address      requests without a valid key, per remote address
 * @param tlsCert      PEM certificate chain for HTTPS and WSS, or null for plain HTTP
 * @param tlsKey       PEM private key of {@code tlsCert}, or null
 */
public record AuthConfig(boolean enabled, Path keysFile, boolean adminOnlyOps, RateLimits.Limit requests,
                         RateLimits.Limit orders, RateLimits.Limit address, Path tlsCert, Path tlsKey) {

    /** @return whether the server speaks TLS */
    public boolean tls() {
        return tlsCert != null;
    }

    /** @return the budgets this configuration sets */
    public RateLimits rateLimits() {
        return new RateLimits(requests, orders, address);
    }

    /**
     * @return the settings of {@code auth}, {@code auth.ops}, {@code auth.keys.file} (default: {@code keys} beside the
     *     journal's directory), the rate limits and TLS, whose files must be readable
     */
    public static AuthConfig from(final ConfigReader settings) {
        final String mode = settings.lowerCase("auth");
        if (!mode.equals("keys") && !mode.equals("none")) {
            throw new ConfigException(SettingNames.envName("auth") + " must be 'keys' or 'none', was '"
                    + settings.string("auth") + "'");
        }
        final String ops = settings.lowerCase("auth.ops");
        if (!ops.equals("open") && !ops.equals("admin")) {
            throw new ConfigException(SettingNames.envName("auth.ops") + " must be 'open' or 'admin', was '"
                    + settings.string("auth.ops") + "'");
        }
        final String cert = settings.string("tls.cert");
        final String key = settings.string("tls.key");
        if (cert.isEmpty() != key.isEmpty()) {
            throw new ConfigException(SettingNames.envName("tls.cert") + " and " + SettingNames.envName("tls.key")
                    + " must be set together (PEM certificate chain and its private key) or both left empty");
        }
        for (final String file : List.of(cert, key)) {
            if (!file.isEmpty() && !Files.isReadable(Path.of(file))) {
                throw new ConfigException("the TLS file " + file + " cannot be read");
            }
        }
        return new AuthConfig(mode.equals("keys"), settings.directoryOr("auth.keys.file", "journal.dir", "keys"),
                ops.equals("admin"),
                limit(settings, "rate.limit.requests.per.second", "rate.limit.requests.burst"),
                limit(settings, "rate.limit.orders.per.second", "rate.limit.orders.burst"),
                limit(settings, "rate.limit.address.per.second", "rate.limit.address.burst"),
                cert.isEmpty() ? null : Path.of(cert), key.isEmpty() ? null : Path.of(key));
    }

    private static RateLimits.Limit limit(final ConfigReader settings, final String rateKey, final String burstKey) {
        return new RateLimits.Limit(settings.intValue(rateKey, 0, 10_000_000),
                settings.intValue(burstKey, 1, 100_000_000));
    }
}
