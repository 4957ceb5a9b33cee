package io.orderentry.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class SecretsTest {

    private static final Pattern KEY_ID = Pattern.compile("k[0-9a-f]{16}");
    private static final Pattern SECRET = Pattern.compile("k[0-9a-f]{16}\\.[A-Za-z0-9_-]{43}");
    /** A secret of the right shape: key id, dot, 43 base64url characters. */
    private static final String WELL_FORMED = "k0123456789abcdef." + "A".repeat(42) + "_";

    @Test
    void shouldMakeKeyIdsOfKAndSixteenLowercaseHexDigitsThatDoNotRepeat() {
        final Set<String> seen = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            final String keyId = Secrets.newKeyId();
            assertTrue(KEY_ID.matcher(keyId).matches(), keyId);
            assertTrue(Secrets.isKeyId(keyId), keyId);
            assertTrue(seen.add(keyId), "64 random bits do not repeat in 1000 draws: " + keyId);
        }
    }

    @Test
    void shouldMakeSecretsOfTheKeyIdADotAnd43Base64UrlCharacters() {
        final String keyId = Secrets.newKeyId();
        final String secret = Secrets.newSecret(keyId);
        assertTrue(SECRET.matcher(secret).matches(), secret);
        assertTrue(secret.startsWith(keyId + "."), secret);
        assertEquals(keyId, Secrets.keyIdOf(secret));
        assertNotEquals(secret, Secrets.newSecret(keyId), "two secrets of one id differ in their random part");
    }

    @Test
    void shouldFindTheKeyIdOfAWellFormedSecret() {
        assertEquals("k0123456789abcdef", Secrets.keyIdOf(WELL_FORMED));
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {
        // the id alone
        "k0123456789abcdef",
        // nothing after the dot
        "k0123456789abcdef.",
        // 42 characters after the dot
        "k0123456789abcdef.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
        // 44 characters after the dot
        "k0123456789abcdef.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
        // no dot
        "k0123456789abcdefAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
        // not k
        "x0123456789abcdef.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
        // uppercase hex
        "k0123456789ABCDEF.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
        // not hex
        "k0123456789abcdeg.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
        // the dot one place early
        "k0123456789abcde.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
        // padding
        "k0123456789abcdef.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
        // a space
        "k0123456789abcdef.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA ",
    })
    void shouldRefuseTextWithoutTheShapeOfASecret(final String text) {
        assertNull(Secrets.keyIdOf(text), text);
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"k", "k0123456789abcde", "k0123456789abcdef0", "K0123456789abcdef", "k0123456789ABCDEF",
        " k0123456789abcde"})
    void shouldRefuseTextWithoutTheShapeOfAKeyId(final String text) {
        assertFalse(Secrets.isKeyId(text), text);
    }

    @Test
    void shouldMatchOnlyTheExactSecret() {
        final String keyId = Secrets.newKeyId();
        final String secret = Secrets.newSecret(keyId);
        final byte[] stored = Secrets.hash(secret);
        assertEquals(32, stored.length, "SHA-256");
        assertTrue(Secrets.matches(secret, stored));
        final char last = secret.charAt(secret.length() - 1);
        assertFalse(Secrets.matches(secret.substring(0, secret.length() - 1) + (last == 'A' ? 'B' : 'A'), stored),
                "one character changed");
        assertFalse(Secrets.matches(secret + " ", stored), "a trailing space");
        assertFalse(Secrets.matches(secret.substring(0, secret.length() - 1), stored), "a prefix");
        assertFalse(Secrets.matches(secret.toUpperCase(), stored), "another case");
        assertFalse(Secrets.matches(Secrets.newSecret(keyId), stored), "another secret of the same key id");
        assertFalse(Secrets.matches(keyId, stored), "the public key id");
        assertFalse(Secrets.matches("", stored));
    }
}
