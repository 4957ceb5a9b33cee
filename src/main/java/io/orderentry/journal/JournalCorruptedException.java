package io.orderentry.journal;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The journal holds a damaged record, a sequence gap or a bad segment header somewhere other than a
 * torn tail. Recovery changes nothing on disk when it throws this; the service must not start.
 */
public final class JournalCorruptedException extends IOException {

    private static final long serialVersionUID = 1L;

    private final transient Path file;
    private final long offset;

    /**
     * @param file   the segment file holding the damage
     * @param offset byte offset in {@code file} of the damaged record or header
     * @param reason what is wrong
     */
    public JournalCorruptedException(final Path file, final long offset, final String reason) {
        super("journal corrupted in " + file + " at byte offset " + offset + ": " + reason);
        this.file = file;
        this.offset = offset;
    }

    /** @return the segment file holding the damage */
    public Path getFile() {
        return file;
    }

    /** @return byte offset in {@link #getFile()} of the damaged record or header */
    public long getOffset() {
        return offset;
    }
}
