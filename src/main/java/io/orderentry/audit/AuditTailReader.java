package io.orderentry.audit;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds where the trail ends, at startup, reading only the tail of the newest file(s):
 * <ul>
 *   <li>an empty newest file (a crash between creating it and writing to it) holds nothing and is deleted;</li>
 *   <li>a newest file whose last line has no {@code '\n'} was torn by a machine crash mid-write: the partial line
 *       is cut off with a warning naming the file, the offset and the bytes cut;</li>
 *   <li>the last record must be sound on its own (well formed, hash matching its content), or startup fails
 *       with {@link AuditTrailDamagedException}: the service never extends a broken chain;</li>
 *   <li>records are then read backwards to the newest command record (not a start, not an edge refusal), and the
 *       highest journal sequence named on the way is the trail's: a start may name a lower one than the commands
 *       before it (a cluster member restarted from an older snapshot), and taking it would audit those commands
 *       twice; a new trail's only start names the journal it began beside.</li>
 * </ul>
 * The full chain is not checked here; that is {@link AuditVerifier}'s job. Called on the starting thread.
 */
public final class AuditTailReader {

    private static final Logger LOG = LoggerFactory.getLogger(AuditTailReader.class);

    private AuditTailReader() {
    }

    /**
     * @param directory the trail's directory, created if missing
     * @return where to continue the chain
     * @throws AuditTrailDamagedException if the last record is not sound
     * @throws IOException                if the directory or a file cannot be read, cut or deleted
     */
    public static AuditTail read(final Path directory) throws IOException {
        Files.createDirectories(directory);
        final List<Path> files = AuditFiles.list(directory);
        while (!files.isEmpty()) {
            final Path newest = files.get(files.size() - 1);
            if (cutTornTail(newest) > 0) {
                return tail(files);
            }
            LOG.info("audit: deleting {}, which holds no record", newest);
            Files.delete(newest);
            files.remove(files.size() - 1);
        }
        final AuditArchiver.Anchor anchor = AuditArchiver.readAnchor(directory);
        if (anchor != null) {
            LOG.info("audit: every file was archived; the trail continues from the anchor at seq {}", anchor.seq());
            return new AuditTail(anchor.seq(), anchor.hash(), Math.max(anchor.journalSequence(), 0), null, 0);
        }
        return new AuditTail(0, AuditFormat.GENESIS_HASH, -1, null, 0);
    }

    private static AuditTail tail(final List<Path> files) throws IOException {
        final Path newest = files.get(files.size() - 1);
        final RecordCheck check = new RecordCheck();
        RecordCheck.Checked last = null;
        long journal = -1;
        boolean command = false;
        for (int i = files.size() - 1; i >= 0 && !command; i--) {
            try (ReverseLineReader lines = new ReverseLineReader(files.get(i))) {
                while (!command && lines.previous()) {
                    final RecordCheck.Checked record = checked(check, lines, files.get(i), last == null);
                    if (last == null) {
                        last = record;
                    }
                    if (record != null && record.hasJournalSequence()) {
                        journal = Math.max(journal, record.journalSequence());
                        command = CommandSequences.isCommand(record);
                    }
                }
            }
        }
        return new AuditTail(last.seq(), last.hash(), Math.max(journal, 0), newest, Files.size(newest));
    }

    /** @return the record, or null for an older damaged line (only the last record must be sound here) */
    private static RecordCheck.Checked checked(final RecordCheck check, final ReverseLineReader lines, final Path file,
                                               final boolean lastRecord) throws IOException {
        try {
            return check.check(lines.lineBytes(), lines.lineLength());
        } catch (final RecordCheck.BrokenRecordException e) {
            if (lastRecord) {
                throw new AuditTrailDamagedException(file, lineCount(file), "the last record is damaged: "
                        + e.getMessage());
            }
            return null;
        }
    }

    /** Cuts a partial last line; @return the file's size afterwards */
    private static long cutTornTail(final Path file) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            final long size = channel.size();
            final long keep = afterLastNewline(channel, size);
            if (keep == size) {
                return size;
            }
            LOG.warn("audit: cut a torn record off the end of {}: {} bytes from offset {} had no line end (a write"
                    + " interrupted by a machine crash); a restart re-audits journaled commands whose record was lost",
                    file, size - keep, keep);
            channel.truncate(keep);
            channel.force(true);
            return keep;
        }
    }

    /** @return the offset just after the last {@code '\n'} of the file, 0 if it has none */
    private static long afterLastNewline(final FileChannel channel, final long size) throws IOException {
        final ByteBuffer chunk = ByteBuffer.allocate(64 * 1024);
        long end = size;
        while (end > 0) {
            final int length = (int) Math.min(chunk.capacity(), end);
            chunk.clear().limit(length);
            while (chunk.hasRemaining()) {
                if (channel.read(chunk, end - length + chunk.position()) < 0) {
                    throw new IOException("the file shrank while it was read");
                }
            }
            for (int i = length - 1; i >= 0; i--) {
                if (chunk.get(i) == '\n') {
                    return end - length + i + 1;
                }
            }
            end -= length;
        }
        return 0;
    }

    private static long lineCount(final Path file) throws IOException {
        long lines = 0;
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 64 * 1024)) {
            for (int b = in.read(); b >= 0; b = in.read()) {
                if (b == '\n') {
                    lines++;
                }
            }
        }
        return lines;
    }
}
