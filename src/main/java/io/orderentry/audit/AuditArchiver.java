package io.orderentry.audit;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.Writer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.zip.GZIPOutputStream;

/**
 * Moves old audit files out of the trail's directory: each file written before a UTC day (never the newest, which
 * the trail appends to) is compressed into the archive directory ({@code <name>.gz}, written to a temporary name,
 * forced and renamed), then {@value #ANCHOR} in the trail's directory is updated to the seq and hash of its last
 * record, and only then is the file deleted. The anchor is the checkpoint {@link AuditVerifier} continues the chain
 * from when the archived files are not at hand; with them, it verifies the whole chain from the first record.
 *
 * <p>Call from one thread at a time, beside a running trail: it never touches the newest file.
 */
public final class AuditArchiver {

    /** The checkpoint file in the trail's directory. */
    public static final String ANCHOR = "audit-anchor.properties";

    /**
     * The last archived record: where the chain in the trail's directory continues from.
     *
     * @param journalSequence the highest journal sequence the archived records mention (-1: none), for the trail's
     *                        backfill when no file is left in the directory
     */
    public record Anchor(long seq, String hash, long journalSequence) {
    }

    private final Path directory;
    private final Path archive;

    public AuditArchiver(final Path directory, final Path archive) {
        this.directory = directory;
        this.archive = archive;
    }

    /**
     * Archives every file written before UTC day {@code beforeEpochDay}, oldest first, never the newest file.
     *
     * @return the files archived
     */
    public List<Path> archiveBefore(final long beforeEpochDay) throws IOException {
        final List<Path> files = AuditFiles.list(directory);
        final List<Path> archived = new ArrayList<>();
        for (int i = 0; i < files.size() - 1; i++) {
            final Path file = files.get(i);
            if (AuditFiles.epochDayOf(file) >= beforeEpochDay) {
                break;
            }
            final Anchor last = compress(file);
            writeAnchor(last);
            Files.delete(file);
            archived.add(file);
        }
        if (!archived.isEmpty()) {
            AuditFiles.syncDirectory(directory);
        }
        return archived;
    }

    /** @return the anchor in {@code directory}, or null when nothing was archived from it */
    public static Anchor readAnchor(final Path directory) throws IOException {
        final Path file = directory.resolve(ANCHOR);
        if (!Files.exists(file)) {
            return null;
        }
        final Properties properties = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(in);
        }
        try {
            final String hash = properties.getProperty("lastArchivedHash");
            if (hash == null || hash.length() != 64) {
                throw new IOException(file + ": lastArchivedHash is missing or malformed");
            }
            return new Anchor(Long.parseLong(properties.getProperty("lastArchivedSeq")), hash,
                    Long.parseLong(properties.getProperty("lastJournalSequence", "-1")));
        } catch (final NumberFormatException e) {
            throw new IOException(file + ": lastArchivedSeq is missing or malformed", e);
        }
    }

    /** Compresses one file into the archive and returns its last record's seq and hash (it must be intact). */
    private Anchor compress(final Path file) throws IOException {
        RecordCheck.Checked last = null;
        long journal = -1;
        final RecordCheck check = new RecordCheck();
        try (ReverseLineReader lines = new ReverseLineReader(file)) {
            while ((last == null || journal < 0) && lines.previous()) {
                final RecordCheck.Checked record;
                try {
                    record = check.check(lines.lineBytes(), lines.lineLength());
                } catch (final RecordCheck.BrokenRecordException e) {
                    throw new IOException(file + ": a record near its end is broken (" + e.getMessage()
                            + "); run audit-verify before archiving", e);
                }
                if (last == null) {
                    last = record;
                }
                if (record.hasJournalSequence()) {
                    journal = record.journalSequence();
                }
            }
        }
        if (last == null) {
            throw new IOException(file + " holds no record");
        }
        Files.createDirectories(archive);
        final Path target = archive.resolve(file.getFileName() + ".gz");
        final Path temporary = archive.resolve(file.getFileName() + ".gz.tmp");
        try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            final GZIPOutputStream gzip = new GZIPOutputStream(Channels.newOutputStream(channel), 1 << 16);
            try (InputStream in = Files.newInputStream(file)) {
                in.transferTo(gzip);
            }
            gzip.finish();
            channel.force(true);
        }
        Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        AuditFiles.syncDirectory(archive);
        return new Anchor(last.seq(), last.hash(), journal);
    }

    private void writeAnchor(final Anchor anchor) throws IOException {
        final Path target = directory.resolve(ANCHOR);
        final Path temporary = directory.resolve(ANCHOR + ".tmp");
        try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            final Writer out = Channels.newWriter(channel, StandardCharsets.UTF_8);
            out.write("# The audit trail's files before this record were archived to " + archive.toAbsolutePath()
                    + ";\n# the chain in this directory continues from it. Written by the service; do not edit.\n");
            out.write("lastArchivedSeq=" + anchor.seq() + "\nlastArchivedHash=" + anchor.hash()
                    + "\nlastJournalSequence=" + anchor.journalSequence() + "\n");
            out.flush();
            channel.force(true);
        }
        Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        AuditFiles.syncDirectory(directory);
    }

    /** @return an archived file's content, decompressed, for the verifier */
    static InputStream openArchived(final Path file) throws IOException {
        return new java.util.zip.GZIPInputStream(Files.newInputStream(file), 1 << 16);
    }

    /** @return whether a name is an archived audit file, and its first seq */
    static long archivedFirstSeq(final Path file) {
        final String name = file.getFileName().toString();
        return AuditFiles.firstSeqOf(file.resolveSibling(name.substring(0, name.length() - ".gz".length())));
    }
}
