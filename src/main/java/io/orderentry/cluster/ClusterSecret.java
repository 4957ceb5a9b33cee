package io.orderentry.cluster;

import io.orderentry.auth.PrivateFiles;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;

/**
 * The secret the members of a cluster share ({@code ORDERS_CLUSTER_SECRET_FILE}, docs/cluster.md "Who may talk to a
 * member"): it never goes on the wire. A member proves it knows it by answering a nonce the other side chose with
 * {@link #proof}, an HMAC-SHA256 keyed with the secret over what is being entered (the cluster's ingress or an
 * archive), the member id it claims, and the nonce.
 *
 * <p>Immutable; any thread. {@link #toString} does not show the secret.
 */
public final class ClusterSecret {

    /** The fewest bytes a secret may have (after trimming white space): 32 characters, e.g. base64 of 24 random bytes. */
    public static final int MIN_BYTES = 32;
    private static final String ALGORITHM = "HmacSHA256";

    /** What a proof is for, so that an answer for one cannot be used for the other. */
    public enum Purpose {
        /** A cluster client connecting to the leader's consensus module. */
        INGRESS,
        /** An archive client connecting to a member's archive (its own, or another's to replicate from it). */
        ARCHIVE
    }

    private final byte[] key;

    private ClusterSecret(final byte[] key) {
        this.key = key;
    }

    /** @return a secret of these bytes; throws IllegalArgumentException if it has fewer than {@link #MIN_BYTES} */
    public static ClusterSecret of(final byte[] secret) {
        if (secret.length < MIN_BYTES) {
            throw new IllegalArgumentException("the secret has " + secret.length + " bytes, at least " + MIN_BYTES
                    + " are needed (e.g. `openssl rand -base64 32`)");
        }
        return new ClusterSecret(secret.clone());
    }

    /**
     * Reads the secret from {@code file}: its content with leading and trailing white space removed. The file must be
     * readable by its owner only (no permission for group or others) where the file system has POSIX permissions.
     *
     * @throws IllegalArgumentException naming what is wrong (missing, unreadable, open to others, too short)
     */
    public static ClusterSecret read(final Path file) {
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException(file + " is not a file");
        }
        final String exposure;
        try {
            exposure = PrivateFiles.exposure(PrivateFiles.permissionsOf(file));
        } catch (final IOException e) {
            throw new IllegalArgumentException("cannot read the permissions of " + file + ": " + e.getMessage());
        }
        if (exposure != null) {
            throw new IllegalArgumentException(file + " may be read or written by other users than its owner ("
                    + exposure + "): make it its owner's only (chmod 600)");
        }
        final byte[] bytes;
        try {
            bytes = new String(Files.readAllBytes(file), StandardCharsets.UTF_8).strip()
                    .getBytes(StandardCharsets.UTF_8);
        } catch (final IOException e) {
            throw new IllegalArgumentException("cannot read " + file + ": " + e.getMessage());
        }
        try {
            return of(bytes);
        } finally {
            Arrays.fill(bytes, (byte) 0);
        }
    }

    /** @return HMAC-SHA256(secret, purpose | member | nonce): the answer to {@code nonce} of member {@code member} */
    public byte[] proof(final Purpose purpose, final int member, final byte[] nonce) {
        try {
            final Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(new SecretKeySpec(key, ALGORITHM));
            mac.update(purpose.name().getBytes(StandardCharsets.US_ASCII));
            mac.update(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(member).array());
            return mac.doFinal(nonce);
        } catch (final GeneralSecurityException e) {
            throw new IllegalStateException("the JVM has no " + ALGORITHM, e);
        }
    }

    /** @return whether {@code answer} is the proof for {@code nonce} of member {@code member}, in constant time */
    public boolean verifies(final Purpose purpose, final int member, final byte[] nonce, final byte[] answer) {
        return answer != null && MessageDigest.isEqual(proof(purpose, member, nonce), answer);
    }

    @Override
    public String toString() {
        return "ClusterSecret[" + key.length + " bytes]";
    }
}
