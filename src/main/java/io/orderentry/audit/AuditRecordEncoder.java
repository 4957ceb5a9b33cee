package io.orderentry.audit;

import io.orderentry.engine.RejectReason;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.LocalDate;
import java.util.Arrays;

/**
 * Renders an {@link AuditEntry} as one record line (see {@link AuditFormat}) into a reusable byte array, fields
 * always present and always in the same order, and hashes it. Allocates only when a line outgrows the array
 * and once per UTC day for the date text. Owned by one thread (the audit thread).
 */
final class AuditRecordEncoder {

    /** Free text (error messages, field names) is cut to this many characters, with "..." appended. */
    static final int MAX_TEXT_CHARS = 256;

    private static final byte[] SEQ = ascii("{\"seq\":");
    private static final byte[] TIME = ascii(",\"time\":\"");
    private static final byte[] REQUEST_ID = ascii("\",\"requestId\":");
    private static final byte[] REMOTE_ADDRESS = ascii(",\"remoteAddress\":");
    private static final byte[] KEY_ID = ascii(",\"keyId\":");
    private static final byte[] KIND = ascii(",\"kind\":");
    private static final byte[] ACTION = ascii(",\"action\":");
    private static final byte[] ACCOUNT_ID = ascii(",\"accountId\":");
    private static final byte[] CLAIMED_ACCOUNT_ID = ascii(",\"claimedAccountId\":");
    private static final byte[] CLIENT_ORDER_ID = ascii(",\"clientOrderId\":");
    private static final byte[] ORDER_ID = ascii(",\"orderId\":");
    private static final byte[] JOURNAL_SEQUENCE = ascii(",\"journalSequence\":");
    private static final byte[] RECOVERED = ascii(",\"recovered\":");
    private static final byte[] TERMS = ascii(",\"terms\":");
    private static final byte[] INSTRUMENT = ascii("{\"instrument\":");
    private static final byte[] ALL_INSTRUMENTS = ascii(",\"allInstruments\":");
    private static final byte[] PRICE = ascii(",\"price\":");
    private static final byte[] QUANTITY = ascii(",\"quantity\":");
    private static final byte[] CAUSE = ascii(",\"cause\":");
    private static final byte[] BAND = ascii(",\"bandBasisPoints\":");
    private static final byte[] ASSET = ascii(",\"asset\":");
    private static final byte[] AMOUNT = ascii(",\"amount\":");
    private static final byte[] REFERENCE = ascii(",\"reference\":");
    private static final byte[] MAKER_FEE = ascii(",\"makerFeeRate\":");
    private static final byte[] TAKER_FEE = ascii(",\"takerFeeRate\":");
    private static final byte[] OUTCOME = ascii(",\"outcome\":");
    private static final byte[] RESULT = ascii("{\"result\":");
    private static final byte[] STATUS = ascii(",\"status\":");
    private static final byte[] REJECT_REASON = ascii(",\"rejectReason\":");
    private static final byte[] HTTP_STATUS = ascii(",\"httpStatus\":");
    private static final byte[] CODE = ascii(",\"code\":");
    private static final byte[] MESSAGE = ascii(",\"message\":");
    private static final byte[] FIELD = ascii(",\"field\":");
    private static final byte[] CANCELED_COUNT = ascii(",\"canceledCount\":");
    private static final byte[] CANCELED_ORDER_IDS = ascii(",\"canceledOrderIds\":");
    private static final byte[] PREV_HASH = ascii(",\"prevHash\":\"");
    private static final byte[] NULL = ascii("null");
    private static final byte[] TRUE = ascii("true");
    private static final byte[] FALSE = ascii("false");
    private static final byte[] HEX = ascii("0123456789abcdef");

    private final MessageDigest sha = AuditFormat.sha256();
    private final byte[] digest = new byte[32];
    private byte[] line = new byte[2048];
    private int length;
    private long cachedDay = Long.MIN_VALUE;
    private byte[] dayText = new byte[0];

