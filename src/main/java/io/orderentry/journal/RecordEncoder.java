package io.orderentry.journal;

import io.orderentry.engine.RejectReason;
import io.orderentry.pipeline.CommandType;
import io.orderentry.pipeline.OrderCommand;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.zip.CRC32C;

/**
 * Encodes an {@link OrderCommand} as one journal record (see {@link JournalFormat}) without allocating, with or
 * without the origin block (who asked: request id, address, key id). Owned by one thread (the journal thread).
 */
final class RecordEncoder {

    private final byte[][] symbolNames;
    private final boolean withOrigin;
    private final CRC32C crc = new CRC32C();

    /**
     * @param symbolNames instrument names by index, as configured; each 1..{@value JournalFormat#MAX_SYMBOL_BYTES}
     *                    bytes of UTF-8
     * @param withOrigin  whether records end with the origin block; the journal's segments do, cluster mode's log
     *                    does not (its messages carry the origin themselves)
     */
    RecordEncoder(final String[] symbolNames, final boolean withOrigin) {
        Objects.requireNonNull(symbolNames, "symbolNames");
        this.withOrigin = withOrigin;
        this.symbolNames = new byte[symbolNames.length][];
        for (int i = 0; i < symbolNames.length; i++) {
            final String name = Objects.requireNonNull(symbolNames[i], "symbolNames[" + i + "]");
            final byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
            if (bytes.length == 0 || bytes.length > JournalFormat.MAX_SYMBOL_BYTES) {
                throw new IllegalArgumentException("symbol name '" + name + "' must have 1.."
                        + JournalFormat.MAX_SYMBOL_BYTES + " bytes of UTF-8");
            }
            this.symbolNames[i] = bytes;
        }
    }

    /**
     * Appends the record of {@code command} at {@code buffer}'s position and advances it. The buffer must
     * have {@link ByteBuffer#remaining()} of at least {@link JournalFormat#MAX_RECORD_SIZE} and
     * {@link JournalFormat#BYTE_ORDER}.
     *
     * @param crcView a view of the same memory as {@code buffer}, used to compute the CRC in place
     * @throws IllegalArgumentException if the command is incomplete, names an unknown symbol index or does
     *                                  not fit in {@link JournalFormat#MAX_RECORD_SIZE}; the buffer is then unchanged
     */
    void encode(final OrderCommand command, final ByteBuffer buffer, final ByteBuffer crcView) {
        final int start = buffer.position();
        try {
            final int limit = start + JournalFormat.MAX_RECORD_SIZE;
            buffer.position(start + JournalFormat.SEQUENCE_OFFSET);
            buffer.putLong(command.sequence).putLong(command.timestampMicros);
            final CommandType type = command.type;
            if (type == null) {
                throw new IllegalArgumentException("command without a type");
            }
            switch (type) {
                case PLACE -> encodePlace(command, buffer, limit);
                case CANCEL -> buffer.put(JournalFormat.TYPE_CANCEL).putLong(command.orderId);
                case AMEND -> buffer.put(JournalFormat.TYPE_AMEND).putLong(command.orderId).putLong(command.price)
                        .putLong(command.quantity);
                case CANCEL_ALL -> encodeCancelAll(command, buffer, limit);
                case SET_PRICE_BAND -> {
                    if (command.symbol < 0 || command.symbol >= symbolNames.length || command.priceBandRule == null) {
                        throw new IllegalArgumentException("SET_PRICE_BAND with symbol index " + command.symbol
                                + " and rule " + command.priceBandRule);
                    }
                    final byte[] symbol = symbolNames[command.symbol];
                    buffer.put(JournalFormat.TYPE_SET_PRICE_BAND_WITH_RULE).putShort((short) symbol.length).put(symbol)
                            .putInt(command.priceBandBasisPoints).put((byte) command.priceBandRule.code());
                }
                case FUND -> encodeFund(command, buffer, limit);
                case SET_FEES -> {
                    if (command.symbol < 0 || command.symbol >= symbolNames.length) {
                        throw new IllegalArgumentException("SET_FEES with symbol index " + command.symbol);
                    }
                    final byte[] symbol = symbolNames[command.symbol];
                    buffer.put(JournalFormat.TYPE_SET_FEES).putShort((short) symbol.length).put(symbol)
                            .putInt(command.makerFeeRate).putInt(command.takerFeeRate);
                }
                default -> throw new IllegalArgumentException("unknown command type " + type);
            }
            if (withOrigin) {
                putOrigin(command.requestTag, buffer);
                putOrigin(command.remoteAddress, buffer);
                putOrigin(command.keyId, buffer);
            }
            final int end = buffer.position();
            crcView.limit(end).position(start + JournalFormat.CRC_START);
            crc.reset();
            crc.update(crcView);
            buffer.putInt(start, end - start);
            buffer.putInt(start + 4, (int) crc.getValue());
        } catch (final RuntimeException e) {
            buffer.position(start);
            throw e;
        }
    }

