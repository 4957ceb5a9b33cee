package io.orderentry.journal;

import io.orderentry.engine.MarketBandRule;
import io.orderentry.engine.OrderType;
import io.orderentry.engine.RejectReason;
import io.orderentry.engine.SelfTradePrevention;
import io.orderentry.engine.Side;
import io.orderentry.engine.TimeInForce;
import io.orderentry.pipeline.CommandType;
import io.orderentry.pipeline.OrderCommand;

import java.util.Objects;

/** The journaled fields of an {@link OrderCommand}, copied so that they can be compared. */
record Recorded(long sequence, long timestampMicros, CommandType type, String accountId, String clientOrderId,
                int symbol, Side side, OrderType orderType, TimeInForce timeInForce, boolean postOnly,
                SelfTradePrevention selfTradePrevention, long price, long quantity, long orderId,
                RejectReason cancelAllCause, int priceBandBasisPoints, MarketBandRule priceBandRule, long session) {

    static Recorded of(final OrderCommand c) {
        return new Recorded(c.sequence, c.timestampMicros, c.type, c.accountId, c.clientOrderId, c.symbol, c.side,
                c.orderType, c.timeInForce, c.postOnly, c.selfTradePrevention, c.price, c.quantity, c.orderId,
                c.cancelAllCause, c.priceBandBasisPoints, c.priceBandRule, c.session);
    }

    /** @return the command part only, without sequence and timestamp */
    Recorded withoutPosition() {
        return new Recorded(0, 0, type, accountId, clientOrderId, symbol, side, orderType, timeInForce, postOnly,
                selfTradePrevention, price, quantity, orderId, cancelAllCause, priceBandBasisPoints, priceBandRule,
                session);
    }

    boolean sameCommandAs(final OrderCommand c) {
        return Objects.equals(withoutPosition(), of(c).withoutPosition());
    }
}
