package io.orderentry.journal;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.zip.GZIPOutputStream;

/**
 * Removes the journal segments that lie wholly before a position no recovery will replay from again (the oldest
 * snapshot kept): deletes them, or first compresses each into an archive directory ({@code <segment>.gz}, written to
 * a temporary name, forced and renamed, so an archive never holds half a segment). Never touches the segment that
 * holds the position or any after it, so neither the writer (which appends to the last segment) nor a reader
 * following the journal from a kept snapshot meets a missing file.
 *
 * <p>Not thread safe: one caller (the snapshot writer's thread).
 */
public final class JournalRetention {

    /** What happens to a segment no snapshot needs any more. */
    public enum Mode {
        /** Nothing is removed: a whole replay stays possible. */
        KEEP,
        /** Deleted. */
        DELETE,
        /** Compressed into the archive directory, then deleted. */
        ARCHIVE
    }

    private final Path directory;
    private final Mode mode;
    private final Path archive;

    /**
     * @param archive where {@link Mode#ARCHIVE} puts the compressed segments; unused otherwise
     */
    public JournalRetention(final Path directory, final Mode mode, final Path archive) {
        this.directory = directory;
        this.mode = mode;
        this.archive = archive;
    }

    /**
     * Removes, per the mode, every segment wholly before {@code oldestNeeded}.
     *
     * @return the segments removed (archived or deleted), oldest first
     */
    public List<Path> removeBefore(final JournalPosition oldestNeeded) throws IOException {
        if (mode == Mode.KEEP || !Files.isDirectory(directory)) {
            return List.of();
        }
        final List<Path> segments = SegmentFiles.list(directory);
        final List<Path> removable = segments.stream()
                .filter(s -> SegmentFiles.firstSequenceOf(s) < oldestNeeded.segmentFirstSequence())
                .limit(Math.max(0, segments.size() - 1))    // never the last: the writer's
                .toList();
        for (final Path segment : removable) {
            if (mode == Mode.ARCHIVE) {
                archive(segment);
            }
            Files.delete(segment);
        }
        if (!removable.isEmpty()) {
            SegmentFiles.syncDirectory(directory);
        }
        return removable;
    }

    private void archive(final Path segment) throws IOException {
        Files.createDirectories(archive);
        final Path target = archive.resolve(segment.getFileName() + ".gz");
        final Path temporary = archive.resolve(segment.getFileName() + ".gz.tmp");
        try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            try (InputStream in = Files.newInputStream(segment);
                 OutputStream gzip = new GZIPOutputStream(Channels.newOutputStream(channel), 1 << 16) {
                     @Override
                     public void close() throws IOException {
                         finish();   // the channel is forced and closed by the outer block
                     }
                 }) {
                in.transferTo(gzip);
            }
            channel.force(true);
        }
        Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        SegmentFiles.syncDirectory(archive);
    }
}
