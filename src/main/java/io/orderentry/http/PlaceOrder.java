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

    /** @return this order for {@code account} (the API key's, when the body left accountId out) */
    public PlaceOrder withAccount(final String account) {
        return new PlaceOrder(account, clientOrderId, instrument, side, type, timeInForce, postOnly, price, quantity);
    }
}
