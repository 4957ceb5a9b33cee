package io.orderentry.auth;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

/**
 * The keys file: every API key ever created, revoked ones included (so that a revoked id is never valid again), one
 * per line, in the order they were created:
 *
 * <pre>
 * # comment
 * keyId account permission created revoked sha256
 * k3f9a0c1d2e4b5a6f acct-1 trade 2026-11-25T14:00:00Z - 2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae
 * </pre>
 *
 * Fields are separated by single spaces; {@code revoked} is {@code -} while the key is valid, else the time it was
 * revoked. The secret itself is never written. The file is created readable by its owner only, and the service reads
 * it only while it stays so ({@link #checkPrivate}): whoever may write it may add a key.
 *
 * <p>Changes ({@link #update}) take an exclusive lock on {@code <file>.lock} (against other processes; threads of one
 * JVM queue on a monitor before it), read the file, write the new content to a temporary file, force it and rename it
 * over the old one: a reader (the running service) sees the old or the new file, never a part. Thread-safe as far as
 * the file system is: every method works on the file, not on a cache.
 */
public final class KeysFile {

    private static final Pattern ACCOUNT = Pattern.compile("[A-Za-z0-9_-]{1,64}");
    private static final String HEADER = """
            # order-entry API keys, written by `java -jar order-entry.jar keys create|revoke`; the service reloads this
            # file within a second of a change. Secrets are not stored, only their SHA-256.
            # keyId account permission created revoked sha256
            """;

    /** One monitor per lock file, for the threads of this JVM (see {@link #update}). */
    private static final ConcurrentMap<Path, Object> LOCKS = new ConcurrentHashMap<>();

    private final Path file;

    public KeysFile(final Path file) {
        this.file = file;
    }

    public Path path() {
        return file;
    }

    /** @return whether {@code account} is a valid account id (1-64 of {@code [A-Za-z0-9_-]}) */
    public static boolean validAccount(final String account) {
        return account != null && ACCOUNT.matcher(account).matches();
    }

    /** @return the keys by id, in file order; empty if the file does not exist */
    public Map<String, ApiKey> read() throws IOException {
        final List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (final NoSuchFileException absent) {
            return Map.of();
        }
        final Map<String, ApiKey> keys = new LinkedHashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            final String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            final ApiKey key = parse(line, i + 1);
            if (keys.put(key.keyId(), key) != null) {
                throw new IOException(file + ":" + (i + 1) + ": key " + key.keyId() + " appears twice");
            }
        }
        return keys;
    }

    /**
     * Reads the keys under the file's lock, applies {@code change} and writes the result (only if it changed).
     *
     * @return what {@code change} returned
     */
    public Map<String, ApiKey> update(final UnaryOperator<Map<String, ApiKey>> change) throws IOException {
        final Path parent = file.toAbsolutePath().getParent();
        Files.createDirectories(parent);
        final Path lockFile = parent.resolve(file.getFileName() + ".lock");
        // a file lock is held by the whole JVM (a second thread's lock() would throw OverlappingFileLockException),
        // so threads of this JVM queue on a monitor first and the file lock keeps other processes out
        synchronized (LOCKS.computeIfAbsent(lockFile.normalize(), ignored -> new Object())) {
            try (FileChannel lockChannel = FileChannel.open(lockFile, StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE);
                 FileLock ignored = lockChannel.lock()) {
                final Map<String, ApiKey> before = read();
                final Map<String, ApiKey> after = change.apply(new LinkedHashMap<>(before));
                if (!after.equals(before)) {
                    write(after);
                }
                return after;
            }
        }
    }

    private void write(final Map<String, ApiKey> keys) throws IOException {
        final StringBuilder text = new StringBuilder(HEADER);
        for (final ApiKey key : keys.values()) {
            text.append(key.keyId()).append(' ').append(key.account()).append(' ').append(key.permission().wireName())
                    .append(' ').append(key.created()).append(' ')
                    .append(key.revoked() == null ? "-" : key.revoked().toString()).append(' ')
                    .append(HexFormat.of().formatHex(key.secretHash())).append('\n');
        }
        PrivateFiles.write(file, text.toString());
    }

    private ApiKey parse(final String line, final int number) throws IOException {
        final String[] fields = line.split(" ");
        if (fields.length != 6) {
            throw malformed(number, "expected 6 fields (keyId account permission created revoked sha256), found "
                    + fields.length);
        }
        if (!Secrets.isKeyId(fields[0])) {
            throw malformed(number, "'" + fields[0] + "' is not a key id");
        }
        if (!validAccount(fields[1])) {
            throw malformed(number, "'" + fields[1] + "' is not an account id");
        }
        final Permission permission = Permission.ofWireName(fields[2]);
        if (permission == null) {
            throw malformed(number, "'" + fields[2] + "' is not a permission (trade, read, admin)");
        }
        final byte[] hash;
        try {
            hash = HexFormat.of().parseHex(fields[5]);
        } catch (final IllegalArgumentException e) {
            throw malformed(number, "the hash is not hexadecimal");
        }
        if (hash.length != 32) {
            throw malformed(number, "the hash is not 32 bytes");
        }
        try {
            return new ApiKey(fields[0], fields[1], permission, Instant.parse(fields[3]),
                    fields[4].equals("-") ? null : Instant.parse(fields[4]), hash);
        } catch (final DateTimeParseException e) {
            throw malformed(number, "a time is not ISO-8601: " + e.getParsedString());
        }
    }

    private IOException malformed(final int line, final String why) {
        return new IOException(file + ":" + line + ": " + why);
    }

    /**
     * Refuses a keys file that users other than its owner may read or write: one who may write it can add a key of
     * any account, one who may read it learns every key id and account. The service checks this before it reads the
     * file; the {@code keys} commands write it {@code rw-------} whatever it was.
     *
     * @param permissions the file's permissions, or null where the file system has none (nothing to check)
     * @throws NotPrivateException naming the file, its mode and the command that fixes it
     */
    public static void checkPrivate(final Path file, final Set<PosixFilePermission> permissions)
            throws NotPrivateException {
        final String exposure = PrivateFiles.exposure(permissions);
        if (exposure != null) {
            throw new NotPrivateException("the API keys file " + file + " may be read or written by other users than"
                    + " its owner (" + exposure + "): anyone who may write it can add a key; make it its owner's only:"
                    + " chmod 600 " + file);
        }
    }

    /** A keys file that other users than its owner may read or write ({@link #checkPrivate}). */
    public static final class NotPrivateException extends IOException {
        private static final long serialVersionUID = 1L;

        NotPrivateException(final String message) {
            super(message);
        }
    }

    /** @return every key of the file, oldest first (for listings) */
    public List<ApiKey> list() throws IOException {
        return new ArrayList<>(read().values());
    }
}
