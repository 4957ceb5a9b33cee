package io.orderentry.journal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;

/**
 * Reads a journal from its first record when {@link JournalRetention} has archived its early segments: the
 * archived ones ({@code <segment>.gz}) are inflated one at a time into a working directory, beside links to the
 * live ones, and followed by a {@link JournalTail} as if the journal were whole. At most two inflated segments are
 * on disk at once (the one being read and the one before it); the working directory is removed at the end. Used by
 * {@code verify-snapshot}; never changes the journal or the archive.
 *
 * <p>Not thread safe: one caller.
 */
public final class ArchivedJournal {

    private static final Pattern NAME = Pattern.compile("\\d{20}" + Pattern.quote(JournalFormat.SEGMENT_SUFFIX)
            + "\\.gz");

    private final Path journal;
    private final List<Path> archived;
    private final long firstLive;

    private ArchivedJournal(final Path journal, final List<Path> archived, final long firstLive) {
        this.journal = journal;
        this.archived = archived;
        this.firstLive = firstLive;
    }

    /**
     * @param journal the live journal directory
     * @param archive where retention archives segments (may be null or missing)
     * @return the journal from its first record, or null when the live segments start at the first record (read
     *         them directly) or when neither they nor the archive hold it
     */
    public static ArchivedJournal fromStart(final Path journal, final Path archive) throws IOException {
        final long firstLive = JournalReader.firstSegmentSequence(journal);
        if (firstLive <= 1 || archive == null || !Files.isDirectory(archive)) {
            return null;
        }
        final List<Path> segments = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(archive)) {
            for (final Path path : stream) {
                if (NAME.matcher(path.getFileName().toString()).matches() && firstSequenceOf(path) < firstLive) {
                    segments.add(path);
                }
            }
        }
        segments.sort(null);
        if (segments.isEmpty() || firstSequenceOf(segments.get(0)) != 1) {
            return null;
        }
        return new ArchivedJournal(journal, List.copyOf(segments), firstLive);
    }

    /** @return how many archived segments the journal's start is in */
    public int archivedSegments() {
        return archived.size();
    }

    /**
     * Hands {@code consumer} every record from the journal's first up to {@code untilSequence}.
     *
     * @param work an empty directory to inflate segments into; deleted with its contents at the end
     * @return the position after the last record handed over, and how many records that was
     * @throws JournalCorruptedException if a record up to {@code untilSequence} is missing or damaged
     */
    public Read readUntil(final Path work, final Map<String, Integer> symbolIndex, final long untilSequence,
                          final RecordConsumer consumer) throws IOException {
        Files.createDirectories(work);
        try {
            for (final Path live : SegmentFiles.list(journal)) {
                Files.createSymbolicLink(work.resolve(live.getFileName()), live.toAbsolutePath());
            }
            final JournalTail tail = new JournalTail(work, symbolIndex, JournalPosition.START);
            long records = 0;
            Path previous = null;
            for (int i = 0; i < archived.size() && tail.position().sequence() < untilSequence; i++) {
                final Path inflated = inflate(archived.get(i), work);
                final long last = (i + 1 < archived.size() ? firstSequenceOf(archived.get(i + 1)) : firstLive) - 1;
                records += tail.readUntil(Math.min(untilSequence, last), consumer);
                if (previous != null) {
                    Files.delete(previous);   // the tail has moved into the segment after it
                }
                previous = inflated;
            }
            records += tail.readUntil(untilSequence, consumer);   // on into the live segments
            return new Read(tail.position(), records);
        } finally {
            deleteTree(work);
        }
    }

    /** Where a read ended and how many records it handed over. */
    public record Read(JournalPosition position, long records) {
    }

    private static Path inflate(final Path archivedSegment, final Path work) throws IOException {
        final String name = archivedSegment.getFileName().toString();
        final Path target = work.resolve(name.substring(0, name.length() - ".gz".length()));
        try (InputStream in = new GZIPInputStream(Files.newInputStream(archivedSegment), 1 << 16)) {
            Files.copy(in, target);
        }
        return target;
    }

    private static long firstSequenceOf(final Path archivedSegment) {
        final String name = archivedSegment.getFileName().toString();
        return Long.parseLong(name.substring(0, 20));
    }

    private static void deleteTree(final Path directory) throws IOException {
        if (!Files.isDirectory(directory)) {
            return;
        }
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory)) {
            for (final Path path : stream) {
                Files.delete(path);
            }
        }
        Files.delete(directory);
    }
}
