package io.orderentry.cluster;

import io.aeron.security.CredentialsSupplier;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * What a member's Aeron clients (its cluster client, its archive clients, its archive replicating from another's) say
 * when they connect: first "member N" ({@link #encodedCredentials}), then the answer to the server's nonce
 * ({@link #onChallenge}), which only a holder of the {@link ClusterSecret} can give. The secret itself is never sent.
 *
 * <p>The same wire format names the member in the principal the {@link MemberAuthenticator} gives an authenticated
 * session ({@link #principal}, {@link #memberOf}): Aeron puts it in the log with the session, so every member's
 * clustered service knows which member each session is.
 *
 * <p>Immutable; Aeron calls it on the connecting client's thread.
 */
public final class MemberCredentials implements CredentialsSupplier {

    /** The first bytes of the credentials and of a principal: "OEc1" little-endian, format 1. */
    static final int MAGIC = 0x3163454F;
    static final int LENGTH = 8;
    /** What {@link #memberOf} says of a principal that names no member. */
    public static final int NO_MEMBER = -1;

    private final ClusterSecret secret;
    private final ClusterSecret.Purpose purpose;
    private final int member;

    /** @param member the member whose clients these are */
    public MemberCredentials(final ClusterSecret secret, final ClusterSecret.Purpose purpose, final int member) {
        this.secret = secret;
        this.purpose = purpose;
        this.member = member;
    }

    @Override
    public byte[] encodedCredentials() {
        return principal(member);
    }

    @Override
    public byte[] onChallenge(final byte[] nonce) {
        return secret.proof(purpose, member, nonce);
    }

    /** @return the encoding of "member {@code member}" */
    public static byte[] principal(final int member) {
        return ByteBuffer.allocate(LENGTH).order(ByteOrder.LITTLE_ENDIAN).putInt(MAGIC).putInt(member).array();
    }

    /** @return the member {@code encoded} names, or {@link #NO_MEMBER} (null, empty, or not this format) */
    public static int memberOf(final byte[] encoded) {
        if (encoded == null || encoded.length != LENGTH) {
            return NO_MEMBER;
        }
        final ByteBuffer bytes = ByteBuffer.wrap(encoded).order(ByteOrder.LITTLE_ENDIAN);
        final int member = bytes.getInt(4);
        return bytes.getInt(0) == MAGIC && member >= 0 ? member : NO_MEMBER;
    }
}
