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
 * the head hash it prints with one kept elsewhere.
 *
 * <p>Completeness, apart from the chain: every journaled command (a record of a place, cancel, amend, cancel-all or
 * band change that names its journal sequence) from the first such record to the last must be there once, in
 * sequence order. In cluster mode the sequence is the command's number in the cluster's log, so a member's trail
 * that lacks another member's commands is found incomplete (issue 34). A trail that starts later than sequence 1 (a
 * new trail beside an older journal, or archived files not given) is checked from its first command on. Stateless;
 * reads files sequentially.
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
        return verify(directory, null);
    }

    /**
     * {@link #verify(Path)}, for a trail whose older files may have been archived ({@link AuditArchiver}): with the
     * archived files in {@code archive}, the whole chain is checked from the first record, archived files first;
     * without them, the chain in {@code directory} is checked from the anchor (the last archived record's seq and
     * hash) on, and the result says so.
     *
     * @param archive the archive directory, or null
     */
    public static AuditVerification verify(final Path directory, final Path archive) throws IOException {
        if (!Files.isDirectory(directory)) {
            throw new NotDirectoryException(directory.toString());
        }
        final List<Path> live = AuditFiles.list(directory);
        final List<Path> archived = archived(archive);
        final AuditArchiver.Anchor anchor = AuditArchiver.readAnchor(directory);
        final Walk walk = new Walk();
        if (live.isEmpty() && archived.isEmpty()) {
            return walk.broken(null, 0, "no audit files in " + directory + " (a started service always writes one)");
        }
        long coveredThrough = 0;
        if (!archived.isEmpty()) {
            for (final Path file : archived) {
                final AuditVerification broken = walk.file(file, AuditArchiver.archivedFirstSeq(file),
                        AuditArchiver.openArchived(file));
                if (broken != null) {
                    return broken;
                }
            }
            coveredThrough = walk.records;
            if (anchor != null && (anchor.seq() > walk.records
                    || anchor.seq() == walk.records && !anchor.hash().equals(walk.lastHash))) {
                return walk.broken(directory.resolve(AuditArchiver.ANCHOR), 1, "the anchor says the archive ends at seq "
                        + anchor.seq() + " with hash " + anchor.hash() + ", but the archive's chain ends at seq "
                        + walk.records + " with hash " + walk.lastHash);
            }
        } else if (anchor != null) {
            walk.records = anchor.seq();
            walk.lastHash = anchor.hash();
            walk.anchoredAt = anchor.seq();
            coveredThrough = anchor.seq();
        }
        for (final Path file : live) {
            if (AuditFiles.firstSeqOf(file) <= coveredThrough) {
                continue;   // archived already, left behind by a stop between archiving and deleting
            }
            final AuditVerification broken = walk.file(file, AuditFiles.firstSeqOf(file),
                    Files.newInputStream(file));
            if (broken != null) {
                return broken;
            }
        }
        return walk.done();
    }

    private static List<Path> archived(final Path archive) throws IOException {
        if (archive == null || !Files.isDirectory(archive)) {
            return List.of();
        }
        final List<Path> files = new java.util.ArrayList<>();
        try (java.util.stream.Stream<Path> entries = Files.list(archive)) {
            entries.filter(p -> p.getFileName().toString().matches("audit-\\d{4}-\\d{2}-\\d{2}-\\d{19}\\.jsonl\\.gz"))
                    .forEach(files::add);
        }
        files.sort(java.util.Comparator.comparingLong(AuditArchiver::archivedFirstSeq));
        return files;
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

        private long anchoredAt;
        private final CommandSequences commands = new CommandSequences();

        AuditVerification done() {
            return new AuditVerification(files, records, lastHash, firstTime, lastTime, null, 0, null, anchoredAt,
                    commands.completeness());
        }

        /** @return null if the file is sound and chained, else the break */
        AuditVerification file(final Path file, final long named, final InputStream content) throws IOException {
            files++;
            long lineNumber = 0;
            try (InputStream in = new BufferedInputStream(content, 64 * 1024)) {
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
            final String expectedPrev = records == 0 ? AuditFormat.GENESIS_HASH : lastHash;   // lastHash: the anchor's
            if (!record.prevHash().equals(expectedPrev)) {
                return broken(file, lineNumber, "prevHash does not match the hash of the record before it: that"
                        + " record was replaced, or this one was moved here");
            }
            if (lineNumber == 1 && named != record.seq()) {
                return broken(file, lineNumber, "the file name says its first seq is " + named + " but the record"
                        + " has " + record.seq() + ": the file was renamed or records moved between files");
            }
            records++;
            commands.record(record);
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
            return new AuditVerification(files, records, lastHash, firstTime, lastTime, file, lineNumber, reason,
                    anchoredAt, commands.completeness());
        }
    }
}
