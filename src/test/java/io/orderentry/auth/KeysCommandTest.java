package io.orderentry.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class KeysCommandTest {

    @TempDir
    Path dir;
    private KeysFile file;
    private ByteArrayOutputStream out;
    private ByteArrayOutputStream err;

    @BeforeEach
    void keysFile() {
        file = new KeysFile(dir.resolve("keys"));
    }

    private int run(final String... args) {
        out = new ByteArrayOutputStream();
        err = new ByteArrayOutputStream();
        return KeysCommand.run(List.of(args), file, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void shouldPrintOnlyTheSecretOnStandardOutputAndTheSecretShouldAuthenticate() throws IOException {
        assertEquals(0, run("create", "--account", "acct-1"));
        final String secret = out().strip();
        assertEquals(secret + System.lineSeparator(), out(), "one line, the secret alone, for SECRET=$(...)");
        final String keyId = Secrets.keyIdOf(secret);
        assertTrue(keyId != null, "a secret's shape: " + secret);
        assertTrue(err().contains("created key " + keyId + " for account acct-1 (trade)"), err());
        assertFalse(err().contains(secret), "the secret is shown once, on standard output only");
        final KeyRing ring = new KeyRing(file);
        assertEquals(KeyRing.Outcome.VALID, ring.authenticate(secret));
        assertEquals(Permission.TRADE, ring.find(secret).permission());
        assertEquals("acct-1", ring.find(secret).account());
    }

    @Test
    void shouldCreateReadOnlyAndAdminKeysWhenAsked() throws IOException {
        assertEquals(0, run("create", "--read-only", "--account", "acct-1"));
        final String read = out().strip();
        assertEquals(0, run("create", "--account", "ops", "--admin"));
        final String admin = out().strip();
        final KeyRing ring = new KeyRing(file);
        assertEquals(Permission.READ, ring.find(read).permission());
        assertEquals(Permission.ADMIN, ring.find(admin).permission());
    }

    @Test
    void shouldRevokeAKeySoItNoLongerAuthenticatesButStaysListed() throws IOException {
        run("create", "--account", "acct-1");
        final String revoked = out().strip();
        run("create", "--account", "acct-2");
        final String kept = out().strip();
        assertEquals(0, run("revoke", Secrets.keyIdOf(revoked)));
        assertTrue(err().contains("revoked key " + Secrets.keyIdOf(revoked)), err());
        assertEquals(0, run("revoke", Secrets.keyIdOf(revoked)), "revoking twice is not an error");
        assertTrue(err().contains("was already revoked"), err());
        final KeyRing ring = new KeyRing(file);
        assertEquals(KeyRing.Outcome.REVOKED, ring.authenticate(revoked));
        assertEquals(KeyRing.Outcome.VALID, ring.authenticate(kept));

        assertEquals(0, run("list"));
        final List<String> lines = out().lines().toList();
        assertEquals(3, lines.size(), out());
        assertTrue(lines.get(0).startsWith("keyId"), "a header first: " + lines.get(0));
        assertTrue(lines.get(1).startsWith(Secrets.keyIdOf(revoked) + " acct-1 trade "), lines.get(1));
        assertTrue(lines.get(1).contains(" revoked 20"), "the revoked key, with when: " + lines.get(1));
        assertTrue(lines.get(2).startsWith(Secrets.keyIdOf(kept) + " acct-2 trade "), lines.get(2));
        assertTrue(lines.get(2).endsWith(" active"), lines.get(2));
        assertFalse(out().contains(revoked) || out().contains(kept), "a listing never shows a secret");
    }

    @Test
    void shouldExitOneForTheRevokeOfAnUnknownKeyAndChangeNothing() throws IOException {
        run("create", "--account", "acct-1");
        final String before = Files.readString(file.path());
        assertEquals(1, run("revoke", "k0000000000000000"));
        assertTrue(err().contains("no key k0000000000000000 in " + file.path()), err());
        assertEquals(before, Files.readString(file.path()));
    }

    @Test
    void shouldExitOneWhenTheFileCannotBeRead() throws IOException {
        Files.writeString(file.path(), "garbage\n");
        assertEquals(1, run("list"));
        assertTrue(err().startsWith("keys: " + file.path() + ":1: "), err());
        assertEquals(1, run("create", "--account", "acct-1"));
        assertEquals("", out(), "no secret printed for a key that was not stored");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "create", "create --account", "create --read-only", "create --account a --bogus",
        "create --account a --read-only --admin", "create --account a --admin --read-only",
        "create --account a --read-only --read-only", "create --account bad.account",
        "list extra", "revoke", "revoke k0000000000000000 k0000000000000001", "frobnicate"})
    void shouldExitTwoForWrongUsageAndWriteNothing(final String args) {
        final String[] words = args.isEmpty() ? new String[0] : args.split(" ");
        assertEquals(2, run(words), args + ": " + err());
        assertEquals("", out());
        assertTrue(err().contains("usage:") || err().contains("--account must be"), err());
        assertFalse(Files.exists(file.path()), "nothing written");
    }
}