    /**
     * Renders one record, its hash and the closing {@code '\n'}.
     *
     * @param prevHash the previous record's hash: 64 lower-case hex digits
     * @return the line's length in bytes, {@code '\n'} included; the bytes are in {@link #line()}
     */
    int encode(final long seq, final long timeMicros, final AuditEntry e, final byte[] prevHash) {
        length = 0;
        put(SEQ);
        number(seq);
        put(TIME);
        time(timeMicros);
        put(REQUEST_ID);
        string(e.requestId, false);
        put(REMOTE_ADDRESS);
        string(e.remoteAddress, false);
        put(KEY_ID);
        string(e.keyId, false);
        put(KIND);
        name(e.kind);
        put(ACTION);
        name(e.action);
        put(ACCOUNT_ID);
        string(e.accountId, false);
        put(CLAIMED_ACCOUNT_ID);
        string(e.claimedAccountId, false);
        put(CLIENT_ORDER_ID);
        string(e.clientOrderId, false);
        put(ORDER_ID);
        numberOrNull(e.orderId);
        put(JOURNAL_SEQUENCE);
        if (e.kind == AuditKind.SERVICE_STARTED) {
            number(e.journalSequence);
        } else {
            numberOrNull(e.journalSequence);
        }
        put(RECOVERED);
        put(e.recovered ? TRUE : FALSE);
        put(TERMS);
        if (e.hasTerms()) {
            terms(e);
        } else {
            put(NULL);
        }
        put(OUTCOME);
        if (e.kind == AuditKind.SERVICE_STARTED) {
            put(NULL);
        } else {
            outcome(e);
        }
        put(PREV_HASH);
        put(prevHash);
        ensure(1);
        line[length++] = '"';
        final int content = length;
        ensure(AuditFormat.HASH_SUFFIX_LENGTH + 1);
        length = AuditFormat.putHashField(line, length);
        AuditFormat.hash(sha, line, content, digest, line, length);
        length += AuditFormat.HASH_HEX_LENGTH;
        line[length++] = '"';
        line[length++] = '}';
        line[length++] = '\n';
        return length;
    }

    /** @return the array holding the last encoded line from offset 0 */
    byte[] line() {
        return line;
    }

    /** @return the offset of the last encoded line's hash (64 hex digits) in {@link #line()} */
    int hashOffset() {
        return length - 3 - AuditFormat.HASH_HEX_LENGTH;
    }

    /**
     * Writes {@code {"instrument","allInstruments","price","quantity","cause","bandBasisPoints","asset","amount",
     * "reference","makerFeeRate","takerFeeRate"}}: every member in
     * every kind that has terms, null where the kind has none or it is not known. Prices in ticks, quantities in lots,
     * the instrument as its index in the configured list, as the engine has them.
     */
    private void terms(final AuditEntry e) {
        put(INSTRUMENT);
        numberOrNullBelowZero(e.instrument);
        put(ALL_INSTRUMENTS);
        put(e.allInstruments == null ? NULL : e.allInstruments ? TRUE : FALSE);
        put(PRICE);
        numberOrNull(e.price);
        put(QUANTITY);
        numberOrNull(e.quantity);
        put(CAUSE);
        name(e.cause);
        put(BAND);
        numberOrNullBelowZero(e.bandBasisPoints);
        put(ASSET);
        numberOrNullBelowZero(e.asset);
        put(AMOUNT);
        if (e.amount == 0) {
            put(NULL);
        } else {
            if (e.amount < 0) {   // a withdrawal; the only signed number of a record
                ensure(1);
                line[length++] = '-';
            }
            number(Math.abs(e.amount));
        }
        put(REFERENCE);
        string(e.reference, true);
        put(MAKER_FEE);
        numberOrNullBelowZero(e.makerFeeRate);
        put(TAKER_FEE);
        numberOrNullBelowZero(e.takerFeeRate);
        ensure(1);
        line[length++] = '}';
    }

    private void outcome(final AuditEntry e) {
        put(RESULT);
        name(e.result);
        put(STATUS);
        name(e.status);
        put(REJECT_REASON);
        name(e.rejectReason == RejectReason.NONE ? null : e.rejectReason);
        put(HTTP_STATUS);
        numberOrNull(e.httpStatus);
        put(CODE);
        string(e.code, true);
        put(MESSAGE);
        string(e.message, true);
        put(FIELD);
        string(e.field, true);
        put(CANCELED_COUNT);
        numberOrNullBelowZero(e.canceledCount);
        put(CANCELED_ORDER_IDS);
        if (e.canceledCount < 0) {
            put(NULL);
        } else {
            final int listed = Math.min(e.canceledCount, AuditEntry.MAX_LISTED_CANCELED);
            ensure(1);
            line[length++] = '[';
            for (int i = 0; i < listed; i++) {
                if (i > 0) {
                    ensure(1);
                    line[length++] = ',';
                }
                number(e.canceledOrderIds[i]);
            }
            ensure(1);
            line[length++] = ']';
        }
        ensure(1);
        line[length++] = '}';
    }

