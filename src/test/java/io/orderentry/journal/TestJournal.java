package io.orderentry.journal;

import io.orderentry.pipeline.OrderCommand;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/** Opens, fills, replays and patches journals in tests. */
final class TestJournal {

    private TestJournal() {
    }

    static JournalConfig config(final Path dir) {
        return new JournalConfig(dir, JournalSync.NONE, JournalConfig.DEFAULT_SEGMENT_SIZE, 64 * 1024);
    }

    /** Result of {@link #replay}: the recovery and a copy of every replayed command. */
    record Replay(JournalRecovery recovery, List<Recorded> records) {
    }

    static Replay replay(final Path dir) throws IOException {
        final List<Recorded> records = new ArrayList<>();
        final JournalRecovery recovery = JournalReader.recover(dir, Commands.SYMBOL_INDEX, c -> records.add(Recorded.of(c)));
        return new Replay(recovery, records);
    }

    /** Recovers {@code config}'s directory and opens a writer after its last record. */
    static JournalWriter reopen(final JournalConfig config) throws IOException {
        final JournalRecovery recovery = JournalReader.recover(config.directory(), Commands.SYMBOL_INDEX, c -> { });
        return JournalWriter.open(config, Commands.SYMBOLS, recovery);
    }

    /** Appends commands {@code first..last} of {@link Commands#nth}, with timestamps 1000 * sequence, and flushes. */
    static void append(final JournalWriter writer, final long first, final long last) {
        final OrderCommand c = new OrderCommand();
        for (long s = first; s <= last; s++) {
            Commands.nth(c, s);
            c.sequence = s;
            c.timestampMicros = 1000 * s;
            if (!writer.append(c)) {
                throw new IllegalStateException("append failed", writer.failure());
            }
        }
        if (!writer.flush()) {
            throw new IllegalStateException("flush failed", writer.failure());
        }
    }

    /** Writes {@code count} records into a fresh journal in {@code config}'s directory and closes it. */
    static void write(final JournalConfig config, final long count) throws IOException {
        try (JournalWriter writer = reopen(config)) {
            append(writer, 1, count);
        }
    }

    /** @return the byte offsets of the records of a segment, from its start to its end */
    static List<Long> recordOffsets(final Path segment) throws IOException {
        final ByteBuffer bytes = readAll(segment);
        final List<Long> offsets = new ArrayList<>();
        int at = JournalFormat.SEGMENT_HEADER_SIZE;
        while (at + 4 <= bytes.limit()) {
            offsets.add((long) at);
            at += bytes.getInt(at);
        }
        return offsets;
    }

    static ByteBuffer readAll(final Path file) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            final ByteBuffer bytes = ByteBuffer.allocate((int) channel.size()).order(JournalFormat.BYTE_ORDER);
            while (bytes.hasRemaining()) {
                if (channel.read(bytes) < 0) {
                    break;
                }
            }
            return bytes.flip();
        }
    }

    static void write(final Path file, final long offset, final byte[] bytes) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.wrap(bytes), offset);
        }
    }

    static void flipByte(final Path file, final long offset) throws IOException {
        final ByteBuffer bytes = readAll(file);
        write(file, offset, new byte[] {(byte) (bytes.get((int) offset) ^ 0x5A)});
    }

    static void truncate(final Path file, final long size) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.truncate(size);
        }
    }

    static void appendBytes(final Path file, final byte[] bytes) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            channel.write(ByteBuffer.wrap(bytes));
        }
    }

    /** Overwrites the long at {@code fieldOffset} of the record at {@code recordOffset} and fixes its CRC. */
    static void patchLong(final Path segment, final long recordOffset, final int fieldOffset, final long value)
            throws IOException {
        final ByteBuffer bytes = readAll(segment);
        final int at = (int) recordOffset;
        final int length = bytes.getInt(at);
        bytes.putLong(at + fieldOffset, value);
        final CRC32C crc = new CRC32C();
        crc.update(bytes.array(), at + 8, length - 8);
        bytes.putInt(at + 4, (int) crc.getValue());
        final byte[] record = new byte[length];
        bytes.get(at, record);
        write(segment, at, record);
    }

    static long size(final Path file) throws IOException {
        return Files.size(file);
    }
}
