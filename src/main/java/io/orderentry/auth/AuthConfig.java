package io.orderentry.auth;

import java.nio.file.Path;

/**
 * Authentication, rate limits and TLS, validated by the configuration loader.
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
}
