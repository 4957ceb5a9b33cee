package io.orderentry.persistence;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Names, lists and clears spool segment files ({@code 00000000000000000001.spool}, numbered from 1 in
 * the order they are written). Stateless; called at startup and from the stage and writer threads.
 */
final class SpoolFiles {

    static final String SUFFIX = ".spool";
    private static final Pattern NAME = Pattern.compile("\\d{20}" + Pattern.quote(SUFFIX));

    private SpoolFiles() {
    }

    /** @return the path of segment number {@code index} in {@code directory} */
    static Path segment(final Path directory, final long index) {
        return directory.resolve(String.format("%020d%s", index, SUFFIX));
    }

    /** @return the spool segments in {@code directory} in write order; other files are ignored */
    static List<Path> list(final Path directory) throws IOException {
        final List<Path> segments = new ArrayList<>();
        if (!Files.isDirectory(directory)) {
            return segments;
        }
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

    /**
     * Creates {@code directory} if needed and deletes every spool segment in it: the spool is derived
     * from the journal and rebuilt by replay at every start.
     *
     * @return how many bytes of old segments were deleted
     */
    static long reset(final Path directory) throws IOException {
        Files.createDirectories(directory);
        long deleted = 0;
        for (final Path segment : list(directory)) {
            deleted += Files.size(segment);
            Files.delete(segment);
        }
        return deleted;
    }
}
