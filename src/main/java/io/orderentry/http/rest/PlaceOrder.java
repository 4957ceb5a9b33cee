package io.orderentry.http.rest;

import io.orderentry.engine.OrderType;
import io.orderentry.engine.SelfTradePrevention;
import io.orderentry.engine.Side;
import io.orderentry.engine.TimeInForce;
import io.orderentry.instrument.Instrument;

/**
 * A new-order request that passed every check at the edge, in engine units.
 *
 * @param selfTradePrevention as the body named it, else the venue's default
 * @param price    limit price in ticks, 0 for MARKET
 * @param quantity quantity in lots
 */
public record PlaceOrder(String accountId, String clientOrderId, Instrument instrument, Side side, OrderType type,
                         TimeInForce timeInForce, boolean postOnly, SelfTradePrevention selfTradePrevention,
                         long price, long quantity) {

    /** @return this order for {@code account} (the API key's, when the body left accountId out) */
    public PlaceOrder withAccount(final String account) {
        return new PlaceOrder(account, clientOrderId, instrument, side, type, timeInForce, postOnly,
                selfTradePrevention, price, quantity);
    }
}
