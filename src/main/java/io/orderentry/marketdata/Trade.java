package io.orderentry.marketdata;

import io.orderentry.engine.Side;

/**
 * One execution as market data shows it: no order ids or accounts.
 *
 * @param price           execution (maker's) price in ticks
 * @param quantity        executed quantity in lots
 * @param takerSide       the side of the incoming order
 * @param timestampMicros time of the command that traded, microseconds since the epoch
 */
public record Trade(long tradeId, long price, long quantity, Side takerSide, long timestampMicros) {
}
