package io.orderentry.marketdata;

import io.orderentry.engine.Side;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * One execution as market data shows it: no order ids or accounts.
 *
 * @param price           execution (maker's) price in ticks
 * @param quantity        executed quantity in lots
 * @param takerSide       the side of the incoming order
 * @param timestampMicros time of the command that traded, microseconds since the epoch
 */
public record Trade(long tradeId, long price, long quantity, Side takerSide, long timestampMicros) {

    private static final Side[] SIDES = Side.values();

    /** Writes it for a market data snapshot: {@code long} id, price, quantity, {@code byte} taker side, {@code long} time. */
    void writeSnapshot(final DataOutput out) throws IOException {
        out.writeLong(tradeId);
        out.writeLong(price);
        out.writeLong(quantity);
        out.writeByte(takerSide.ordinal());
        out.writeLong(timestampMicros);
    }

    /** @throws IOException if the input ends early or holds no valid trade */
    static Trade readSnapshot(final DataInput in) throws IOException {
        final long tradeId = in.readLong();
        final long price = in.readLong();
        final long quantity = in.readLong();
        final int side = in.readByte();
        final long timestampMicros = in.readLong();
        if (tradeId <= 0 || price <= 0 || quantity <= 0 || side < 0 || side >= SIDES.length) {
            throw new IOException("malformed trade: id " + tradeId + ", price " + price + ", quantity " + quantity
                    + ", taker side " + side);
        }
        return new Trade(tradeId, price, quantity, SIDES[side], timestampMicros);
    }
}