    private void name(final Enum<?> value) {
        if (value == null) {
            put(NULL);
        } else {
            string(value.name(), false);
        }
    }

    /** Writes a value where 0 is a value and a negative one means "not known". */
    private void numberOrNullBelowZero(final long value) {
        if (value < 0) {
            put(NULL);
        } else {
            number(value);
        }
    }

    private void numberOrNull(final long value) {
        if (value == 0) {
            put(NULL);
        } else {
            number(value);
        }
    }

    private void number(final long value) {
        if (value < 0) {
            throw new IllegalArgumentException("audit numbers are never negative, was " + value);
        }
        int digits = 1;
        for (long rest = value; rest >= 10; rest /= 10) {
            digits++;
        }
        ensure(digits);
        long rest = value;
        for (int i = length + digits - 1; i >= length; i--) {
            line[i] = (byte) ('0' + rest % 10);
            rest /= 10;
        }
        length += digits;
    }

    /** Writes {@code yyyy-MM-ddTHH:mm:ss.ffffffZ}. */
    private void time(final long micros) {
        final long day = AuditFiles.epochDay(micros);
        if (day != cachedDay) {
            dayText = ascii(LocalDate.ofEpochDay(day) + "T");
            cachedDay = day;
        }
        put(dayText);
        final long ofDay = micros - day * AuditFiles.MICROS_PER_DAY;
        final long seconds = ofDay / 1_000_000;
        ensure(16);
        twoDigits(seconds / 3600);
        line[length++] = ':';
        twoDigits(seconds / 60 % 60);
        line[length++] = ':';
        twoDigits(seconds % 60);
        line[length++] = '.';
        long fraction = ofDay % 1_000_000;
        for (int i = length + 5; i >= length; i--) {
            line[i] = (byte) ('0' + fraction % 10);
            fraction /= 10;
        }
        length += 6;
        line[length++] = 'Z';
    }

    private void twoDigits(final long value) {
        line[length++] = (byte) ('0' + value / 10);
        line[length++] = (byte) ('0' + value % 10);
    }

    /** Writes a JSON string (or null) as UTF-8, escaping what JSON requires; free text is cut. */
    private void string(final String value, final boolean freeText) {
        if (value == null) {
            put(NULL);
            return;
        }
        final boolean cut = freeText && value.length() > MAX_TEXT_CHARS;
        final int end = cut ? MAX_TEXT_CHARS : value.length();
        ensure(2 + end * 6 + 3);
        line[length++] = '"';
        for (int i = 0; i < end; i++) {
            final char c = value.charAt(i);
            if (c == '"' || c == '\\') {
                line[length++] = '\\';
                line[length++] = (byte) c;
            } else if (c < 0x20) {
                escape(c);
            } else if (c < 0x80) {
                line[length++] = (byte) c;
            } else if (c < 0x800) {
                line[length++] = (byte) (0xC0 | (c >> 6));
                line[length++] = (byte) (0x80 | (c & 0x3F));
            } else if (Character.isHighSurrogate(c) && i + 1 < end && Character.isLowSurrogate(value.charAt(i + 1))) {
                final int cp = Character.toCodePoint(c, value.charAt(++i));
                line[length++] = (byte) (0xF0 | (cp >> 18));
                line[length++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
                line[length++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
                line[length++] = (byte) (0x80 | (cp & 0x3F));
            } else if (Character.isSurrogate(c)) {
                escape(c);
            } else {
                line[length++] = (byte) (0xE0 | (c >> 12));
                line[length++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                line[length++] = (byte) (0x80 | (c & 0x3F));
            }
        }
        if (cut) {
            line[length++] = '.';
            line[length++] = '.';
            line[length++] = '.';
        }
        line[length++] = '"';
    }

    /** Writes {@code \\uXXXX}. */
    private void escape(final char c) {
        line[length++] = '\\';
        line[length++] = 'u';
        line[length++] = HEX[(c >> 12) & 0xF];
        line[length++] = HEX[(c >> 8) & 0xF];
        line[length++] = HEX[(c >> 4) & 0xF];
        line[length++] = HEX[c & 0xF];
    }

    private void put(final byte[] bytes) {
        ensure(bytes.length);
        System.arraycopy(bytes, 0, line, length, bytes.length);
        length += bytes.length;
    }

    private void ensure(final int more) {
        if (length + more > line.length) {
            line = Arrays.copyOf(line, Math.max(line.length * 2, length + more));
        }
    }

    private static byte[] ascii(final String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
