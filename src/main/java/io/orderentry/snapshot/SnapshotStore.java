package io.orderentry.snapshot;

import io.orderentry.journal.JournalPosition;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import java.util.zip.CheckedOutputStream;

/**
 * The snapshot directory: {@code snapshot-<journal sequence, 20 digits>.snap} files, newest = highest sequence.
 *
 * <p>File format, version 1, big-endian ({@link DataOutputStream}): {@code int magic "OESN", int version, long
 * journal sequence, long segment, long offset, long timestamp} (the {@link JournalPosition}), {@code long event
 * sequence, long persisted through, long created millis, int instrument count} and each symbol as UTF,
 * {@code int configuration entries} and each key and value as UTF, then the {@link SnapshotState}, then
 * {@code int CRC32C} of every byte before it.
 *
 * <p>A snapshot is written to a {@code .tmp} file, forced, renamed into place and the directory forced, so a crash
 * leaves either the whole file or none under its name ({@link ForcingOutput} forces and paces the writing); then the
 * oldest beyond {@code keep} are deleted. A reader checks the CRC over the whole file before it parses anything, so
 * a damaged file changes no state.
 *
 * <p>Threads: {@link #write} from one thread at a time; the rest from any.
 */
public final class SnapshotStore {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(SnapshotStore.class);
    /** "OESN" */
    static final int MAGIC = 0x4F45534E;
    static final int VERSION = 2;
    private static final Pattern NAME = Pattern.compile("snapshot-(\\d{20})\\.snap");
    private static final int BUFFER_BYTES = 1 << 20;
    private static final int MAX_ENTRIES = 100_000;

    private final Path directory;
    private final int keep;
    private final long writeBytesPerSecond;

    /**
     * @param keep how many snapshots to keep, at least 1
     */
    public SnapshotStore(final Path directory, final int keep) {
        this(directory, keep, 0);
    }

    /**
     * @param keep                how many snapshots to keep, at least 1
     * @param writeBytesPerSecond the most bytes a second {@link #write} writes at; 0: unpaced
     */
    public SnapshotStore(final Path directory, final int keep, final long writeBytesPerSecond) {
        if (keep < 1 || writeBytesPerSecond < 0) {
            throw new IllegalArgumentException("keep must be >= 1 and the write rate >= 0, were " + keep + ", "
                    + writeBytesPerSecond);
        }
        this.directory = directory;
        this.keep = keep;
        this.writeBytesPerSecond = writeBytesPerSecond;
    }

    /** @return the directory */
    public Path directory() {
        return directory;
    }

    /** @return the snapshot files, newest first; none if the directory does not exist */
    public List<Path> list() throws IOException {
        if (!Files.isDirectory(directory)) {
            return List.of();
        }
        final List<Path> files = new ArrayList<>();
        try (Stream<Path> entries = Files.list(directory)) {
            entries.filter(p -> NAME.matcher(p.getFileName().toString()).matches()).forEach(files::add);
        }
        files.sort(Comparator.comparing((Path p) -> p.getFileName().toString()).reversed());
        return files;
    }

    /** A snapshot file that verified, with its header. */
    public record Found(Path file, SnapshotHeader header) {
    }

    /**
     * @param unusable says why a verified snapshot cannot be used here, or null when it can
     * @return the newest snapshot that verifies and that {@code unusable} accepts, or null; each one skipped is
     *         logged as a warning with the reason
     */
    public Found newestUsable(final java.util.function.Function<SnapshotHeader, String> unusable) throws IOException {
        for (final Path file : list()) {
            final SnapshotHeader header;
            try {
                header = verify(file);
            } catch (final IOException e) {
                LOG.warn("snapshot: {} is skipped: {}", file.getFileName(), e.getMessage());
                continue;
            }
            final String reason = unusable.apply(header);
            if (reason != null) {
                LOG.warn("snapshot: {} is skipped: {}", file.getFileName(), reason);
                continue;
            }
            return new Found(file, header);
        }
        return null;
    }

    /**
     * Deletes the temporary files of writes that a crash interrupted; call before the first write of a run.
     *
     * @return how many were deleted
     */
    public int removeTemporaries() throws IOException {
        if (!Files.isDirectory(directory)) {
            return 0;
        }
        int removed = 0;
        try (Stream<Path> entries = Files.list(directory)) {
            for (final Path p : entries.filter(p -> p.getFileName().toString().endsWith(".snap.tmp")).toList()) {
                Files.deleteIfExists(p);
                removed++;
            }
        }
        return removed;
    }

