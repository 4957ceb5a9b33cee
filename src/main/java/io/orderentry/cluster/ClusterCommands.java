package io.orderentry.cluster;

import io.orderentry.journal.JournalCorruptedException;
import io.orderentry.journal.JournalRecords;
import io.orderentry.journal.UnknownSymbolException;
import io.orderentry.pipeline.OrderCommand;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * One command as a message of the cluster's replicated log: who is waiting for its answer, then the command as the
 * journal record it would be in single-node mode ({@link JournalRecords}).
 *
 * <pre>
 *  0  byte   version (1)
 *  1  int    the member that sent it (its HTTP clients wait for the answer)
 *  5  long   that member's incarnation (a random number per start: a restarted member answers nothing sent before)
 * 13  long   requestId, 21 int replyTo: the waiting request, as the input ring had them
 * 25  three strings, each a short length (0xFFFF: none) and UTF-8: request tag, remote address, key id (the audit
 *     trail's who-asked, kept only by the member that answers)
 *     the journal record (sequence and timestamp 0: the log assigns them)
 * </pre>
 *
 * A second kind of message says which part of the log a member still needs ({@link LogPurger}); it is no command
 * (it takes no command sequence and reaches no stage):
 *
 * <pre>
 *  0  byte   2
 *  1  int    the member
 *  5  long   the log position from which that member keeps its log: the position of its second newest snapshot
 * </pre>
 *
 * Little-endian, as the journal. Not thread-safe: one instance per thread.
 */
public final class ClusterCommands {

    static final byte VERSION = 1;
    /** The first byte of a member's {@code keepFrom} message. */
    static final byte KEEP_FROM = 2;
    static final int KEEP_FROM_LENGTH = 13;
    private static final int NONE = 0xFFFF;
    /** What error messages name as the file of a bad message. */
    private static final java.nio.file.Path LOG = java.nio.file.Path.of("cluster log");
    /** The header before the strings. */
    private static final int HEADER = 25;
    /** What the three strings may take at most: each is at most a few dozen characters (request ids, keys, addresses). */
    private static final int MAX_STRINGS = 3 * (2 + 256);

    private final JournalRecords records;
    private final ByteBuffer buffer = ByteBuffer.allocate(maxMessageSize()).order(ByteOrder.LITTLE_ENDIAN);

    public ClusterCommands(final JournalRecords records) {
        this.records = records;
    }

    /** @return the most bytes one message takes */
    public static int maxMessageSize() {
        return HEADER + MAX_STRINGS + JournalRecords.maxRecordSize();
    }

    /**
     * Encodes {@code command} sent by member {@code member} in its incarnation {@code incarnation}.
     *
     * @return the buffer holding the message in {@code [0, limit)}; reused by the next call
     * @throws IllegalArgumentException when the command cannot be encoded
     */
    public ByteBuffer encode(final OrderCommand command, final int member, final long incarnation) {
        buffer.clear();
        buffer.put(VERSION).putInt(member).putLong(incarnation).putLong(command.requestId).putInt(command.replyTo);
        putString(command.requestTag);
        putString(command.remoteAddress);
        putString(command.keyId);
        records.encode(command, buffer);
        buffer.flip();
        return buffer;
    }

    /**
     * @return member {@code member}'s {@code keepFrom} message (it needs the log from {@code position} on) in a new
     *         buffer of its own: a member sends one every few seconds at most, from a thread of its own
     */
    public static ByteBuffer encodeKeepFrom(final int member, final long position) {
        final ByteBuffer message = ByteBuffer.allocate(KEEP_FROM_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        message.put(KEEP_FROM).putInt(member).putLong(position);
        return message.flip();
    }

    /** @return whether the message in {@code bytes[0, length)} is a member's {@code keepFrom}, not a command */
    public static boolean isKeepFrom(final ByteBuffer bytes, final int length) {
        return length == KEEP_FROM_LENGTH && bytes.get(0) == KEEP_FROM;
    }

    /** @return the member of the {@code keepFrom} in {@code bytes} */
    public static int keepFromMember(final ByteBuffer bytes) {
        return bytes.order(ByteOrder.LITTLE_ENDIAN).getInt(1);
    }

    /** @return the position of the {@code keepFrom} in {@code bytes} */
    public static long keepFromPosition(final ByteBuffer bytes) {
        return bytes.order(ByteOrder.LITTLE_ENDIAN).getLong(5);
    }

    /** Who sent a decoded message. */
    public static final class Origin {
        int member;
        long incarnation;

        public int member() {
            return member;
        }

        public long incarnation() {
            return incarnation;
        }
    }

    /**
     * Decodes the message in {@code bytes[0, length)} into {@code command} (reset first) and {@code origin}.
     *
     * @param position the message's position in the log, for error messages
     * @throws JournalCorruptedException when the message is not one this codec wrote
     * @throws UnknownSymbolException    when it names an instrument this member does not have
     */
    public void decode(final ByteBuffer bytes, final int length, final OrderCommand command, final Origin origin,
                       final long position) throws JournalCorruptedException, UnknownSymbolException {
        bytes.order(ByteOrder.LITTLE_ENDIAN);
        if (length < HEADER + 6 || bytes.get(0) != VERSION) {
            throw new JournalCorruptedException(LOG, position, "message of "
                    + length + " bytes, version " + (length > 0 ? bytes.get(0) : -1) + " (expected " + VERSION + ")");
        }
        origin.member = bytes.getInt(1);
        origin.incarnation = bytes.getLong(5);
        final long requestId = bytes.getLong(13);
        final int replyTo = bytes.getInt(21);
        final String requestTag = string(bytes, HEADER, length, position);
        final String remoteAddress = string(bytes, next, length, position);
        final String keyId = string(bytes, next, length, position);
        records.decode(bytes, next, length - next, command, position);
        command.requestId = requestId;
        command.replyTo = replyTo;
        command.requestTag = requestTag;
        command.remoteAddress = remoteAddress;
        command.keyId = keyId;
    }

    /** Where the string {@link #string} read last ends; decoding thread only. */
    private int next;

    /** @return the string at {@code at} (null for none); sets {@link #next} to where it ends */
    private String string(final ByteBuffer bytes, final int at, final int length, final long position)
            throws JournalCorruptedException {
        if (at + 2 > length) {
            throw new JournalCorruptedException(LOG, position,
                    "the message ends inside its header");
        }
        final int n = bytes.getShort(at) & 0xFFFF;
        if (n == NONE) {
            next = at + 2;
            return null;
        }
        if (at + 2 + n > length) {
            throw new JournalCorruptedException(LOG, position,
                    "a string runs past the message's end");
        }
        next = at + 2 + n;
        return new String(bytes.array(), at + 2, n, StandardCharsets.UTF_8);
    }

    private void putString(final String value) {
        if (value == null) {
            buffer.putShort((short) NONE);
            return;
        }
        final byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        if (bytes.length > 256) {
            throw new IllegalArgumentException("a request's tag, address or key id of " + bytes.length + " bytes");
        }
        buffer.putShort((short) bytes.length).put(bytes);
    }
}
