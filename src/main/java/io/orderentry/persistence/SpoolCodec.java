package io.orderentry.persistence;

import io.orderentry.engine.BalanceCause;
import io.orderentry.engine.OrderStatus;
import io.orderentry.engine.OrderType;
import io.orderentry.engine.RejectReason;
import io.orderentry.engine.SelfTradePrevention;
import io.orderentry.engine.Side;
import io.orderentry.engine.TimeInForce;
import io.orderentry.pipeline.EngineEvent;
import io.orderentry.pipeline.EventType;
import io.orderentry.pipeline.InlineText;
import java.nio.ByteBuffer;

/**
 * The binary form of one sequenced {@link EngineEvent} in the spool. No checksum: the spool is written
 * and read by the same process, read only up to what the writer has published, and rebuilt from the
 * journal at every start.
 *
 * <pre>
 *  int   length of the whole record in bytes
 *  byte  type (ORDER_ACCEPTED 0, TRADE 1, ORDER_UPDATED 2, ORDER_AMENDED 3, BALANCE_CHANGED 4)
 *  long  event sequence, long command sequence, long timestamp micros, short symbol
 *  ...   the type's fields; strings as one length byte (255 = null) and ASCII bytes:
 *        ORDER_ACCEPTED  long orderId, accountId, clientOrderId, byte side, order type, time in force, postOnly,
 *                        self-trade prevention, long price, quantity
 *        TRADE           long tradeId, price, quantity, byte taker side, long taker order, taker account,
 *                        long taker filled, long maker order, maker account, long maker filled, byte maker status
 *        ORDER_UPDATED   long orderId, accountId, byte side, long price, quantity, filled, remaining, byte status,
 *                        reject reason
 *        ORDER_AMENDED   long orderId, accountId, byte side, long price, quantity, filled, previous price,
 *                        previous quantity, byte kept priority
 *        BALANCE_CHANGED accountId, byte asset, long available, held, available change, held change, fee, byte cause,
 *                        long orderId, tradeId, reference
 * </pre>
 * Enums are written as ordinals: the spool is never read by another build (it is rebuilt from the journal at start).
 *
 * Stateless; {@link #encode} runs on the persistence stage thread, {@link #decode} on the writer thread.
 */
final class SpoolCodec {

    /** No record is longer than this. */
    static final int MAX_RECORD_SIZE = 1024;
    /** Longest string a record carries; identifiers are at most 64 characters at the HTTP edge. */
    static final int MAX_STRING_LENGTH = 254;

    private static final byte ACCEPTED = 0;
    private static final byte TRADE = 1;
    private static final byte UPDATED = 2;
    private static final byte AMENDED = 3;
    private static final byte BALANCE = 4;
    private static final BalanceCause[] CAUSES = BalanceCause.values();
    private static final int NULL_STRING = 255;

    private static final Side[] SIDES = Side.values();
    private static final OrderType[] ORDER_TYPES = OrderType.values();
    private static final TimeInForce[] TIMES_IN_FORCE = TimeInForce.values();
    private static final OrderStatus[] STATUSES = OrderStatus.values();
    private static final RejectReason[] REJECT_REASONS = RejectReason.values();
    private static final SelfTradePrevention[] STP_MODES = SelfTradePrevention.values();

    private SpoolCodec() {
    }