    /** @return the journal sequence a snapshot file is named for */
    public static long sequenceOf(final Path file) {
        final Matcher m = NAME.matcher(file.getFileName().toString());
        if (!m.matches()) {
            throw new IllegalArgumentException("not a snapshot file: " + file);
        }
        return Long.parseLong(m.group(1));
    }

    /**
     * Writes a snapshot atomically and deletes the oldest beyond the count to keep.
     *
     * @return the file written
     */
    public Path write(final SnapshotHeader header, final SnapshotState state) throws IOException {
        return write(header, state, true);
    }

    /**
     * {@link #write(SnapshotHeader, SnapshotState)}, paced at the configured rate or, with {@code paced} false (at a
     * graceful stop, when no order waits), as fast as the disk takes it.
     */
    public Path write(final SnapshotHeader header, final SnapshotState state, final boolean paced) throws IOException {
        Files.createDirectories(directory);
        final String name = String.format("snapshot-%020d.snap", header.position().sequence());
        final Path target = directory.resolve(name);
        final Path temporary = directory.resolve(name + ".tmp");
        try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            writeTo(header, state, new ForcingOutput(channel, paced ? writeBytesPerSecond : 0));
            channel.force(true);
        } catch (final IOException | RuntimeException e) {
            Files.deleteIfExists(temporary);
            throw e;
        }
        Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        forceDirectory();
        return target;
    }

    /**
     * Writes a snapshot, the bytes a file of {@link #write} holds, into {@code sink} (cluster mode streams it into
     * Aeron's snapshot, which is its own durable copy: no file, no fsync here). Flushes {@code sink}; does not close
     * it.
     */
    public static void writeTo(final SnapshotHeader header, final SnapshotState state, final OutputStream sink)
            throws IOException {
        final CRC32C crc = new CRC32C();
        final BufferedOutputStream buffered = new BufferedOutputStream(sink, BUFFER_BYTES);
        final DataOutputStream out = new DataOutputStream(new CheckedOutputStream(buffered, crc));
        writeHeader(out, header);
        state.write(out);
        out.flush();
        new DataOutputStream(buffered).writeInt((int) crc.getValue());
        buffered.flush();
    }

    /**
     * Checks a snapshot's CRC over the whole file, then reads its header. Reads nothing into any state.
     *
     * @throws IOException if the file is damaged, partial or of another format
     */
    public SnapshotHeader verify(final Path file) throws IOException {
        final long size = Files.size(file);
        if (size < Integer.BYTES * 3L) {
            throw new IOException(file.getFileName() + ": " + size + " bytes is too short for a snapshot");
        }
        final CRC32C crc = new CRC32C();
        final int stored;
        try (InputStream in = Files.newInputStream(file)) {
            final byte[] buffer = new byte[BUFFER_BYTES];
            long left = size - Integer.BYTES;
            while (left > 0) {
                final int read = in.read(buffer, 0, (int) Math.min(buffer.length, left));
                if (read < 0) {
                    throw new EOFException(file.getFileName() + " shrank while it was read");
                }
                crc.update(buffer, 0, read);
                left -= read;
            }
            stored = new DataInputStream(in).readInt();
        }
        if (stored != (int) crc.getValue()) {
            throw new IOException(file.getFileName() + ": checksum mismatch (a damaged or partially written file)");
        }
        try (DataInputStream in = open(file)) {
            return readHeader(in, file);
        }
    }

    /**
     * Restores a snapshot's state (after {@link #verify} passed on the same file) and checks that it ends where the
     * file's checksum begins.
     *
     * @return the header
     */
    public SnapshotHeader read(final Path file, final SnapshotState state) throws IOException {
        try (DataInputStream in = open(file)) {
            final SnapshotHeader header = readHeader(in, file);
            state.restore(in);
            in.readInt();   // the checksum, which verify() compared
            if (in.read() != -1) {
                throw new IOException(file.getFileName() + ": the state ends before the checksum (a format mismatch)");
            }
            return header;
        } catch (final EOFException e) {
            throw new IOException(file.getFileName() + ": the state runs past the checksum (a format mismatch)", e);
        }
    }

    private DataInputStream open(final Path file) throws IOException {
        return new DataInputStream(new BufferedInputStream(Files.newInputStream(file), BUFFER_BYTES));
    }

    private static void writeHeader(final DataOutputStream out, final SnapshotHeader header) throws IOException {
        out.writeInt(MAGIC);
        out.writeInt(VERSION);
        final JournalPosition p = header.position();
        out.writeLong(p.sequence());
        out.writeLong(p.segmentFirstSequence());
        out.writeLong(p.offset());
        out.writeLong(p.timestampMicros());
        out.writeLong(header.eventSequence());
        out.writeLong(header.persistedThrough());
        out.writeLong(header.createdMillis());
        out.writeInt(header.instruments().size());
        for (final String symbol : header.instruments()) {
            out.writeUTF(symbol);
        }
        out.writeInt(header.configuration().size());
        for (final Map.Entry<String, String> entry : new java.util.TreeMap<>(header.configuration()).entrySet()) {
            out.writeUTF(entry.getKey());
            out.writeUTF(entry.getValue());
        }
    }

    private static SnapshotHeader readHeader(final java.io.DataInput in, final Path file) throws IOException {
        final int magic = in.readInt();
        if (magic != MAGIC) {
            throw new IOException(file.getFileName() + ": not a snapshot (magic " + Integer.toHexString(magic) + ")");
        }
        final int version = in.readInt();
        if (version != VERSION) {
            throw new IOException(file.getFileName() + ": snapshot format " + version + ", this build reads "
                    + VERSION);
        }
        final long sequence = in.readLong();
        final long segment = in.readLong();
        final long offset = in.readLong();
        final long timestamp = in.readLong();
        final JournalPosition position;
        try {
            position = new JournalPosition(segment, offset, sequence, timestamp);
        } catch (final IllegalArgumentException e) {
            throw new IOException(file.getFileName() + ": " + e.getMessage(), e);
        }
        if (NAME.matcher(file.getFileName().toString()).matches() && sequence != sequenceOf(file)) {
            throw new IOException(file.getFileName() + ": holds the state at journal sequence " + sequence
                    + ", not the one it is named for");
        }
        final long eventSequence = in.readLong();
        final long persistedThrough = in.readLong();
        final long created = in.readLong();
        final int instrumentCount = count(in.readInt(), file);
        final List<String> instruments = new ArrayList<>(instrumentCount);
        for (int i = 0; i < instrumentCount; i++) {
            instruments.add(in.readUTF());
        }
        final int entries = count(in.readInt(), file);
        final Map<String, String> configuration = new LinkedHashMap<>();
        for (int i = 0; i < entries; i++) {
            configuration.put(in.readUTF(), in.readUTF());
        }
        return new SnapshotHeader(position, eventSequence, persistedThrough, created, instruments, configuration);
    }

    private static int count(final int count, final Path file) throws IOException {
        if (count < 0 || count > MAX_ENTRIES) {
            throw new IOException(file.getFileName() + ": bad count " + count + " in the snapshot header");
        }
        return count;
    }

    /**
     * Deletes every snapshot but the newest {@code keep} and those in {@code alsoKeep}.
     *
     * @return the snapshots that remain, newest first
     */
    public List<Path> prune(final java.util.Set<Path> alsoKeep) throws IOException {
        final List<Path> files = list();
        final List<Path> kept = new ArrayList<>();
        for (int i = 0; i < files.size(); i++) {
            if (i < keep || alsoKeep.contains(files.get(i))) {
                kept.add(files.get(i));
            } else {
                Files.deleteIfExists(files.get(i));
            }
        }
        return kept;
    }

    /**
     * Reads a snapshot's header without checking the file's checksum: for decisions that stay safe if the file later
     * proves damaged (which snapshots and journal segments to keep).
     */
    public SnapshotHeader header(final Path file) throws IOException {
        try (DataInputStream in = open(file)) {
            return readHeader(in, file);
        }
    }

    private void forceDirectory() throws IOException {
        try (FileChannel dir = FileChannel.open(directory, StandardOpenOption.READ)) {
            dir.force(true);
        }
    }
}
