package io.orderentry.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;

/**
 * The shape of key ids and secrets, and the secret's hash.
 *
 * <p>A key id is {@code k} and 16 lowercase hex digits (64 random bits). A secret is the key id, a dot and 43
 * base64url characters (256 random bits): {@code k3f9a0c1d2e4b5a6f.Zk3...}. The key id inside the secret lets the
 * service find the key with one map lookup and then compare the secret's SHA-256 with the stored one in constant
 * time ({@link MessageDigest#isEqual}); a secret of 256 random bits needs no slow password hash. Thread-safe.
 */
public final class Secrets {

    /** Characters of a secret after the key id and the dot. */
    static final int RANDOM_CHARS = 43;
    private static final int KEY_ID_HEX = 16;
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final ThreadLocal<MessageDigest> SHA256 = ThreadLocal.withInitial(Secrets::newDigest);

    private Secrets() {
    }

    /** @return a fresh random key id */
    public static String newKeyId() {
        final byte[] bytes = new byte[KEY_ID_HEX / 2];
        RANDOM.nextBytes(bytes);
        return "k" + HexFormat.of().formatHex(bytes);
    }

    /** @return a fresh secret for {@code keyId} */
    public static String newSecret(final String keyId) {
        final byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return keyId + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** @return whether {@code text} has the shape of a key id */
    public static boolean isKeyId(final String text) {
        if (text == null || text.length() != KEY_ID_HEX + 1 || text.charAt(0) != 'k') {
            return false;
        }
        for (int i = 1; i < text.length(); i++) {
            final char c = text.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
                return false;
            }
        }
        return true;
    }

    /** @return the key id a secret starts with, or null if the text does not have a secret's shape */
    public static String keyIdOf(final String secret) {
        if (secret == null || secret.length() != KEY_ID_HEX + 2 + RANDOM_CHARS || secret.charAt(KEY_ID_HEX + 1) != '.') {
            return null;
        }
        for (int i = KEY_ID_HEX + 2; i < secret.length(); i++) {
            final char c = secret.charAt(i);
            if (!(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_')) {
                return null;
            }
        }
        final String keyId = secret.substring(0, KEY_ID_HEX + 1);
        return isKeyId(keyId) ? keyId : null;
    }

    /** @return SHA-256 of the secret's UTF-8 bytes */
    public static byte[] hash(final String secret) {
        final MessageDigest digest = SHA256.get();
        digest.reset();
        return digest.digest(secret.getBytes(StandardCharsets.UTF_8));
    }

    /** @return whether {@code secret} hashes to {@code expected}, compared in time independent of where they differ */
    public static boolean matches(final String secret, final byte[] expected) {
        return MessageDigest.isEqual(hash(secret), expected);
    }

    /**
     * @return whether {@code a} and {@code b} hold the same characters, compared in time independent of where they
     *         differ (only their lengths, the same for every secret, end the comparison early); neither may be null
     */
    public static boolean sameText(final String a, final String b) {
        if (a.length() != b.length()) {
            return false;
        }
        int difference = 0;
        for (int i = 0; i < a.length(); i++) {
            difference |= a.charAt(i) ^ b.charAt(i);
        }
        return difference == 0;
    }

    private static MessageDigest newDigest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (final NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
