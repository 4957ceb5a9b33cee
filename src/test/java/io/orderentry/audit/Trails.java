package io.orderentry.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.orderentry.engine.CommandResult;
import io.orderentry.engine.OrderStatus;
import io.orderentry.pipeline.CommandType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Reads, writes and damages trails in tests. */
public final class Trails {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private Trails() {
    }

    /** @return every complete record of the trail in chain order (a line still being written is left out) */
    public static List<JsonNode> records(final Path directory) {
        final List<JsonNode> records = new ArrayList<>();
        try {
            for (final Path file : AuditFiles.list(directory)) {
                final String content = Files.readString(file, StandardCharsets.UTF_8);
                int start = 0;
                for (int end = content.indexOf('\n'); end >= 0; end = content.indexOf('\n', start)) {
                    records.add(MAPPER.readTree(content.substring(start, end)));
                    start = end + 1;
                }
            }
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
        return records;
    }

    /** @return the trail's files in chain order */
    public static List<Path> files(final Path directory) {
        try {
            return AuditFiles.list(directory);
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return the lines of a file */
    public static List<String> lines(final Path file) {
        try {
            return new ArrayList<>(Files.readAllLines(file, StandardCharsets.UTF_8));
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Replaces a file's content by {@code lines}, each ended by '\n'. */
    public static void rewrite(final Path file, final List<String> lines) {
        try {
            Files.writeString(file, lines.isEmpty() ? "" : String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** XORs one byte of a file. */
    public static void flipByte(final Path file, final long offset) {
        try {
            final byte[] bytes = Files.readAllBytes(file);
            bytes[(int) offset] ^= 0x01;
            Files.write(file, bytes);
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return the byte offset where line {@code number} (from 1) of a file starts */
    public static long lineOffset(final Path file, final int number) {
        long offset = 0;
        final List<String> lines = lines(file);
        for (int i = 0; i < number - 1; i++) {
            offset += lines.get(i).getBytes(StandardCharsets.UTF_8).length + 1;
        }
        return offset;
    }

    /** @return the verification of a trail */
    public static AuditVerification verify(final Path directory) {
        try {
            return AuditVerifier.verify(directory);
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Fills {@code entry} as the record of a placed order. */
    static AuditEntry placed(final AuditEntry entry, final long n) {
        entry.reset();
        entry.kind = AuditKind.PLACE;
        entry.action = CommandType.PLACE;
        entry.requestId = "test-0-" + n;
        entry.remoteAddress = "127.0.0.1:40000";
        entry.accountId = "acct-" + n % 7;
        entry.clientOrderId = "c-" + n;
        entry.orderId = n;
        entry.journalSequence = n;
        entry.result = CommandResult.PLACED;
        entry.status = OrderStatus.NEW;
        entry.httpStatus = 201;
        return entry;
    }

    /** Appends records {@code first..last} (see {@link #placed}), flushing every {@code batch}. */
    static void append(final AuditTrail trail, final long first, final long last, final int batch) {
        final AuditEntry entry = new AuditEntry();
        for (long n = first; n <= last; n++) {
            if (!trail.append(placed(entry, n))) {
                throw new IllegalStateException("append failed", trail.failure());
            }
            if ((n - first + 1) % batch == 0 && !trail.flush()) {
                throw new IllegalStateException("flush failed", trail.failure());
            }
        }
        if (!trail.flush()) {
            throw new IllegalStateException("flush failed", trail.failure());
        }
    }
}
