package io.orderentry.auth;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The key a first start makes, so that the README's example order works at once: a {@code trade} key for account
 * {@value #ACCOUNT} in a new keys file, its secret written to {@code demo-key} beside that file, readable by its
 * owner only (mode {@code rw-------}), never to the log: log storage keeps what it is given, and is read by more
 * people than the service's own files. {@code export KEY=$(cat data/demo-key)} then places orders.
 *
 * <p>Called once, on the service's main thread at start, before the keys file exists.
 */
public final class DemoKey {

    /** The account of the key. */
    public static final String ACCOUNT = "demo";
    /** The name of the secret's file, in the keys file's directory. */
    public static final String FILE_NAME = "demo-key";

    private DemoKey() {
    }

    /** @return where {@link #create} writes the secret for the keys file {@code keysFile} */
    public static Path secretFile(final Path keysFile) {
        return keysFile.toAbsolutePath().normalize().resolveSibling(FILE_NAME);
    }

    /**
     * Creates the keys file with the demo key and writes the key's secret, with a line end, to {@link #secretFile}
     * (replacing a file left there by an earlier keys file). The secret file is made private before it holds the
     * secret, and renamed into place whole. If it cannot be written the keys file is removed again, so that the next
     * start tries again instead of holding a key nobody can use.
     *
     * @return the secret's file
     * @throws IOException when the keys file or the secret's file cannot be written
     */
    public static Path create(final KeysFile keys) throws IOException {
        final String secret = KeysCommand.create(keys, ACCOUNT, Permission.TRADE);
        final Path target = secretFile(keys.path());
        try {
            PrivateFiles.write(target, secret + "\n");
        } catch (final IOException e) {
            Files.deleteIfExists(keys.path());
            throw new IOException("the demo key's secret cannot be written to " + target + " (" + e.getMessage()
                    + "); the keys file was removed again, the next start tries again", e);
        }
        return target;
    }
}
