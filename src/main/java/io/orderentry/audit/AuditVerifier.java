package io.orderentry.audit;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * Checks a whole trail: every file in chain order, every line a sound record (see {@link AuditFormat}), seqs
 * 1, 2, 3, ... without a gap across files, each {@code prevHash} equal to the previous record's {@code hash}
 * (64 zeros for seq 1), and each file's name naming the seq of its first record. Any edited byte, deleted,
 * inserted or reordered line, or deleted or renamed file in the middle breaks one of these at the first
 * affected line. What it cannot see is a cut at the very end (the newest records or files removed): compare
 * the head hash it prints with one kept elsewhere. Stateless; reads files sequentially.
 */
public final class AuditVerifier {

    private static final int MAX_LINE_BYTES = 1 << 20;

    private AuditVerifier() {
    }

    /**
     * @param directory the trail's directory
     * @return intact, or the first broken record
     * @throws IOException if the directory or a file cannot be read
     */
    public static AuditVerification verify(final Path directory) throws IOException {
        if (!Files.isDirectory(directory)) {
            throw new NotDirectoryException(directory.toString());
        }
        final List<Path> files = AuditFiles.list(directory);
        final Walk walk = new Walk();
        if (files.isEmpty()) {
            return walk.broken(null, 0, "no audit files in " + directory + " (a started service always writes one)");
        }
        for (final Path file : files) {
            final AuditVerification broken = walk.file(file);
            if (broken != null) {
                return broken;
            }
        }
        return new AuditVerification(walk.files, walk.records, walk.lastHash, walk.firstTime, walk.lastTime, null, 0,
                null);
    }

    /** The state of one verification, file after file. */
    private static final class Walk {
        private final RecordCheck check = new RecordCheck();
        private byte[] line = new byte[4096];
        private int files;
        private long records;
        private String lastHash;
        private String firstTime;
        private String lastTime;

        /** @return null if the file is sound and chained, else the break */
        AuditVerification file(final Path file) throws IOException {
            files++;
            final long named = AuditFiles.firstSeqOf(file);
            long lineNumber = 0;
            try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 64 * 1024)) {
                while (true) {
                    final int length = readLine(in);
                    if (length == -1) {
                        return null;
                    }
                    lineNumber++;
                    if (length == -2) {
                        return broken(file, lineNumber, "the last line has no line end (a write torn by a crash;"
                                + " the service cuts it when it starts)");
                    }
                    if (length == -3) {
                        return broken(file, lineNumber, "the line is longer than " + MAX_LINE_BYTES + " bytes");
                    }
                    final AuditVerification broken = record(file, lineNumber, length, named);
                    if (broken != null) {
                        return broken;
                    }
                }
            }
        }

        private AuditVerification record(final Path file, final long lineNumber, final int length, final long named) {
            final RecordCheck.Checked record;
            try {
                record = check.check(line, length);
            } catch (final RecordCheck.BrokenRecordException e) {
                return broken(file, lineNumber, e.getMessage());
            }
            final long expected = records + 1;
            if (record.seq() != expected) {
                return broken(file, lineNumber, "seq " + record.seq() + " where " + expected + " was expected: a"
                        + " record is missing, inserted or out of order before this line");
            }
            final String expectedPrev = records == 0 ? AuditFormat.GENESIS_HASH : lastHash;
            if (!record.prevHash().equals(expectedPrev)) {
                return broken(file, lineNumber, "prevHash does not match the hash of the record before it: that"
                        + " record was replaced, or this one was moved here");
            }
            if (lineNumber == 1 && named != record.seq()) {
                return broken(file, lineNumber, "the file name says its first seq is " + named + " but the record"
                        + " has " + record.seq() + ": the file was renamed or records moved between files");
            }
            records++;
            lastHash = record.hash();
            lastTime = record.time();
            if (firstTime == null) {
                firstTime = record.time();
            }
            return null;
        }

        /** @return the line's length; -1 at the end of the file, -2 for a last line without '\n', -3 if too long */
        private int readLine(final InputStream in) throws IOException {
            int length = 0;
            for (int b = in.read(); ; b = in.read()) {
                if (b < 0) {
                    return length == 0 ? -1 : -2;
                }
                if (b == '\n') {
                    return length;
                }
                if (length == MAX_LINE_BYTES) {
                    return -3;
                }
                if (length == line.length) {
                    line = Arrays.copyOf(line, line.length * 2);
                }
                line[length++] = (byte) b;
            }
        }

        AuditVerification broken(final Path file, final long lineNumber, final String reason) {
            return new AuditVerification(files, records, lastHash, firstTime, lastTime, file, lineNumber, reason);
        }
    }
}
