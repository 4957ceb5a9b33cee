package io.orderentry.audit;

import java.nio.charset.StandardCharsets;
import java.security.DigestException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The one definition of how a record is hashed. A record is one line of UTF-8 JSON ending in {@code '\n'}:
 * <pre>
 *   {"seq":1,...,"prevHash":"&lt;64 hex&gt;","hash":"&lt;64 hex&gt;"}
 * </pre>
 * {@code hash} is the lower-case hex SHA-256 of the line's <em>canonical bytes</em>: the line exactly as
 * written, without its {@code ,"hash":"...."} field and without the {@code '\n'}, that is the bytes up to and
 * including the closing quote of {@code prevHash}, followed by {@code '}'}. Because {@code prevHash} (the
 * previous record's {@code hash}, or 64 zeros for seq 1) is inside those bytes, each hash covers the whole
 * trail before it. Stateless; the digests passed in belong to the caller's thread.
 */
public final class AuditFormat {

    /** The {@code prevHash} of the first record of a trail. */
    public static final String GENESIS_HASH = "0".repeat(64);
    /** Hex digits in a hash. */
    public static final int HASH_HEX_LENGTH = 64;

    private static final byte[] HASH_FIELD = ",\"hash\":\"".getBytes(StandardCharsets.US_ASCII);
    /** Bytes of {@code ,"hash":"<64 hex>"}} at the end of every line (before {@code '\n'}). */
    static final int HASH_SUFFIX_LENGTH = HASH_FIELD.length + HASH_HEX_LENGTH + 2;
    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    private AuditFormat() {
    }

    /** @return a new SHA-256 digest */
    public static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (final NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM has no SHA-256", e);
        }
    }

    /**
     * @param line   a line without its {@code '\n'}
     * @param length its length in bytes
     * @return true if it ends with a well-formed {@code ,"hash":"<64 lower-case hex>"}}
     */
    public static boolean hasHashField(final byte[] line, final int length) {
        if (length < HASH_SUFFIX_LENGTH + 2 || line[0] != '{' || line[length - 1] != '}' || line[length - 2] != '"') {
            return false;
        }
        final int start = length - HASH_SUFFIX_LENGTH;
        for (int i = 0; i < HASH_FIELD.length; i++) {
            if (line[start + i] != HASH_FIELD[i]) {
                return false;
            }
        }
        for (int i = start + HASH_FIELD.length; i < length - 2; i++) {
            final byte b = line[i];
            if (!(b >= '0' && b <= '9' || b >= 'a' && b <= 'f')) {
                return false;
            }
        }
        return true;
    }

    /** @return the offset of the hash's hex digits in a line that {@link #hasHashField} */
    public static int hashOffset(final int length) {
        return length - HASH_SUFFIX_LENGTH + HASH_FIELD.length;
    }

    /**
     * Hashes a record's canonical bytes: {@code line[0, contentLength)} followed by {@code '}'}.
     *
     * @param contentLength the bytes before the {@code ,"hash":} field
     * @param digest        scratch of 32 bytes
     * @param hexOut        receives 64 lower-case hex digits at {@code hexOffset}
     */
    public static void hash(final MessageDigest sha, final byte[] line, final int contentLength, final byte[] digest,
                            final byte[] hexOut, final int hexOffset) {
        sha.reset();
        sha.update(line, 0, contentLength);
        sha.update((byte) '}');
        try {
            sha.digest(digest, 0, 32);
        } catch (final DigestException e) {
            throw new IllegalStateException("SHA-256 digest into a 32-byte buffer failed", e);
        }
        for (int i = 0; i < 32; i++) {
            hexOut[hexOffset + 2 * i] = HEX[(digest[i] >> 4) & 0xF];
            hexOut[hexOffset + 2 * i + 1] = HEX[digest[i] & 0xF];
        }
    }

    /** Appends the {@code ,"hash":"} field name at {@code offset}; @return the offset after it */
    static int putHashField(final byte[] line, final int offset) {
        System.arraycopy(HASH_FIELD, 0, line, offset, HASH_FIELD.length);
        return offset + HASH_FIELD.length;
    }
}
