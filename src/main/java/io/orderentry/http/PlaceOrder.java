package io.orderentry.http;

import io.orderentry.app.Instrument;
import io.orderentry.engine.OrderType;
import io.orderentry.engine.Side;
import io.orderentry.engine.TimeInForce;

/**
 * A new-order request that passed every check at the edge, in engine units.
 *
 * @param price    limit price in ticks, 0 for MARKET
 * @param quantity quantity in lots
 */
public record PlaceOrder(String accountId, String clientOrderId, Instrument instrument, Side side, OrderType type,
                         TimeInForce timeInForce, boolean postOnly, long price, long quantity) {
}
