package io.orderentry.journal;

import io.orderentry.engine.MarketBandRule;
import io.orderentry.engine.OrderType;
import io.orderentry.engine.RejectReason;
import io.orderentry.engine.SelfTradePrevention;
import io.orderentry.engine.Side;
import io.orderentry.engine.TimeInForce;
import io.orderentry.pipeline.CommandType;
import io.orderentry.pipeline.OrderCommand;

import java.util.Map;

/** Test commands and the instrument list they use. */
public final class Commands {

    static final String[] SYMBOLS = {"BTCUSD", "ETHUSD", "SOLUSD"};
    static final Map<String, Integer> SYMBOL_INDEX = Map.of("BTCUSD", 0, "ETHUSD", 1, "SOLUSD", 2);

    private Commands() {
    }

    public static void place(final OrderCommand c, final String accountId, final String clientOrderId, final int symbol,
                      final Side side, final OrderType type, final TimeInForce tif, final boolean postOnly,
                      final long price, final long quantity) {
        c.reset();
        c.type = CommandType.PLACE;
        c.requestId = 77;
        c.replyTo = 1;
        c.accountId = accountId;
        c.clientOrderId = clientOrderId;
        c.symbol = symbol;
        c.side = side;
        c.orderType = type;
        c.timeInForce = tif;
        c.postOnly = postOnly;
        c.selfTradePrevention = SelfTradePrevention.NONE;
        c.price = price;
        c.quantity = quantity;
    }

    static void amend(final OrderCommand c, final long orderId, final long price, final long quantity) {
        c.reset();
        c.type = CommandType.AMEND;
        c.requestId = 79;
        c.replyTo = 0;
        c.orderId = orderId;
        c.price = price;
        c.quantity = quantity;
    }

    static void cancelAll(final OrderCommand c, final String accountId, final int symbol, final RejectReason cause) {
        c.reset();
        c.type = CommandType.CANCEL_ALL;
        c.requestId = 80;
        c.replyTo = 0;
        c.accountId = accountId;
        c.symbol = symbol;
        c.cancelAllCause = cause;
    }

    static void setPriceBand(final OrderCommand c, final int symbol, final int basisPoints) {
        setPriceBand(c, symbol, basisPoints, MarketBandRule.CURRENT);
    }

    static void setPriceBand(final OrderCommand c, final int symbol, final int basisPoints, final MarketBandRule rule) {
        c.reset();
        c.type = CommandType.SET_PRICE_BAND;
        c.symbol = symbol;
        c.priceBandBasisPoints = basisPoints;
        c.priceBandRule = rule;
    }

    static void cancel(final OrderCommand c, final long orderId) {
        c.reset();
        c.type = CommandType.CANCEL;
        c.requestId = 78;
        c.replyTo = 0;
        c.orderId = orderId;
    }

    /** Fills {@code c} with the i-th command of a deterministic mix of PLACE and CANCEL. */
    static void nth(final OrderCommand c, final long i) {
        if (i % 5 == 4) {
            cancel(c, i * 3);
        } else {
            place(c, "acct-" + (i % 97), i % 3 == 0 ? null : "c-" + i, (int) (i % SYMBOLS.length),
                    i % 2 == 0 ? Side.BUY : Side.SELL, OrderType.LIMIT, TimeInForce.GTC, i % 7 == 0,
                    50_000_00 + i % 1000, 1 + i % 50);
        }
    }

    static OrderCommand nth(final long i) {
        final OrderCommand c = new OrderCommand();
        nth(c, i);
        return c;
    }
}