    /**
     * Appends {@code event} at the buffer's position, which must have {@link #MAX_RECORD_SIZE} bytes left.
     *
     * @throws IllegalArgumentException if the event is not a sequenced one or a string is not ASCII or too long
     */
    static void encode(final EngineEvent event, final ByteBuffer buffer) {
        final int start = buffer.position();
        buffer.putInt(0);
        switch (event.type) {
            case ORDER_ACCEPTED -> {
                header(buffer, ACCEPTED, event);
                buffer.putLong(event.orderId);
                putString(buffer, event.accountId);
                putString(buffer, event.clientOrderId);
                buffer.put((byte) event.side.ordinal()).put((byte) event.orderType.ordinal())
                        .put((byte) event.timeInForce.ordinal()).put((byte) (event.postOnly ? 1 : 0))
                        .put((byte) (event.selfTradePrevention == null ? 0 : event.selfTradePrevention.ordinal()));
                buffer.putLong(event.price).putLong(event.quantity);
            }
            case TRADE -> {
                header(buffer, TRADE, event);
                buffer.putLong(event.tradeId).putLong(event.price).putLong(event.quantity);
                buffer.put((byte) event.takerSide.ordinal()).putLong(event.takerOrderId);
                putString(buffer, event.takerAccountId);
                buffer.putLong(event.takerFilledQuantity).putLong(event.makerOrderId);
                putString(buffer, event.makerAccountId);
                buffer.putLong(event.makerFilledQuantity).put((byte) event.makerStatus.ordinal());
            }
            case ORDER_UPDATED -> {
                header(buffer, UPDATED, event);
                buffer.putLong(event.orderId);
                putString(buffer, event.accountId);
                buffer.put((byte) event.side.ordinal());
                buffer.putLong(event.price).putLong(event.quantity).putLong(event.filledQuantity)
                        .putLong(event.remainingQuantity);
                buffer.put((byte) event.status.ordinal()).put((byte) event.rejectReason.ordinal());
            }
            case ORDER_AMENDED -> {
                header(buffer, AMENDED, event);
                buffer.putLong(event.orderId);
                putString(buffer, event.accountId);
                buffer.put((byte) event.side.ordinal());
                buffer.putLong(event.price).putLong(event.quantity).putLong(event.filledQuantity)
                        .putLong(event.previousPrice).putLong(event.previousQuantity);
                buffer.put((byte) (event.keptPriority ? 1 : 0));
            }
            case BALANCE_CHANGED -> {
                header(buffer, BALANCE, event);
                putString(buffer, event.accountId);
                buffer.put((byte) event.asset).putLong(event.available).putLong(event.held)
                        .putLong(event.availableChange).putLong(event.heldChange).putLong(event.fee)
                        .put((byte) event.balanceCause.ordinal()).putLong(event.orderId).putLong(event.tradeId);
                putString(buffer, event.reference);
            }
            default -> throw new IllegalArgumentException("only sequenced events are spooled, not " + event.type);
        }
        buffer.putInt(start, buffer.position() - start);
    }

    /** @return the length of the record starting at {@code offset}, read without moving the buffer */
    static int recordLength(final ByteBuffer buffer, final int offset) {
        return buffer.getInt(offset);
    }

