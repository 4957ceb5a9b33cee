package io.orderentry.audit;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;

/**
 * {@code java -jar order-entry.jar audit-verify [dir [archive-dir]]}: verifies the whole trail, with its archived
 * files when the archive directory holds them (else from the anchor their archiving left), and prints one line. Exit status
 * 0 when intact and complete ({@code OK: ...} with the record count, the head hash and the journaled commands covered),
 * 1 when broken ({@code BROKEN: file line N: reason}), 2 when the trail cannot be read, 3 when the chain is intact but
 * journaled commands between the first and the last recorded lack a record or have two ({@code INCOMPLETE: ...}). Runs on the caller's thread; never writes to the trail.
 */
public final class AuditVerifyCommand {

    /** Exit status: the chain is intact. */
    public static final int INTACT = 0;
    /** Exit status: a record is broken; the output names it. */
    public static final int BROKEN = 1;
    /** Exit status: the trail could not be read. */
    public static final int UNREADABLE = 2;
    /** Exit status: the chain is intact, but journaled commands lack a record (or have two); the output names them. */
    public static final int INCOMPLETE = 3;

    private AuditVerifyCommand() {
    }

    /**
     * Verifies {@code directory} and prints the outcome to {@code out}, or why it cannot be read to {@code err}.
     *
     * @return the exit status: {@link #INTACT}, {@link #BROKEN}, {@link #UNREADABLE} or {@link #INCOMPLETE}
     */
    public static int run(final Path directory, final PrintStream out, final PrintStream err) {
        return run(directory, null, out, err);
    }

    /** {@link #run(Path, PrintStream, PrintStream)} with the archived files in {@code archive} (may be null). */
    public static int run(final Path directory, final Path archive, final PrintStream out, final PrintStream err) {
        final AuditVerification verification;
        try {
            verification = AuditVerifier.verify(directory, archive);
        } catch (final IOException e) {
            err.println("audit-verify: cannot read " + directory + ": " + e);
            return UNREADABLE;
        }
        out.println("audit-verify " + directory.toAbsolutePath().normalize() + ": " + verification.summary());
        if (!verification.intact()) {
            return BROKEN;
        }
        return verification.complete() ? INTACT : INCOMPLETE;
    }
}
