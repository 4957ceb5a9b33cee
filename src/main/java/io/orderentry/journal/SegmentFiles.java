package io.orderentry.journal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/** Names, lists and heads segment files. Stateless; called from the journal thread or at startup. */
final class SegmentFiles {

    private static final Pattern NAME = Pattern.compile("\\d{20}" + Pattern.quote(JournalFormat.SEGMENT_SUFFIX));

    private SegmentFiles() {
    }

    /** @return the segment file in {@code directory} whose first record has {@code firstSequence} */
    static Path segmentPath(final Path directory, final long firstSequence) {
        return directory.resolve(String.format("%020d%s", firstSequence, JournalFormat.SEGMENT_SUFFIX));
    }

    /** @return the first sequence encoded in a segment's file name */
    static long firstSequenceOf(final Path segment) {
        final String name = segment.getFileName().toString();
        return Long.parseLong(name.substring(0, name.length() - JournalFormat.SEGMENT_SUFFIX.length()));
    }

    /** @return the segment files of {@code directory} in sequence order; other files are ignored */
    static List<Path> list(final Path directory) throws IOException {
        final List<Path> segments = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory)) {
            for (final Path path : stream) {
                if (NAME.matcher(path.getFileName().toString()).matches() && Files.isRegularFile(path)) {
                    segments.add(path);
                }
            }
        }
        segments.sort(null);
        return segments;
    }

    /** Fills {@code header} (cleared first, flipped after) with the header of a segment starting at {@code firstSequence}. */
    static void encodeHeader(final ByteBuffer header, final long firstSequence) {
        header.clear().order(JournalFormat.BYTE_ORDER);
        header.putInt(JournalFormat.MAGIC).putInt(JournalFormat.VERSION).putLong(firstSequence);
        header.flip();
    }

    /** Forces the directory entry of a newly created file to the device. */
    static void syncDirectory(final Path directory) throws IOException {
        try (FileChannel dir = FileChannel.open(directory, StandardOpenOption.READ)) {
            dir.force(true);
        }
    }
}
