package io.orderentry.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KeyRingTest {

    private static final PrintStream NOWHERE = new PrintStream(OutputStream.nullOutputStream());

    @TempDir
    Path dir;
    private KeysFile file;

    @BeforeEach
    void keysFile() {
        file = new KeysFile(dir.resolve("keys"));
    }

    private void revoke(final String secret) {
        assertEquals(0, KeysCommand.run(List.of("revoke", Secrets.keyIdOf(secret)), file, NOWHERE, NOWHERE));
    }

    @Test
    void shouldAcceptAKeyAddedToTheFileOnceReloaded() throws IOException {
        final String first = KeysCommand.create(file, "acct-1", Permission.TRADE);
        final KeyRing ring = new KeyRing(file);
        final String second = KeysCommand.create(file, "acct-2", Permission.READ);
        assertEquals(KeyRing.Outcome.UNKNOWN, ring.authenticate(second), "not before the reload");
        ring.reload();
        assertEquals(KeyRing.Outcome.VALID, ring.authenticate(second));
        assertEquals(KeyRing.Outcome.VALID, ring.authenticate(first));
        assertEquals("acct-2", ring.find(second).account());
        assertEquals(Permission.READ, ring.find(second).permission());
        assertEquals(2, ring.activeKeys());
        assertEquals(1, ring.reloads());
    }

    @Test
    void shouldRefuseAKeyRevokedInTheFileOnceReloaded() throws IOException {
        final String secret = KeysCommand.create(file, "acct-1", Permission.TRADE);
        final KeyRing ring = new KeyRing(file);
        revoke(secret);
        assertEquals(KeyRing.Outcome.VALID, ring.authenticate(secret), "not before the reload");
        ring.reload();
        assertEquals(KeyRing.Outcome.REVOKED, ring.authenticate(secret));
        assertEquals(0, ring.activeKeys());
    }

    @Test
    void shouldFindARevokedKeyAsInactive() throws IOException {
        final String secret = KeysCommand.create(file, "acct-1", Permission.TRADE);
        revoke(secret);
        final KeyRing ring = new KeyRing(file);
        final ApiKey key = ring.find(secret);
        assertNotNull(key, "a revoked key is still found, so the answer can say it was revoked");
        assertFalse(key.active());
        assertNotNull(key.revoked());
        assertEquals(KeyRing.Outcome.REVOKED, ring.authenticate(secret));
    }

    @Test
    void shouldFindNothingForAWrongSecretOfAKnownKeyIdOrForTextOfAnotherShape() throws IOException {
        final String secret = KeysCommand.create(file, "acct-1", Permission.TRADE);
        final KeyRing ring = new KeyRing(file);
        final String keyId = Secrets.keyIdOf(secret);
        assertNull(ring.find(Secrets.newSecret(keyId)), "the right id with another secret");
        assertNull(ring.find(keyId), "the public id alone");
        assertNull(ring.find(""));
        assertNull(ring.find(null));
        assertEquals(KeyRing.Outcome.UNKNOWN, ring.authenticate(Secrets.newSecret(keyId)));
        assertNotNull(ring.byId(keyId));
    }

    @Test
    void shouldNotReadAnUnchangedFileAgain() throws IOException {
        final String secret = KeysCommand.create(file, "acct-1", Permission.TRADE);
        final KeyRing ring = new KeyRing(file);
        ring.reload();
        ring.reload();
        assertEquals(0, ring.reloads());
        // the proof that it is not read: the same bytes count, time and inode with other content go unnoticed
        final FileTime modified = Files.getLastModifiedTime(file.path());
        final byte[] content = Files.readAllBytes(file.path());
        Files.write(file.path(), new byte[content.length], StandardOpenOption.TRUNCATE_EXISTING);
        Files.setLastModifiedTime(file.path(), modified);
        ring.reload();
        assertEquals(0, ring.reloads());
        assertEquals(0, ring.reloadFailures());
        assertEquals(KeyRing.Outcome.VALID, ring.authenticate(secret));
    }

    @Test
    void shouldKeepThePreviousKeysWhenAChangedFileCannotBeParsedAndCountTheFailureOnce() throws IOException {
        final String secret = KeysCommand.create(file, "acct-1", Permission.TRADE);
        final String good = Files.readString(file.path());
        final KeyRing ring = new KeyRing(file);
        Files.writeString(file.path(), good + "half-written line\n", StandardCharsets.UTF_8);
        ring.reload();
        assertEquals(KeyRing.Outcome.VALID, ring.authenticate(secret), "a bad edit locks nobody out");
        assertEquals(1, ring.reloadFailures());
        assertEquals(0, ring.reloads());
        ring.reload();
        assertEquals(1, ring.reloadFailures(), "the same bad file is not tried and counted again");
        // once the file parses again (here with the key revoked by hand) it is read
        Files.writeString(file.path(), good.replace(" - ", " 2026-11-25T15:00:00Z "), StandardCharsets.UTF_8);
        Files.setLastModifiedTime(file.path(), FileTime.fromMillis(System.currentTimeMillis() + 60_000));
        ring.reload();
        assertEquals(1, ring.reloads());
        assertEquals(KeyRing.Outcome.REVOKED, ring.authenticate(secret));
    }

    @Test
    void shouldHaveNoKeysOnceTheFileIsDeletedAndTheNewOnesWhenItIsBack() throws IOException {
        final String secret = KeysCommand.create(file, "acct-1", Permission.TRADE);
        final KeyRing ring = new KeyRing(file);
        Files.delete(file.path());
        ring.reload();
        assertEquals(KeyRing.Outcome.UNKNOWN, ring.authenticate(secret));
        assertEquals(0, ring.activeKeys());
        ring.reload();
        assertEquals(1, ring.reloads(), "an absent file stays absent: read once");
        final String fresh = KeysCommand.create(file, "acct-1", Permission.TRADE);
        ring.reload();
        assertEquals(KeyRing.Outcome.VALID, ring.authenticate(fresh));
        assertEquals(KeyRing.Outcome.UNKNOWN, ring.authenticate(secret));
    }

    @Test
    void shouldRefuseToStartOnAFileItCannotParse() throws IOException {
        Files.writeString(file.path(), "not a key\n");
        Files.setPosixFilePermissions(file.path(), PosixFilePermissions.fromString("rw-------"));
        final IOException refused = assertThrows(IOException.class, () -> new KeyRing(file));
        assertEquals(file.path() + ":1: expected 6 fields (keyId account permission created revoked sha256), found 3",
                refused.getMessage());
    }

    @Test
    void shouldRefuseToLoadAFileOtherUsersMayReadOrWriteNamingItsModeAndTheFix() throws IOException {
        KeysCommand.create(file, "acct-1", Permission.TRADE);
        for (final String mode : new String[] {"rw-r--r--", "rw-rw----", "rw-----w-"}) {
            Files.setPosixFilePermissions(file.path(), PosixFilePermissions.fromString(mode));
            final IOException refused = assertThrows(KeysFile.NotPrivateException.class, () -> new KeyRing(file));
            assertTrue(refused.getMessage().contains(file.path().toString()), refused.getMessage());
            assertTrue(refused.getMessage().contains(mode), refused.getMessage());
            assertTrue(refused.getMessage().endsWith("chmod 600 " + file.path()), refused.getMessage());
        }
        Files.setPosixFilePermissions(file.path(), PosixFilePermissions.fromString("rw-r--r--"));
        assertTrue(assertThrows(IOException.class, () -> new KeyRing(file)).getMessage().contains("(mode 0644, "));
        Files.setPosixFilePermissions(file.path(), PosixFilePermissions.fromString("r--------"));
        assertEquals(1, new KeyRing(file).activeKeys(), "the owner's own permissions are its business");
    }

    @Test
    void shouldKeepTheKeysWhileTheFileIsReadableByOthersAndReadItOnceItIsPrivateAgain() throws IOException {
        final String first = KeysCommand.create(file, "acct-1", Permission.TRADE);
        final KeyRing ring = new KeyRing(file);
        final String second = KeysCommand.create(file, "acct-2", Permission.TRADE);
        Files.setPosixFilePermissions(file.path(), PosixFilePermissions.fromString("rw-r--r--"));
        ring.reload();
        assertEquals(KeyRing.Outcome.UNKNOWN, ring.authenticate(second), "a file others may write is not trusted");
        assertEquals(KeyRing.Outcome.VALID, ring.authenticate(first), "the keys stay as they were");
        assertEquals(1, ring.reloadFailures());
        ring.reload();
        assertEquals(1, ring.reloadFailures(), "counted once, not once a second");
        Files.setPosixFilePermissions(file.path(), PosixFilePermissions.fromString("rw-------"));
        ring.reload();
        assertEquals(KeyRing.Outcome.VALID, ring.authenticate(second), "chmod 600 alone makes it read again");
        assertEquals(1, ring.reloads());
    }
}
