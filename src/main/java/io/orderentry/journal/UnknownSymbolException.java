package io.orderentry.journal;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A journal record names an instrument that is not in the configured instrument list: the configuration
 * changed since the record was written. Replaying it against another book would corrupt the state, so
 * recovery stops; the service must not start until the instrument list holds the name again.
 */
public final class UnknownSymbolException extends IOException {

    private static final long serialVersionUID = 1L;

    private final transient Path file;
    private final long offset;
    private final String symbol;

    /**
     * @param file   the segment file holding the record
     * @param offset byte offset of the record in {@code file}
     * @param symbol the instrument name the record carries
     */
    public UnknownSymbolException(final Path file, final long offset, final String symbol) {
        super("journal record in " + file + " at byte offset " + offset + " names symbol '" + symbol
                + "', which is not in the configured instrument list: the configuration changed since it was written");
        this.file = file;
        this.offset = offset;
        this.symbol = symbol;
    }

    /** @return the segment file holding the record */
    public Path getFile() {
        return file;
    }

    /** @return byte offset of the record in {@link #getFile()} */
    public long getOffset() {
        return offset;
    }

    /** @return the instrument name the record carries */
    public String getSymbol() {
        return symbol;
    }
}
