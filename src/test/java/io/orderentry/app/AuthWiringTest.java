package io.orderentry.app;

import io.orderentry.config.ConfigException;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.orderentry.auth.AuthConfig;
import io.orderentry.auth.KeysCommand;
import io.orderentry.auth.KeysFile;
import io.orderentry.auth.Permission;
import io.orderentry.auth.RateLimits;
import io.orderentry.ops.HealthComponent;
import io.orderentry.ops.MetricsText;
import io.orderentry.ops.ServiceStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@link AuthWiring} tells the operator at start: a keys file other users may read refused with the fix, and a
 * warning, in the log and in {@code /ready}'s {@code auth} part, when keys would cross the network in clear.
 */
class AuthWiringTest {

    private static final RateLimits.Limit LIMIT = new RateLimits.Limit(100, 200);

    @TempDir
    Path dir;

    private AuthConfig keys(final Path file, final Path tlsCert) {
        return new AuthConfig(true, file, false, LIMIT, LIMIT, LIMIT, tlsCert, tlsCert);
    }

    private Path keysFile() throws Exception {
        final Path file = dir.resolve("keys");
        KeysCommand.create(new KeysFile(file), "acct-1", Permission.TRADE);
        return file;
    }

    private static HealthComponent authPart(final ServiceStatus status) {
        return status.components().stream().filter(c -> c.name().equals("auth")).findFirst().orElseThrow();
    }

    @Test
    void aStartOnAKeysFileOthersMayReadIsRefusedNamingTheFileItsModeAndTheFix() throws Exception {
        final Path file = keysFile();
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        final ConfigException refused = assertThrows(ConfigException.class, () -> AuthWiring.open(keys(file, null),
                "127.0.0.1", new ServiceStatus(), new MetricsText()));
        assertEquals("the API keys file " + file + " may be read or written by other users than its owner (mode 0644,"
                + " rw-r--r--): anyone who may write it can add a key; make it its owner's only: chmod 600 " + file
                + " (ORDERS_AUTH_KEYS_FILE)", refused.getMessage());
    }

    @Test
    void keysWithoutTlsOnANonLoopbackAddressAreWarnedAboutInReady() throws Exception {
        final Path file = keysFile();
        final ServiceStatus status = new ServiceStatus();
        try (AuthWiring ignored = AuthWiring.open(keys(file, null), "0.0.0.0", status, new MetricsText())) {
            final HealthComponent auth = authPart(status);
            assertTrue(auth.up(), "a warning, not a failure");
            assertFalse(auth.required());
            assertEquals(false, auth.details().get("tls"));
            assertTrue(String.valueOf(auth.details().get("warning")).startsWith("API KEYS TRAVEL IN CLEAR TEXT: TLS is"
                    + " off (ORDERS_TLS_CERT and ORDERS_TLS_KEY are not set) and the service listens on 0.0.0.0"),
                    auth.details().toString());
        }
    }

    @Test
    void noClearTextWarningOnLoopbackOrWithTlsOrWithoutKeys() throws Exception {
        final Path file = keysFile();
        for (final String host : new String[] {"127.0.0.1", "localhost", "::1"}) {
            final ServiceStatus status = new ServiceStatus();
            try (AuthWiring ignored = AuthWiring.open(keys(file, null), host, status, new MetricsText())) {
                assertNull(authPart(status).details().get("warning"), host);
            }
        }
        assertNull(AuthWiring.clearTextWarning(keys(file, dir.resolve("cert.pem")), "0.0.0.0"), "TLS on");
        assertNull(AuthWiring.clearTextWarning(new AuthConfig(false, file, false, LIMIT, LIMIT, LIMIT, null, null),
                "0.0.0.0"), "ORDERS_AUTH=none is warned about on its own");
    }
}