    private void encodePlace(final OrderCommand command, final ByteBuffer buffer, final int limit) {
        buffer.put(JournalFormat.TYPE_PLACE);
        if (command.accountId == null) {
            throw new IllegalArgumentException("PLACE without accountId");
        }
        putString(buffer, command.accountId, limit, "accountId");
        if (command.clientOrderId == null) {
            buffer.putShort((short) JournalFormat.NULL_STRING);
        } else {
            putString(buffer, command.clientOrderId, limit, "clientOrderId");
        }
        if (command.symbol < 0 || command.symbol >= symbolNames.length) {
            throw new IllegalArgumentException("PLACE with symbol index " + command.symbol + " outside 0.."
                    + (symbolNames.length - 1));
        }
        final byte[] symbol = symbolNames[command.symbol];
        final boolean session = command.session != 0;
        requireRoom(buffer, 2 + symbol.length + 4 + 16 + (session ? 8 : 0), limit, "symbol");
        buffer.putShort((short) symbol.length).put(symbol);
        buffer.put(sideCode(command))
                .put(orderTypeCode(command))
                .put(timeInForceCode(command))
                .put((byte) ((command.postOnly ? 1 : 0) | stpCode(command) << 1 | (session ? 8 : 0)))
                .putLong(command.price)
                .putLong(command.quantity);
        if (session) {
            buffer.putLong(command.session);
        }
    }

    private void encodeFund(final OrderCommand command, final ByteBuffer buffer, final int limit) {
        if (command.accountId == null || command.reference == null || command.amount == 0 || command.asset < 0
                || command.asset > JournalFormat.MAX_ASSETS) {
            throw new IllegalArgumentException("FUND needs an account, an asset, an amount and a reference");
        }
        buffer.put(JournalFormat.TYPE_FUND);
        putString(buffer, command.accountId, limit, "accountId");
        requireRoom(buffer, 1 + 8, limit, "amount");
        buffer.put((byte) command.asset).putLong(command.amount);
        putString(buffer, command.reference, limit, "reference");
    }

        private void encodeCancelAll(final OrderCommand command, final ByteBuffer buffer, final int limit) {
        buffer.put(JournalFormat.TYPE_CANCEL_ALL);
        if (command.accountId == null) {
            throw new IllegalArgumentException("CANCEL_ALL without accountId");
        }
        putString(buffer, command.accountId, limit, "accountId");
        if (command.symbol == -1) {
            requireRoom(buffer, 2, limit, "symbol");
            buffer.putShort((short) JournalFormat.NULL_STRING);
        } else {
            if (command.symbol < 0 || command.symbol >= symbolNames.length) {
                throw new IllegalArgumentException("CANCEL_ALL with symbol index " + command.symbol + " outside -1.."
                        + (symbolNames.length - 1));
            }
            final byte[] symbol = symbolNames[command.symbol];
            requireRoom(buffer, 2 + symbol.length, limit, "symbol");
            buffer.putShort((short) symbol.length).put(symbol);
        }
        requireRoom(buffer, 1 + 8, limit, "cause");
        if (command.cancelAllCause == RejectReason.CANCEL_ALL) {
            buffer.put((byte) 0);
        } else if (command.cancelAllCause == RejectReason.CANCEL_ALL_AFTER) {
            buffer.put((byte) 1);
        } else if (command.cancelAllCause == RejectReason.CANCEL_ON_DISCONNECT && command.session != 0
                && command.symbol == -1) {
            buffer.put((byte) 2).putLong(command.session);
        } else {
            throw new IllegalArgumentException("CANCEL_ALL with cause " + command.cancelAllCause);
        }
    }

