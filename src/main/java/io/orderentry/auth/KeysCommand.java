package io.orderentry.auth;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;

/**
 * {@code java -jar order-entry.jar keys create|list|revoke}: manages the keys file while the service runs or not; the
 * service picks up the change within a second.
 *
 * <ul>
 *   <li>{@code keys create --account ACCOUNT [--read-only | --admin]}: prints the new secret alone on standard output
 *       (so {@code SECRET=$(... keys create --account a)} works) and what it is on standard error. The secret is
 *       shown this once; only its SHA-256 is stored.</li>
 *   <li>{@code keys list}: one line per key: id, account, permission, created, revoked or {@code active}.</li>
 *   <li>{@code keys revoke KEY_ID}: the key stops authenticating within a second; it stays listed.</li>
 * </ul>
 * Exit status: 0 done, 1 failed (the file cannot be read or written, no such key), 2 wrong usage.
 */
public final class KeysCommand {

    private KeysCommand() {
    }

    /** Runs the command {@code args} (after the word {@code keys}) against {@code file}. */
    public static int run(final List<String> args, final KeysFile file, final PrintStream out, final PrintStream err) {
        if (args.isEmpty()) {
            return usage(err);
        }
        try {
            return switch (args.get(0)) {
                case "create" -> create(args.subList(1, args.size()), file, out, err);
                case "list" -> args.size() == 1 ? list(file, out) : usage(err);
                case "revoke" -> args.size() == 2 ? revoke(args.get(1), file, err) : usage(err);
                default -> usage(err);
            };
        } catch (final IOException e) {
            err.println("keys: " + e.getMessage());
            return 1;
        }
    }

    /**
     * Creates a key and writes it to the file.
     *
     * @return the secret, which is not stored anywhere
     */
    public static String create(final KeysFile file, final String account, final Permission permission)
            throws IOException {
        if (!KeysFile.validAccount(account)) {
            throw new IllegalArgumentException("account must be 1-64 of [A-Za-z0-9_-], was '" + account + "'");
        }
        final String[] secret = new String[1];
        file.update(keys -> {
            String keyId = Secrets.newKeyId();
            while (keys.containsKey(keyId)) {
                keyId = Secrets.newKeyId();
            }
            secret[0] = Secrets.newSecret(keyId);
            keys.put(keyId, new ApiKey(keyId, account, permission, Instant.now().truncatedTo(ChronoUnit.SECONDS), null,
                    Secrets.hash(secret[0])));
            return keys;
        });
        return secret[0];
    }

    private static int create(final List<String> args, final KeysFile file, final PrintStream out,
                              final PrintStream err) throws IOException {
        String account = null;
        Permission permission = Permission.TRADE;
        for (int i = 0; i < args.size(); i++) {
            switch (args.get(i)) {
                case "--account" -> {
                    if (i + 1 == args.size()) {
                        return usage(err);
                    }
                    account = args.get(++i);
                }
                case "--read-only" -> permission = permission == Permission.TRADE ? Permission.READ : null;
                case "--admin" -> permission = permission == Permission.TRADE ? Permission.ADMIN : null;
                default -> {
                    return usage(err);
                }
            }
        }
        if (account == null || permission == null) {
            return usage(err);
        }
        if (!KeysFile.validAccount(account)) {
            err.println("keys: --account must be 1-64 of [A-Za-z0-9_-], was '" + account + "'");
            return 2;
        }
        final String secret = create(file, account, permission);
        out.println(secret);
        out.flush();
        err.println("created key " + Secrets.keyIdOf(secret) + " for account " + account + " (" + permission.wireName()
                + ") in " + file.path() + "; the secret above is shown only this once. Use it as"
                + " 'Authorization: Bearer <secret>'.");
        return 0;
    }

    private static int list(final KeysFile file, final PrintStream out) throws IOException {
        out.println("keyId             account  permission  created  revoked");
        for (final ApiKey key : file.list()) {
            out.println(key.keyId() + " " + key.account() + " " + key.permission().wireName() + " " + key.created()
                    + " " + (key.revoked() == null ? "active" : "revoked " + key.revoked()));
        }
        return 0;
    }

    private static int revoke(final String keyId, final KeysFile file, final PrintStream err) throws IOException {
        final boolean[] found = new boolean[1];
        final boolean[] already = new boolean[1];
        file.update(keys -> {
            final ApiKey key = keys.get(keyId);
            found[0] = key != null;
            if (key != null) {
                already[0] = !key.active();
                if (key.active()) {
                    keys.put(keyId, key.revokedAt(Instant.now().truncatedTo(ChronoUnit.SECONDS)));
                }
            }
            return keys;
        });
        if (!found[0]) {
            err.println("keys: no key " + keyId + " in " + file.path());
            return 1;
        }
        err.println(already[0] ? "key " + keyId + " was already revoked"
                : "revoked key " + keyId + "; the service refuses it within a second");
        return 0;
    }

    private static int usage(final PrintStream err) {
        err.println("usage: java -jar order-entry.jar keys create --account ACCOUNT [--read-only | --admin]");
        err.println("       java -jar order-entry.jar keys list");
        err.println("       java -jar order-entry.jar keys revoke KEY_ID");
        err.println("The keys file is ORDERS_AUTH_KEYS_FILE (default: 'keys' beside the journal directory).");
        return 2;
    }

    /** @return the number of keys in {@code keys} that are valid (for the first-start message) */
    static long active(final Map<String, ApiKey> keys) {
        return keys.values().stream().filter(ApiKey::active).count();
    }
}
