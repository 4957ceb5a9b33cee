package io.orderentry.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.orderentry.auth.ApiKey;
import io.orderentry.auth.AuthConfig;
import io.orderentry.auth.KeyRing;
import io.orderentry.auth.KeysCommand;
import io.orderentry.auth.KeysFile;
import io.orderentry.auth.Permission;
import io.orderentry.auth.RateLimits;
import io.orderentry.auth.Secrets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link AccessControl.Gate#authenticate}: a remembered header answers exactly what checking it in full would. */
class AccessControlGateTest {

    private static final RateLimits.Limit OFF = new RateLimits.Limit(0, 1);

    @TempDir
    Path dir;

    private static AccessControl.Gate gate(final KeyRing ring) {
        return new AccessControl(new AuthConfig(true, Path.of("keys"), false, OFF, OFF, OFF, null, null), ring).gate();
    }

    @Test
    void aKeySentAgainIsAdmittedWithItsKey() throws Exception {
        final KeysFile file = new KeysFile(dir.resolve("keys"));
        final String secret = KeysCommand.create(file, "acct-1", Permission.TRADE);
        final AccessControl.Gate gate = gate(new KeyRing(file));
        final ApiKey first = gate.authenticate("Bearer " + secret);
        assertEquals("acct-1", first.account());
        assertSame(first, gate.authenticate(new String("Bearer " + secret)), "the remembered key");
        assertEquals("acct-1", gate.authenticate("bearer  " + secret + " ").account(), "the header's other shapes too");
    }

    @Test
    void aRevokedKeyIsRefusedFromTheReloadThatRevokesItThoughItsHeaderWasRemembered() throws Exception {
        final KeysFile file = new KeysFile(dir.resolve("keys"));
        final String secret = KeysCommand.create(file, "acct-1", Permission.TRADE);
        final KeyRing ring = new KeyRing(file);
        final AccessControl.Gate gate = gate(ring);
        final String header = "Bearer " + secret;
        assertEquals("acct-1", gate.authenticate(header).account());
        assertEquals("acct-1", gate.authenticate(header).account());
        file.update(keys -> {
            final String keyId = Secrets.keyIdOf(secret);
            keys.put(keyId, keys.get(keyId).revokedAt(Instant.now()));
            return keys;
        });
        assertEquals("acct-1", gate.authenticate(header).account(), "valid until the service reloads the file");
        ring.reload();
        assertNull(gate.authenticate(header), "revoked at the reload");
        assertNull(gate.authenticate(header), "and not remembered again");
    }

    @Test
    void aHeaderThatDiffersFromARememberedOneOnlyBeforeItsLastCharactersIsCheckedInFull() throws Exception {
        final KeysFile file = new KeysFile(dir.resolve("keys"));
        final String secret = KeysCommand.create(file, "acct-1", Permission.TRADE);
        final AccessControl.Gate gate = gate(new KeyRing(file));
        assertEquals("acct-1", gate.authenticate("Bearer " + secret).account());
        // same length, same last characters (so the same slot), one character of the secret changed
        final int at = secret.length() - 10;
        final String forged = secret.substring(0, at) + (secret.charAt(at) == 'A' ? 'B' : 'A') + secret.substring(at + 1);
        assertNull(gate.authenticate("Bearer " + forged));
        assertNull(gate.authenticate("Bearer " + forged.substring(0, 18) + "x"), "another length");
    }

    @Test
    void noHeaderAMalformedOneAndAnUnknownKeyAreRefusedEveryTime() throws Exception {
        final KeysFile file = new KeysFile(dir.resolve("keys"));
        final AccessControl.Gate gate = gate(new KeyRing(file));
        final String unknown = Secrets.newSecret(Secrets.newKeyId());
        for (int i = 0; i < 2; i++) {
            assertNull(gate.authenticate(null));
            assertNull(gate.authenticate("Basic dXNlcjpwYXNz"));
            assertNull(gate.authenticate("Bearer " + unknown));
        }
    }

    @Test
    void everyKeyOfManyFindsItsOwnKeyWhenSlotsAreShared() {
        final Map<String, ApiKey> keys = new HashMap<>();
        final String[] headers = new String[5000];
        for (int i = 0; i < headers.length; i++) {
            final String keyId = Secrets.newKeyId();
            final String secret = Secrets.newSecret(keyId);
            keys.put(keyId, new ApiKey(keyId, "acct-" + i, Permission.TRADE, Instant.EPOCH, null, Secrets.hash(secret)));
            headers[i] = "Bearer " + secret;
        }
        final AccessControl.Gate gate = gate(new KeyRing(keys));
        for (int round = 0; round < 2; round++) {
            for (int i = 0; i < headers.length; i++) {
                assertEquals("acct-" + i, gate.authenticate(headers[i]).account());
            }
        }
    }

    @Test
    void textsAreComparedWhole() {
        assertTrue(Secrets.sameText("k0.abc", "k0.abc"));
        assertFalse(Secrets.sameText("k0.abc", "k0.abd"));
        assertFalse(Secrets.sameText("k0.abc", "x0.abc"));
        assertFalse(Secrets.sameText("k0.abc", "k0.abcd"));
        assertTrue(Secrets.sameText("", ""));
    }

    @Test
    void rateLimitHeaderValuesAreTheirDecimalText() {
        for (final long n : new long[] {0, 1, 1999, 2000, 4095, 4096, 100_000_000L}) {
            assertEquals(Long.toString(n), AccessControl.decimal(n).toString());
        }
    }
}
