package io.orderentry.auth;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class KeysFileTest {

    private static final String HASH = "2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae";
    private static final String GOOD = "k0123456789abcdef acct-1 trade 2026-11-25T14:00:00Z - " + HASH;

    @TempDir
    Path dir;

    private static ApiKey key(final String account, final Permission permission, final Instant revoked) {
        final String keyId = Secrets.newKeyId();
        return new ApiKey(keyId, account, permission, Instant.parse("2026-11-25T14:00:00Z"), revoked,
                Secrets.hash(Secrets.newSecret(keyId)));
    }

    @Test
    void shouldReadBackWhatAnUpdateWroteInTheOrderItWasWritten() throws IOException {
        final KeysFile file = new KeysFile(dir.resolve("keys"));
        final ApiKey trade = key("acct-1", Permission.TRADE, null);
        final ApiKey read = key("acct_2", Permission.READ, Instant.parse("2026-11-25T15:00:00Z"));
        final ApiKey admin = key("ops", Permission.ADMIN, null);
        file.update(keys -> {
            keys.put(trade.keyId(), trade);
            keys.put(read.keyId(), read);
            keys.put(admin.keyId(), admin);
            return keys;
        });
        final Map<String, ApiKey> back = file.read();
        assertEquals(List.of(trade.keyId(), read.keyId(), admin.keyId()), new ArrayList<>(back.keySet()));
        for (final ApiKey written : List.of(trade, read, admin)) {
            final ApiKey got = back.get(written.keyId());
            assertEquals(written.account(), got.account());
            assertEquals(written.permission(), got.permission());
            assertEquals(written.created(), got.created());
            assertEquals(written.revoked(), got.revoked());
            assertArrayEquals(written.secretHash(), got.secretHash());
        }
        assertFalse(back.get(read.keyId()).active());
        assertEquals(3, file.list().size());
    }

    @Test
    void shouldReadAMissingFileAsNoKeys() throws IOException {
        assertTrue(new KeysFile(dir.resolve("absent")).read().isEmpty());
    }

    @Test
    void shouldNeverWriteTheSecretOnlyItsHash() throws IOException {
        final KeysFile file = new KeysFile(dir.resolve("keys"));
        final String secret = KeysCommand.create(file, "acct-1", Permission.TRADE);
        final String text = Files.readString(file.path());
        assertFalse(text.contains(secret.substring(secret.indexOf('.') + 1)), text);
        assertTrue(text.contains(java.util.HexFormat.of().formatHex(Secrets.hash(secret))), text);
    }

    @Test
    void shouldWriteTheFileReadableAndWritableByItsOwnerOnly() throws IOException {
        assumeTrue(FileSystems.getDefault().supportedFileAttributeViews().contains("posix"), "needs POSIX permissions");
        final KeysFile file = new KeysFile(dir.resolve("sub").resolve("keys"));
        KeysCommand.create(file, "acct-1", Permission.TRADE);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file.path())));
        // a file an operator loosened is written back tight on the next change
        Files.setPosixFilePermissions(file.path(), PosixFilePermissions.fromString("rw-r--r--"));
        KeysCommand.create(file, "acct-2", Permission.TRADE);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file.path())));
    }

    @Test
    void shouldLeaveTheFileUntouchedWhenAnUpdateChangesNothing() throws IOException {
        final KeysFile file = new KeysFile(dir.resolve("keys"));
        KeysCommand.create(file, "acct-1", Permission.TRADE);
        final FileTime old = FileTime.from(Instant.parse("2020-01-01T00:00:00Z"));
        Files.setLastModifiedTime(file.path(), old);
        final Object identity = Files.readAttributes(file.path(), java.nio.file.attribute.BasicFileAttributes.class)
                .fileKey();
        file.update(keys -> keys);
        assertEquals(old, Files.getLastModifiedTime(file.path()), "not rewritten, so the service does not reload");
        assertEquals(identity, Files.readAttributes(file.path(), java.nio.file.attribute.BasicFileAttributes.class)
                .fileKey());
    }

    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', value = {
        "k0123456789abcdef acct-1 trade 2026-11-25T14:00:00Z " + HASH + "| expected 6 fields",
        "k0123456789abcdef acct-1 trade 2026-11-25T14:00:00Z - " + HASH + " x| expected 6 fields",
        "k0123456789abcdef  acct-1 trade 2026-11-25T14:00:00Z - " + HASH + "| expected 6 fields",
        "kXYZ acct-1 trade 2026-11-25T14:00:00Z - " + HASH + "| 'kXYZ' is not a key id",
        "k0123456789abcdef acct.1 trade 2026-11-25T14:00:00Z - " + HASH + "| 'acct.1' is not an account id",
        "k0123456789abcdef acct-1 TRADE 2026-11-25T14:00:00Z - " + HASH + "| 'TRADE' is not a permission",
        "k0123456789abcdef acct-1 trade yesterday - " + HASH + "| a time is not ISO-8601: yesterday",
        "k0123456789abcdef acct-1 trade 2026-11-25T14:00:00Z never " + HASH + "| a time is not ISO-8601: never",
        "k0123456789abcdef acct-1 trade 2026-11-25T14:00:00Z - zz" + HASH + "| the hash is not hexadecimal",
        "k0123456789abcdef acct-1 trade 2026-11-25T14:00:00Z - abcd| the hash is not 32 bytes",
    })
    void shouldRefuseAMalformedLineNamingTheFileAndTheLine(final String line, final String why) throws IOException {
        final Path path = dir.resolve("keys");
        Files.writeString(path, "# comment\n\n" + line + "\n");
        final IOException refused = assertThrows(IOException.class, () -> new KeysFile(path).read());
        assertTrue(refused.getMessage().startsWith(path + ":3: "), refused.getMessage());
        assertTrue(refused.getMessage().contains(why.strip()), refused.getMessage());
    }

    @Test
    void shouldRefuseAKeyIdThatAppearsTwice() throws IOException {
        final Path path = dir.resolve("keys");
        Files.writeString(path, GOOD + "\n# between\n" + GOOD.replace("acct-1", "acct-2") + "\n");
        final IOException refused = assertThrows(IOException.class, () -> new KeysFile(path).read());
        assertEquals(path + ":3: key k0123456789abcdef appears twice", refused.getMessage());
    }

    @Test
    void shouldNotWriteWhenTheFileItWouldChangeIsMalformed() throws IOException {
        final Path path = dir.resolve("keys");
        Files.writeString(path, "garbage\n");
        final KeysFile file = new KeysFile(path);
        assertThrows(IOException.class, () -> KeysCommand.create(file, "acct-1", Permission.TRADE));
        assertEquals("garbage\n", Files.readString(path), "a key is never added on top of a file it cannot read");
    }

    @Test
    void shouldKeepEveryKeyOfTwoThreadsUpdatingAtOnce() throws Exception {
        final KeysFile file = new KeysFile(dir.resolve("keys"));
        final int perThread = 25;
        final ExecutorService threads = Executors.newFixedThreadPool(2);
        final CountDownLatch start = new CountDownLatch(1);
        try {
            final List<Future<List<String>>> created = new ArrayList<>();
            for (int t = 0; t < 2; t++) {
                final String account = "acct-" + t;
                created.add(threads.submit(() -> {
                    start.await();
                    final List<String> secrets = new ArrayList<>();
                    for (int i = 0; i < perThread; i++) {
                        secrets.add(KeysCommand.create(file, account, Permission.TRADE));
                    }
                    return secrets;
                }));
            }
            start.countDown();
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while ((!created.get(0).isDone() || !created.get(1).isDone()) && System.nanoTime() < deadline) {
                file.read();   // a reader meanwhile sees the old or the new file, never a part (it would not parse)
            }
            final List<String> secrets = new ArrayList<>(created.get(0).get(30, TimeUnit.SECONDS));
            secrets.addAll(created.get(1).get(30, TimeUnit.SECONDS));
            final Map<String, ApiKey> after = file.read();
            assertEquals(2 * perThread, after.size(), "no update was lost to another's read-modify-write");
            for (final String secret : secrets) {
                final ApiKey key = after.get(Secrets.keyIdOf(secret));
                assertTrue(key != null && Secrets.matches(secret, key.secretHash()), secret);
            }
        } finally {
            threads.shutdownNow();
        }
    }
}
