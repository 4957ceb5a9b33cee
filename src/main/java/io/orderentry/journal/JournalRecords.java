package io.orderentry.journal;

import io.orderentry.pipeline.OrderCommand;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * The journal's record format (see {@link JournalFormat}) for a log other than the journal's segments: cluster mode
 * sends each command through Aeron Cluster's replicated log as exactly the record the journal would write, so that
 * the two logs say the same thing in the same bytes and one decoder serves recovery from either. Not thread-safe: one
 * instance per thread.
 */
public final class JournalRecords {

    private final RecordEncoder encoder;
    private final RecordDecoder decoder;
    private final CRC32C crc = new CRC32C();
    private final Path origin;

    /**
     * @param symbolNames instrument names by index, as configured
     * @param symbolIndex the same, name to index
     * @param origin      what error messages name as the records' file (the cluster's log)
     */
    public JournalRecords(final String[] symbolNames, final Map<String, Integer> symbolIndex, final Path origin) {
        this.encoder = new RecordEncoder(symbolNames, false);   // the cluster's messages carry the origin
        this.decoder = new RecordDecoder(new SymbolLookup(symbolIndex));
        this.origin = origin;
    }

    /** @return the most bytes one record takes */
    public static int maxRecordSize() {
        return JournalFormat.MAX_RECORD_SIZE;
    }

    /**
     * Appends the record of {@code command} (its {@code sequence} and {@code timestampMicros} included, 0 when the log
     * assigns them later) at {@code buffer}'s position, which it advances.
     *
     * @param buffer a buffer in {@link JournalFormat#BYTE_ORDER} with at least {@link #maxRecordSize()} bytes left
     * @return the record's length
     * @throws IllegalArgumentException when the command cannot be encoded (see {@code RecordEncoder}); the buffer is
     *                                  then unchanged
     */
    public int encode(final OrderCommand command, final ByteBuffer buffer) {
        final int start = buffer.position();
        encoder.encode(command, buffer, buffer.duplicate().order(JournalFormat.BYTE_ORDER));
        return buffer.position() - start;
    }

    /**
     * Checks the CRC of the record at {@code buffer[start, start + length)} and decodes it into {@code command} (reset
     * first; {@code requestId} 0 and {@code replyTo} -1).
     *
     * @param position where the record is in its log, for error messages
     * @throws JournalCorruptedException when the length, the CRC or a field is wrong
     * @throws UnknownSymbolException    when it names an instrument that is not configured here
     */
    public void decode(final ByteBuffer buffer, final int start, final int length, final OrderCommand command,
                       final long position) throws JournalCorruptedException, UnknownSymbolException {
        if (length < JournalFormat.MIN_RECORD_SIZE || length > JournalFormat.MAX_RECORD_SIZE
                || buffer.getInt(start) != length) {
            throw new JournalCorruptedException(origin, position, "record length " + length + " (header says "
                    + (length >= 4 ? buffer.getInt(start) : -1) + ")");
        }
        crc.reset();
        crc.update(buffer.duplicate().limit(start + length).position(start + JournalFormat.CRC_START));
        if ((int) crc.getValue() != buffer.getInt(start + 4)) {
            throw new JournalCorruptedException(origin, position, "CRC mismatch");
        }
        decoder.decode(buffer, start, length, command, origin, position);
    }
}
