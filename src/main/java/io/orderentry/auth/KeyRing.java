package io.orderentry.auth;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The API keys the service accepts, from the {@link KeysFile}, and the check of a presented secret.
 *
 * <p>{@link #reload} re-reads the file when its modification time, size, identity or permissions changed (the service
 * calls it once a second, off the event loops), so keys created or revoked by {@code keys create|revoke} take effect
 * within about a second, without a restart. A file that cannot be read or parsed, or that other users than its owner
 * may read or write ({@link KeysFile#checkPrivate}), leaves the keys as they were, and is logged and counted: a
 * half-edited file never locks everyone out nor lets a revoked key back in, and a file made readable by others is not
 * trusted; once it is private again ({@code chmod 600}) it is read at the next reload.
 *
 * <p>Threads: {@link #authenticate} is called on the event loops and never blocks or allocates beyond the key id;
 * {@link #reload} on one thread at a time. The keys are an immutable map behind a volatile reference.
 */
public final class KeyRing {

    private static final Logger LOG = LoggerFactory.getLogger(KeyRing.class);

    /** The outcome of a presented secret. */
    public enum Outcome {
        /** The secret is a valid key's. */
        VALID,
        /** No key has this secret (or the text does not have a secret's shape). */
        UNKNOWN,
        /** The secret is a revoked key's. */
        REVOKED
    }

    private final KeysFile file;
    private volatile Map<String, ApiKey> keys;
    private Object fileKey;
    private long modified = Long.MIN_VALUE;
    private long size = -1;
    private Set<PosixFilePermission> permissions;
    private final AtomicLong reloads = new AtomicLong();
    private final AtomicLong reloadFailures = new AtomicLong();

    /**
     * Reads the file now; a file that cannot be read, or that other users may read or write, stops the start (the
     * service would refuse every key, or trust keys anyone could have added).
     */
    public KeyRing(final KeysFile file) throws IOException {
        this.file = file;
        // the attributes before the content, as in reload(): a change in between is then seen by the next reload
        // instead of being remembered as already read
        final BasicFileAttributes read = attributes();
        KeysFile.checkPrivate(file.path(), permissionsOf(read));
        this.keys = file.read();
        remember(read);
    }

    /** A ring of the given keys that never reloads (tests, benchmarks). */
    public KeyRing(final Map<String, ApiKey> keys) {
        this.file = null;
        this.keys = Map.copyOf(keys);
    }

    /**
     * @return the key whose secret {@code secret} is, valid or revoked, or null when there is none; check
     *         {@link ApiKey#active()}. The secret is compared by its SHA-256, in constant time.
     */
    public ApiKey find(final String secret) {
        final String keyId = Secrets.keyIdOf(secret);
        if (keyId == null) {
            return null;
        }
        final ApiKey key = keys.get(keyId);
        if (key == null || !Secrets.matches(secret, key.secretHash())) {
            return null;
        }
        return key;
    }

    /**
     * @return a token that is the same object as long as the keys are the same, and another one after every reload
     *         that read the file: whoever keeps what {@link #find} answered keeps it only while this token is unchanged
     *         (a revoked key then stops working at the same reload as for {@link #find})
     */
    public Object version() {
        return keys;
    }

    /** @return what {@code secret} is: a valid key's, a revoked key's, or nobody's */
    public Outcome authenticate(final String secret) {
        final ApiKey key = find(secret);
        if (key == null) {
            return Outcome.UNKNOWN;
        }
        return key.active() ? Outcome.VALID : Outcome.REVOKED;
    }

    /** @return the key with this id, or null */
    public ApiKey byId(final String keyId) {
        return keys.get(keyId);
    }

    /** @return the valid keys */
    public long activeKeys() {
        return keys.values().stream().filter(ApiKey::active).count();
    }

    /** @return how many times the file was read again after a change */
    public long reloads() {
        return reloads.get();
    }

    /** @return how many times a changed file could not be read or parsed (the keys stayed as they were) */
    public long reloadFailures() {
        return reloadFailures.get();
    }

    /** Re-reads the file if it changed since the last read. Blocking file I/O: never on an event loop. */
    public synchronized void reload() {
        if (file == null) {
            return;
        }
        final BasicFileAttributes now;
        try {
            now = attributes();
        } catch (final IOException e) {
            reloadFailures.incrementAndGet();
            LOG.error("auth: the keys file {} cannot be read; the keys stay as they were: {}", file.path(), e.toString());
            return;
        }
        if (unchanged(now)) {
            return;
        }
        try {
            KeysFile.checkPrivate(file.path(), permissionsOf(now));
            final Map<String, ApiKey> fresh = file.read();
            keys = fresh;
            remember(now);
            reloads.incrementAndGet();
            LOG.info("auth: reloaded {}: {} key(s), {} valid", file.path(), fresh.size(), activeKeys());
        } catch (final IOException e) {
            remember(now);   // not again until it changes again
            reloadFailures.incrementAndGet();
            LOG.error("auth: the keys file {} changed but cannot be used; the keys stay as they were: {}", file.path(),
                    e.getMessage());
        }
    }

    /** @return the file's attributes, with its permissions where the file system has them; null when it is absent */
    private BasicFileAttributes attributes() throws IOException {
        try {
            try {
                return Files.readAttributes(file.path(), PosixFileAttributes.class);
            } catch (final UnsupportedOperationException notPosix) {
                return Files.readAttributes(file.path(), BasicFileAttributes.class);
            }
        } catch (final NoSuchFileException absent) {
            return null;
        }
    }

    private static Set<PosixFilePermission> permissionsOf(final BasicFileAttributes attributes) {
        return attributes instanceof PosixFileAttributes posix ? posix.permissions() : null;
    }

    private boolean unchanged(final BasicFileAttributes now) {
        if (now == null) {
            return size == -1;
        }
        return Objects.equals(now.fileKey(), fileKey) && now.lastModifiedTime().toMillis() == modified
                && now.size() == size && Objects.equals(permissionsOf(now), permissions);
    }

    private void remember(final BasicFileAttributes now) {
        fileKey = now == null ? null : now.fileKey();
        modified = now == null ? Long.MIN_VALUE : now.lastModifiedTime().toMillis();
        size = now == null ? -1 : now.size();
        permissions = permissionsOf(now);
    }

    /** @return the file the keys come from, or null */
    public Path path() {
        return file == null ? null : file.path();
    }
}
