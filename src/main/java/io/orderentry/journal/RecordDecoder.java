package io.orderentry.journal;

import io.orderentry.engine.MarketBandRule;
import io.orderentry.engine.OrderType;
import io.orderentry.engine.RejectReason;
import io.orderentry.engine.SelfTradePrevention;
import io.orderentry.engine.Side;
import io.orderentry.engine.TimeInForce;
import io.orderentry.pipeline.CommandType;
import io.orderentry.pipeline.OrderCommand;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Decodes the fields of one CRC-checked journal record (see {@link JournalFormat}) into a reused
 * {@link OrderCommand}, with the origin block (request id, address, key id) where the record has one. Allocates only
 * the id strings. Owned by the recovering thread.
 */
final class RecordDecoder {

    private static final Side[] SIDES = {Side.BUY, Side.SELL};
    private static final OrderType[] ORDER_TYPES = {OrderType.LIMIT, OrderType.MARKET};
    private static final TimeInForce[] TIME_IN_FORCES = {TimeInForce.GTC, TimeInForce.IOC, TimeInForce.FOK};
    private static final SelfTradePrevention[] STP_MODES = {SelfTradePrevention.NONE, SelfTradePrevention.EXPIRE_TAKER,
        SelfTradePrevention.EXPIRE_MAKER, SelfTradePrevention.EXPIRE_BOTH};
    private static final RejectReason[] CANCEL_ALL_CAUSES = {RejectReason.CANCEL_ALL, RejectReason.CANCEL_ALL_AFTER,
        RejectReason.CANCEL_ON_DISCONNECT};

    private final SymbolLookup symbols;
    private final byte[] scratch = new byte[JournalFormat.MAX_RECORD_SIZE];
    /** Who asked is decoded only for records above this sequence; the others' origin block is checked and skipped. */
    private long originAfter;

    private Path file;
    private long recordOffset;
    private ByteBuffer buffer;
    private int position;
    private int end;

    RecordDecoder(final SymbolLookup symbols) {
        this.symbols = symbols;
    }

    /**
     * From now on, decodes the origin block (three strings, allocated) only for records whose sequence is above
     * {@code sequence}; below it, {@code requestTag}, {@code remoteAddress} and {@code keyId} stay null. A replay
     * needs who asked only for the commands the audit trail lacks; the default, 0, decodes every record's.
     */
    void decodeOriginAfter(final long sequence) {
        originAfter = sequence;
    }

    /**
     * Resets {@code command} and fills it from the record at {@code buffer[start, start + length)}, whose CRC
     * has been verified. {@code requestId} stays 0 and {@code replyTo} -1: nobody waits for a replayed command;
     * {@code requestTag}, {@code remoteAddress} and {@code keyId} are the origin block's, null without one.
     *
     * @param file         segment the record comes from, for error messages
     * @param recordOffset byte offset of the record in {@code file}, for error messages
     * @throws JournalCorruptedException if the fields do not match the format
     * @throws UnknownSymbolException    if the record names an instrument that is not configured
     */
    void decode(final ByteBuffer buffer, final int start, final int length, final OrderCommand command,
                final Path file, final long recordOffset) throws JournalCorruptedException, UnknownSymbolException {
        this.buffer = buffer;
        this.file = file;
        this.recordOffset = recordOffset;
        this.end = start + length;
        command.reset();
        command.sequence = buffer.getLong(start + JournalFormat.SEQUENCE_OFFSET);
        command.timestampMicros = buffer.getLong(start + JournalFormat.TIMESTAMP_OFFSET);
        final byte type = buffer.get(start + JournalFormat.TYPE_OFFSET);
        position = start + JournalFormat.RECORD_HEADER_SIZE;
        if (type == JournalFormat.TYPE_PLACE) {
            decodePlace(command);
        } else if (type == JournalFormat.TYPE_CANCEL) {
            command.type = CommandType.CANCEL;
            command.orderId = getLong();
        } else if (type == JournalFormat.TYPE_AMEND) {
            command.type = CommandType.AMEND;
            command.orderId = getLong();
            command.price = getLong();
            command.quantity = getLong();
        } else if (type == JournalFormat.TYPE_CANCEL_ALL) {
            decodeCancelAll(command);
        } else if (type == JournalFormat.TYPE_SET_PRICE_BAND || type == JournalFormat.TYPE_SET_PRICE_BAND_WITH_RULE) {
            decodePriceBand(command, type == JournalFormat.TYPE_SET_PRICE_BAND_WITH_RULE);
        } else if (type == JournalFormat.TYPE_FUND) {
            command.type = CommandType.FUND;
            command.accountId = getString("accountId");
            command.asset = getCode(JournalFormat.MAX_ASSETS + 1, "asset");
            command.amount = getLong();
            command.reference = getString("reference");
            if (command.amount == 0) {
                throw corrupted("a FUND of 0");
            }
        } else if (type == JournalFormat.TYPE_SET_FEES) {
            command.type = CommandType.SET_FEES;
            command.symbol = symbol();
            require(2 * Integer.BYTES, "fee rates");
            command.makerFeeRate = buffer.getInt(position);
            command.takerFeeRate = buffer.getInt(position + Integer.BYTES);
            position += 2 * Integer.BYTES;
            if (command.makerFeeRate < 0 || command.makerFeeRate > 100_000 || command.takerFeeRate < 0
                    || command.takerFeeRate > 100_000) {
                throw corrupted("invalid fee rates " + command.makerFeeRate + "/" + command.takerFeeRate);
            }
        } else {
            throw corrupted("unknown command type " + type);
        }
        if (position < end) {   // the origin block (format version 2); absent from older records and the cluster's
            if (command.sequence > originAfter) {
                command.requestTag = getNullableString("requestId");
                command.remoteAddress = getNullableString("remoteAddress");
                command.keyId = getNullableString("keyId");
            } else {
                skipNullableString("requestId");
                skipNullableString("remoteAddress");
                skipNullableString("keyId");
            }
        }
        if (position != end) {
            throw corrupted("record length " + length + " does not match its fields (" + (position - start) + " bytes)");
        }
    }

