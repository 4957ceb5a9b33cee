package io.orderentry.audit;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Names and lists the trail's files: {@code audit-<UTC day>-<seq of the first record, 19 digits>.jsonl}, e.g.
 * {@code audit-2026-11-22-0000000000000001017.jsonl}. The chain runs through the files in the order of that
 * first seq. Stateless.
 */
public final class AuditFiles {

    /** Microseconds in one UTC day. */
    public static final long MICROS_PER_DAY = 86_400_000_000L;
    private static final Pattern NAME = Pattern.compile("audit-(\\d{4}-\\d{2}-\\d{2})-(\\d{19})\\.jsonl");

    private AuditFiles() {
    }

    /** @return the file that starts with record {@code firstSeq}, written on UTC day {@code epochDay} */
    public static Path path(final Path directory, final long epochDay, final long firstSeq) {
        return directory.resolve(String.format("audit-%s-%019d.jsonl", LocalDate.ofEpochDay(epochDay), firstSeq));
    }

    /** @return the seq of the first record, from the file's name */
    public static long firstSeqOf(final Path file) {
        return Long.parseLong(matcher(file).group(2));
    }

    /** @return the UTC day (days since the epoch) from the file's name */
    public static long epochDayOf(final Path file) {
        return LocalDate.parse(matcher(file).group(1)).toEpochDay();
    }

    /** @return the UTC day of a time in microseconds since the epoch */
    public static long epochDay(final long epochMicros) {
        return Math.floorDiv(epochMicros, MICROS_PER_DAY);
    }

    /** @return the trail's files in chain order (by first seq); files with other names are ignored */
    public static List<Path> list(final Path directory) throws IOException {
        final List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory)) {
            for (final Path path : stream) {
                if (NAME.matcher(path.getFileName().toString()).matches() && Files.isRegularFile(path)) {
                    files.add(path);
                }
            }
        }
        files.sort(Comparator.comparingLong(AuditFiles::firstSeqOf).thenComparing(Path::getFileName));
        return files;
    }

    /** Forces the directory entry of a newly created file to the device. */
    static void syncDirectory(final Path directory) throws IOException {
        try (FileChannel dir = FileChannel.open(directory, StandardOpenOption.READ)) {
            dir.force(true);
        }
    }

    private static Matcher matcher(final Path file) {
        final Matcher matcher = NAME.matcher(file.getFileName().toString());
        if (!matcher.matches()) {
            throw new IllegalArgumentException(file + " is not an audit file name");
        }
        return matcher;
    }
}
