package io.orderentry.auth;

import java.time.Instant;

/**
 * One API key as the keys file holds it: never the secret, only its SHA-256. Immutable.
 *
 * @param keyId      the public id, shown in listings and audit records; also the start of the secret
 * @param account    the one account the key acts for
 * @param permission what the key may do
 * @param created    when {@code keys create} made it
 * @param revoked    when {@code keys revoke} revoked it, or null while it is valid
 * @param secretHash SHA-256 of the whole secret (32 bytes)
 */
public record ApiKey(String keyId, String account, Permission permission, Instant created, Instant revoked,
                     byte[] secretHash) {

    /** @return whether requests may still authenticate with this key */
    public boolean active() {
        return revoked == null;
    }

    /** @return a copy revoked at {@code when} */
    public ApiKey revokedAt(final Instant when) {
        return new ApiKey(keyId, account, permission, created, when, secretHash);
    }
}
