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
 * A third kind arms, refreshes or disarms an account's dead man's switch ({@link ClusterSwitches}); it is no command
 * either (it takes no command sequence and reaches no stage):
 *
 * <pre>
 *  0  byte   3
 *  1  int    the member that sent it, 5 long its incarnation, 13 long requestId (the request waiting for the answer)
 * 21  int    timeoutSeconds (0: disarm)
 * 25  two strings as above: the account, the key id
 * </pre>
 *
 * Little-endian, as the journal. Not thread-safe: one instance per thread.
 */
public final class ClusterCommands {

    static final byte VERSION = 1;
    /** The first byte of a member's {@code keepFrom} message. */
    static final byte KEEP_FROM = 2;
    static final int KEEP_FROM_LENGTH = 13;
    /** The first byte of a dead man's switch message. */
    static final byte SWITCH = 3;
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

    /** A decoded dead man's switch message: member {@code member}'s request {@code requestId} arms the account's. */
    public record SwitchMessage(int member, long incarnation, long requestId, String account, int timeoutSeconds,
                                String keyId) {
    }

    /**
     * @return the message arming (0: disarming) {@code account}'s switch for {@code timeoutSeconds}, in a new buffer
     *         of its own (a refresh comes every few seconds per account, not per order)
     * @throws IllegalArgumentException when the account or key id is longer than 256 bytes
     */
    public static ByteBuffer encodeSwitch(final int member, final long incarnation, final long requestId,
                                          final String account, final int timeoutSeconds, final String keyId) {
        final byte[] accountBytes = utf8(account);
        final byte[] keyBytes = keyId == null ? null : utf8(keyId);
        final ByteBuffer message = ByteBuffer.allocate(HEADER + 4 + accountBytes.length
                + (keyBytes == null ? 0 : keyBytes.length)).order(ByteOrder.LITTLE_ENDIAN);
        message.put(SWITCH).putInt(member).putLong(incarnation).putLong(requestId).putInt(timeoutSeconds);
        message.putShort((short) accountBytes.length).put(accountBytes);
        if (keyBytes == null) {
            message.putShort((short) NONE);
        } else {
            message.putShort((short) keyBytes.length).put(keyBytes);
        }
        return message.flip();
    }

    /** @return whether the message in {@code bytes[0, length)} is a dead man's switch message, not a command */
    public static boolean isSwitch(final ByteBuffer bytes, final int length) {
        return length > 0 && bytes.get(0) == SWITCH;
    }

    /**
     * @param position the message's position in the log, for error messages
     * @throws JournalCorruptedException when the message is cut short or has no account
     */
    public static SwitchMessage decodeSwitch(final ByteBuffer bytes, final int length, final long position)
            throws JournalCorruptedException {
        bytes.order(ByteOrder.LITTLE_ENDIAN);
        if (length < HEADER + 4 || bytes.get(0) != SWITCH) {
            throw new JournalCorruptedException(LOG, position, "a dead man's switch message of " + length + " bytes");
        }
        final int accountLength = bytes.getShort(HEADER) & 0xFFFF;
        if (accountLength == NONE || accountLength == 0 || HEADER + 2 + accountLength + 2 > length) {
            throw new JournalCorruptedException(LOG, position, "a dead man's switch message without its account");
        }
        final String account = new String(bytes.array(), HEADER + 2, accountLength, StandardCharsets.UTF_8);
        final int keyAt = HEADER + 2 + accountLength;
        final int keyLength = bytes.getShort(keyAt) & 0xFFFF;
        if (keyLength != NONE && keyAt + 2 + keyLength > length) {
            throw new JournalCorruptedException(LOG, position, "a dead man's switch message whose key id runs past"
                    + " its end");
        }
        final String keyId = keyLength == NONE ? null
                : new String(bytes.array(), keyAt + 2, keyLength, StandardCharsets.UTF_8);
        return new SwitchMessage(bytes.getInt(1), bytes.getLong(5), bytes.getLong(13), account, bytes.getInt(21),
                keyId);
    }

    private static byte[] utf8(final String value) {
        final byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        if (bytes.length > 256) {
            throw new IllegalArgumentException("an account or key id of " + bytes.length + " bytes");
        }
        return bytes;
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