    /**
     * Writes one string of the origin block: null, or its first {@value JournalFormat#MAX_ORIGIN_BYTES} characters as
     * ASCII, any other character as {@code '?'}. Always fits: the command's fields leave room for the whole block.
     */
    private static void putOrigin(final String value, final ByteBuffer buffer) {
        if (value == null) {
            buffer.putShort((short) JournalFormat.NULL_STRING);
            return;
        }
        final int length = Math.min(value.length(), JournalFormat.MAX_ORIGIN_BYTES);
        buffer.putShort((short) length);
        for (int i = 0; i < length; i++) {
            final char c = value.charAt(i);
            buffer.put(c >= 0x20 && c < 0x7F ? (byte) c : (byte) '?');
        }
    }

    private static int stpCode(final OrderCommand command) {
        if (command.selfTradePrevention == null) {
            return 0;   // NONE, as the field documents
        }
        return switch (command.selfTradePrevention) {
            case NONE -> 0;
            case EXPIRE_TAKER -> 1;
            case EXPIRE_MAKER -> 2;
            case EXPIRE_BOTH -> 3;
        };
    }

    private static byte sideCode(final OrderCommand command) {
        if (command.side == null) {
            throw new IllegalArgumentException("PLACE without side");
        }
        return switch (command.side) {
            case BUY -> 0;
            case SELL -> 1;
        };
    }

    private static byte orderTypeCode(final OrderCommand command) {
        if (command.orderType == null) {
            throw new IllegalArgumentException("PLACE without orderType");
        }
        return switch (command.orderType) {
            case LIMIT -> 0;
            case MARKET -> 1;
        };
    }

    private static byte timeInForceCode(final OrderCommand command) {
        if (command.timeInForce == null) {
            throw new IllegalArgumentException("PLACE without timeInForce");
        }
        return switch (command.timeInForce) {
            case GTC -> 0;
            case IOC -> 1;
            case FOK -> 2;
        };
    }

    /** Writes {@code value} as a 16-bit byte count and its UTF-8 bytes, without allocating. */
    private static void putString(final ByteBuffer buffer, final String value, final int limit, final String field) {
        final int length = utf8Length(value, field);
        requireRoom(buffer, 2 + length, limit, field);
        buffer.putShort((short) length);
        for (int i = 0; i < value.length(); i++) {
            final char c = value.charAt(i);
            if (c < 0x80) {
                buffer.put((byte) c);
            } else if (c < 0x800) {
                buffer.put((byte) (0xC0 | (c >> 6))).put((byte) (0x80 | (c & 0x3F)));
            } else if (Character.isHighSurrogate(c) && i + 1 < value.length()
                    && Character.isLowSurrogate(value.charAt(i + 1))) {
                final int cp = Character.toCodePoint(c, value.charAt(++i));
                buffer.put((byte) (0xF0 | (cp >> 18)))
                        .put((byte) (0x80 | ((cp >> 12) & 0x3F)))
                        .put((byte) (0x80 | ((cp >> 6) & 0x3F)))
                        .put((byte) (0x80 | (cp & 0x3F)));
            } else {
                buffer.put((byte) (0xE0 | (c >> 12)))
                        .put((byte) (0x80 | ((c >> 6) & 0x3F)))
                        .put((byte) (0x80 | (c & 0x3F)));
            }
        }
    }

    /**
     * @return the number of bytes {@link #putString} writes for {@code value}
     * @throws IllegalArgumentException if {@code value} holds an unpaired surrogate (not encodable as UTF-8)
     */
    static int utf8Length(final String value, final String field) {
        int length = 0;
        for (int i = 0; i < value.length(); i++) {
            final char c = value.charAt(i);
            if (c < 0x80) {
                length += 1;
            } else if (c < 0x800) {
                length += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < value.length()
                    && Character.isLowSurrogate(value.charAt(i + 1))) {
                length += 4;
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new IllegalArgumentException(field + " has an unpaired surrogate at index " + i);
            } else {
                length += 3;
            }
        }
        return length;
    }

    private static void requireRoom(final ByteBuffer buffer, final int bytes, final int limit, final String field) {
        if (buffer.position() + bytes > limit) {
            throw new IllegalArgumentException("record exceeds " + JournalFormat.MAX_RECORD_SIZE + " bytes at " + field);
        }
    }
}