    /**
     * Reads one whole record at the buffer's position into {@code event} (reset first) and advances past it.
     *
     * @throws IllegalStateException if the bytes are not a record this codec wrote
     */
    static void decode(final ByteBuffer buffer, final EngineEvent event) {
        final int start = buffer.position();
        final int length = buffer.getInt();
        event.reset();
        final byte type = buffer.get();
        event.eventSequence = buffer.getLong();
        event.commandSequence = buffer.getLong();
        event.timestampMicros = buffer.getLong();
        event.symbol = buffer.getShort();
        switch (type) {
            case ACCEPTED -> {
                event.type = EventType.ORDER_ACCEPTED;
                event.orderId = buffer.getLong();
                event.accountId = getString(buffer);
                event.clientOrderId.set(getString(buffer));
                event.side = SIDES[buffer.get()];
                event.orderType = ORDER_TYPES[buffer.get()];
                event.timeInForce = TIMES_IN_FORCE[buffer.get()];
                event.postOnly = buffer.get() != 0;
                event.selfTradePrevention = STP_MODES[buffer.get()];
                event.price = buffer.getLong();
                event.quantity = buffer.getLong();
                event.status = OrderStatus.NEW;
                event.rejectReason = RejectReason.NONE;
            }
            case TRADE -> {
                event.type = EventType.TRADE;
                event.tradeId = buffer.getLong();
                event.price = buffer.getLong();
                event.quantity = buffer.getLong();
                event.takerSide = SIDES[buffer.get()];
                event.takerOrderId = buffer.getLong();
                event.takerAccountId = getString(buffer);
                event.takerFilledQuantity = buffer.getLong();
                event.makerOrderId = buffer.getLong();
                event.makerAccountId = getString(buffer);
                event.makerFilledQuantity = buffer.getLong();
                event.makerStatus = STATUSES[buffer.get()];
            }
            case UPDATED -> {
                event.type = EventType.ORDER_UPDATED;
                event.orderId = buffer.getLong();
                event.accountId = getString(buffer);
                event.side = SIDES[buffer.get()];
                event.price = buffer.getLong();
                event.quantity = buffer.getLong();
                event.filledQuantity = buffer.getLong();
                event.remainingQuantity = buffer.getLong();
                event.status = STATUSES[buffer.get()];
                event.rejectReason = REJECT_REASONS[buffer.get()];
            }
            case AMENDED -> {
                event.type = EventType.ORDER_AMENDED;
                event.orderId = buffer.getLong();
                event.accountId = getString(buffer);
                event.side = SIDES[buffer.get()];
                event.price = buffer.getLong();
                event.quantity = buffer.getLong();
                event.filledQuantity = buffer.getLong();
                event.previousPrice = buffer.getLong();
                event.previousQuantity = buffer.getLong();
                event.keptPriority = buffer.get() != 0;
            }
            case BALANCE -> {
                event.type = EventType.BALANCE_CHANGED;
                event.accountId = getString(buffer);
                event.asset = buffer.get();
                event.available = buffer.getLong();
                event.held = buffer.getLong();
                event.availableChange = buffer.getLong();
                event.heldChange = buffer.getLong();
                event.fee = buffer.getLong();
                event.balanceCause = CAUSES[buffer.get()];
                event.orderId = buffer.getLong();
                event.tradeId = buffer.getLong();
                event.reference = getString(buffer);
            }
            default -> throw new IllegalStateException("spool record of unknown type " + type + " at " + start);
        }
        if (buffer.position() - start != length) {
            throw new IllegalStateException("spool record at " + start + " is " + length + " bytes long but "
                    + (buffer.position() - start) + " were decoded");
        }
    }

    private static void header(final ByteBuffer buffer, final byte type, final EngineEvent event) {
        buffer.put(type).putLong(event.eventSequence).putLong(event.commandSequence).putLong(event.timestampMicros)
                .putShort((short) event.symbol);
    }

    private static void putString(final ByteBuffer buffer, final String value) {
        if (value == null) {
            buffer.put((byte) NULL_STRING);
            return;
        }
        final int length = value.length();
        buffer.put(spooledLength(length));
        for (int i = 0; i < length; i++) {
            final char c = value.charAt(i);
            if (c > 0x7F) {
                throw new IllegalArgumentException("non-ASCII identifier cannot be spooled: " + value);
            }
            buffer.put((byte) c);
        }
    }

    private static void putString(final ByteBuffer buffer, final InlineText value) {
        if (!value.isInline()) {
            putString(buffer, value.toStringOrNull());
            return;
        }
        buffer.put(spooledLength(value.length()));
        for (int i = 0; i < value.length(); i++) {
            buffer.put(value.byteAt(i));
        }
    }

    private static byte spooledLength(final int length) {
        if (length > MAX_STRING_LENGTH) {
            throw new IllegalArgumentException("string of " + length + " characters cannot be spooled");
        }
        return (byte) length;
    }

    private static String getString(final ByteBuffer buffer) {
        final int length = buffer.get() & 0xFF;
        if (length == NULL_STRING) {
            return null;
        }
        final char[] chars = new char[length];
        for (int i = 0; i < length; i++) {
            chars[i] = (char) buffer.get();
        }
        return new String(chars);
    }
}