    private void decodePlace(final OrderCommand command) throws JournalCorruptedException, UnknownSymbolException {
        command.type = CommandType.PLACE;
        command.accountId = getString("accountId");
        command.clientOrderId = getNullableString("clientOrderId");
        final int symbolLength = getLength("symbol");
        final int symbol = symbols.indexOf(buffer, position, symbolLength);
        if (symbol == SymbolLookup.UNKNOWN) {
            throw new UnknownSymbolException(file, recordOffset, stringAt(position, symbolLength));
        }
        position += symbolLength;
        command.symbol = symbol;
        command.side = SIDES[getCode(SIDES.length, "side")];
        command.orderType = ORDER_TYPES[getCode(ORDER_TYPES.length, "orderType")];
        command.timeInForce = TIME_IN_FORCES[getCode(TIME_IN_FORCES.length, "timeInForce")];
        final int flags = getCode(16, "flags");
        command.postOnly = (flags & 1) == 1;
        command.selfTradePrevention = STP_MODES[(flags >> 1) & 3];
        command.price = getLong();
        command.quantity = getLong();
        if ((flags & 8) != 0) {
            command.session = getLong();
            if (command.session == 0) {
                throw corrupted("a PLACE flagged with a session of 0");
            }
        }
    }

    /** A band change; one without a rule (type 5, written before issue 31) is under the rule of those builds. */
    private void decodePriceBand(final OrderCommand command, final boolean withRule) throws JournalCorruptedException,
            UnknownSymbolException {
        command.type = CommandType.SET_PRICE_BAND;
        command.symbol = symbol();
        require(Integer.BYTES, "basisPoints");
        command.priceBandBasisPoints = buffer.getInt(position);
        position += Integer.BYTES;
        if (command.priceBandBasisPoints < 0 || command.priceBandBasisPoints >= 10_000) {
            throw corrupted("invalid price band " + command.priceBandBasisPoints + " bp");
        }
        if (withRule) {
            require(1, "marketBandRule");
            final int code = buffer.get(position++);
            command.priceBandRule = MarketBandRule.ofCode(code);
            if (command.priceBandRule == null) {
                throw corrupted("unknown market band rule " + code);
            }
        } else {
            command.priceBandRule = MarketBandRule.FAR_EDGE_ONLY;
        }
    }

    private void decodeCancelAll(final OrderCommand command) throws JournalCorruptedException, UnknownSymbolException {
        command.type = CommandType.CANCEL_ALL;
        command.accountId = getString("accountId");
        require(2, "symbol");
        if ((buffer.getShort(position) & 0xFFFF) == JournalFormat.NULL_STRING) {
            position += 2;
            command.symbol = -1;
        } else {
            command.symbol = symbol();
        }
        command.cancelAllCause = CANCEL_ALL_CAUSES[getCode(CANCEL_ALL_CAUSES.length, "cause")];
        if (command.cancelAllCause == RejectReason.CANCEL_ON_DISCONNECT) {
            command.session = getLong();
            if (command.session == 0 || command.symbol != -1) {
                throw corrupted("a cancel on disconnect of session 0 or of one instrument");
            }
        }
    }

    /** Reads a symbol name and returns its index. */
    private int symbol() throws JournalCorruptedException, UnknownSymbolException {
        final int symbolLength = getLength("symbol");
        final int symbol = symbols.indexOf(buffer, position, symbolLength);
        if (symbol == SymbolLookup.UNKNOWN) {
            throw new UnknownSymbolException(file, recordOffset, stringAt(position, symbolLength));
        }
        position += symbolLength;
        return symbol;
    }

    private int getCode(final int count, final String field) throws JournalCorruptedException {
        require(1, field);
        final int code = buffer.get(position++);
        if (code < 0 || code >= count) {
            throw corrupted("invalid " + field + " code " + code);
        }
        return code;
    }

    private long getLong() throws JournalCorruptedException {
        require(Long.BYTES, "long field");
        final long value = buffer.getLong(position);
        position += Long.BYTES;
        return value;
    }

    private String getNullableString(final String field) throws JournalCorruptedException {
        require(2, field);
        if ((buffer.getShort(position) & 0xFFFF) == JournalFormat.NULL_STRING) {
            position += 2;
            return null;
        }
        return getString(field);
    }

    private void skipNullableString(final String field) throws JournalCorruptedException {
        require(2, field);
        if ((buffer.getShort(position) & 0xFFFF) == JournalFormat.NULL_STRING) {
            position += 2;
        } else {
            final int length = getLength(field);   // advances past the count
            position += length;
        }
    }

    private String getString(final String field) throws JournalCorruptedException {
        final int length = getLength(field);
        final String value = stringAt(position, length);
        position += length;
        return value;
    }

    private int getLength(final String field) throws JournalCorruptedException {
        require(2, field);
        final int length = buffer.getShort(position) & 0xFFFF;
        position += 2;
        require(length, field);
        return length;
    }

    private String stringAt(final int offset, final int length) {
        buffer.get(offset, scratch, 0, length);
        return new String(scratch, 0, length, StandardCharsets.UTF_8);
    }

    private void require(final int bytes, final String field) throws JournalCorruptedException {
        if (position + bytes > end) {
            throw corrupted(field + " runs past the end of the record");
        }
    }

    private JournalCorruptedException corrupted(final String reason) {
        return new JournalCorruptedException(file, recordOffset, reason);
    }
}
