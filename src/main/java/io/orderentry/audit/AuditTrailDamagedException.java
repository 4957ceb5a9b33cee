package io.orderentry.audit;

import java.io.IOException;
import java.nio.file.Path;

/** The end of the trail is not a sound record, so the writer refuses to extend the chain. Names file and line. */
public final class AuditTrailDamagedException extends IOException {

    private final transient Path file;
    private final long line;

    AuditTrailDamagedException(final Path file, final long line, final String reason) {
        super(file + " line " + line + ": " + reason + "; run `java -jar order-entry.jar audit-verify` and repair or"
                + " archive the trail before starting");
        this.file = file;
        this.line = line;
    }

    /** @return the file holding the damaged record */
    public Path file() {
        return file;
    }

    /** @return the damaged record's line number, from 1 */
    public long line() {
        return line;
    }
}
