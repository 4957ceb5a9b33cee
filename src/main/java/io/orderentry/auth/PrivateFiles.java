package io.orderentry.auth;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Files that only their owner may read or write: the API keys file, the demo key's secret, a cluster's shared secret.
 * One way to write them and one test of whether they still are. Stateless; any thread.
 */
public final class PrivateFiles {

    private PrivateFiles() {
    }

    /**
     * @param permissions a file's permissions, or null where the file system has no POSIX permissions (then the
     *                    directory's own protection applies)
     * @return null when neither group nor others may read or write the file, else its mode for a message, as
     *         {@code mode 0644, rw-r--r--}
     */
    public static String exposure(final Set<PosixFilePermission> permissions) {
        if (permissions == null) {
            return null;
        }
        for (final PosixFilePermission permission : permissions) {
            switch (permission) {
                case GROUP_READ, GROUP_WRITE, OTHERS_READ, OTHERS_WRITE -> {
                    return "mode " + mode(permissions) + ", " + PosixFilePermissions.toString(permissions);
                }
                default -> {
                }
            }
        }
        return null;
    }

    /** @return {@code file}'s permissions, or null where the file system has no POSIX permissions */
    public static Set<PosixFilePermission> permissionsOf(final Path file) throws IOException {
        try {
            return Files.getPosixFilePermissions(file);
        } catch (final UnsupportedOperationException notPosix) {
            return null;
        }
    }

    /** @return {@code permissions} as an octal mode, {@code 0644} */
    static String mode(final Set<PosixFilePermission> permissions) {
        int mode = 0;
        for (final PosixFilePermission permission : permissions) {
            mode |= 0400 >> permission.ordinal();   // the enum runs OWNER_READ .. OTHERS_EXECUTE, as the mode's bits
        }
        return String.format("0%03o", mode);
    }

    /**
     * Replaces {@code target} whole with {@code text} (UTF-8), forced to the device, in a file made readable by its
     * owner only before it holds anything: a temporary file beside it, renamed into place.
     *
     * @throws IOException when it cannot be written; {@code target} is then as it was
     */
    public static void write(final Path target, final String text) throws IOException {
        final Path temporary = Files.createTempFile(target.toAbsolutePath().getParent(),
                target.getFileName().toString(), ".tmp");
        try {
            try {
                Files.setPosixFilePermissions(temporary, PosixFilePermissions.fromString("rw-------"));
            } catch (final UnsupportedOperationException notPosix) {
                // a file system without POSIX permissions: the directory's own protection applies
            }
            try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                channel.write(StandardCharsets.UTF_8.encode(text));
                channel.force(true);
            }
            try {
                Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (final AtomicMoveNotSupportedException e) {
                Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(temporary);
        }
    }
}
