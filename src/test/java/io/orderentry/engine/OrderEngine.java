package io.orderentry.engine;

import java.util.ArrayList;
import java.util.List;

/**
 * What the contract tests drive: the {@link Matcher}'s public API, implemented by the matcher itself
 * (through {@link MatcherEngine}) and by the {@link ReferenceMatcher}, so that the same contract is
 * proven for both and the differential test can compare them.
 */
interface OrderEngine {

    /** One aggregated price level as {@link LevelVisitor} reports it. */
    record Level(long price, long totalQuantity, int orderCount) {
    }

    /** Places an order through stream connection {@code session} (0: none), whose cancel on disconnect cancels it. */
    void place(long timestampMicros, String accountId, String clientOrderId, int symbol, Side side, OrderType type,
               TimeInForce timeInForce, boolean postOnly, SelfTradePrevention selfTradePrevention, long price,
               long quantity, long session);

    /** Places an order through no stream connection. */
    default void place(final long timestampMicros, final String accountId, final String clientOrderId,
                       final int symbol, final Side side, final OrderType type, final TimeInForce timeInForce,
                       final boolean postOnly, final SelfTradePrevention selfTradePrevention, final long price,
                       final long quantity) {
        place(timestampMicros, accountId, clientOrderId, symbol, side, type, timeInForce, postOnly,
                selfTradePrevention, price, quantity, 0);
    }

    /** Cancels the account's resting orders placed through stream connection {@code session}. */
    void cancelOnDisconnect(long timestampMicros, String accountId, long session);

    /** The place without self-trade prevention: the same as {@link SelfTradePrevention#NONE}. */
    default void place(final long timestampMicros, final String accountId, final String clientOrderId,
                       final int symbol, final Side side, final OrderType type, final TimeInForce timeInForce,
                       final boolean postOnly, final long price, final long quantity) {
        place(timestampMicros, accountId, clientOrderId, symbol, side, type, timeInForce, postOnly,
                SelfTradePrevention.NONE, price, quantity);
    }

    void cancel(long timestampMicros, long orderId);

    /**
     * @param newPrice    the new price, 0 to keep the price
     * @param newQuantity the new total quantity (filled plus remaining), 0 to keep the quantity
     */
    void amend(long timestampMicros, long orderId, long newPrice, long newQuantity);

    /**
     * @param symbol -1 for every instrument
     * @param cause  {@link RejectReason#CANCEL_ALL} or {@link RejectReason#CANCEL_ALL_AFTER}
     */
    void cancelAll(long timestampMicros, String accountId, int symbol, RejectReason cause);

    /** Sets an instrument's price band (0 = none) and the rule by which it bounds MARKET orders, from the next command on. */
    void setPriceBand(long timestampMicros, int symbol, int basisPoints, MarketBandRule rule);

    /** Sets a band under this build's rule. */
    default void setPriceBand(final long timestampMicros, final int symbol, final int basisPoints) {
        setPriceBand(timestampMicros, symbol, basisPoints, MarketBandRule.CURRENT);
    }

    /** Funds an account (negative: a withdrawal); only for an engine made with {@link RiskRules}. */
    void fund(long timestampMicros, String accountId, int asset, long amount, String reference);

    /** Sets an instrument's fee rates (millionths); only for an engine made with {@link RiskRules}. */
    void setFees(long timestampMicros, int symbol, int makerFeeRate, int takerFeeRate);

    /** @return the account's available balance of the asset, 0 without balances */
    long available(String accountId, int asset);

    /** @return what the account's open orders hold of the asset, 0 without balances */
    long held(String accountId, int asset);

    /** @return the sum of available plus held of the asset over all accounts, 0 without balances */
    long balanceSum(int asset);

    /** @return everything funded of the asset minus everything withdrawn, 0 without balances */
    long supply(int asset);

    long lastOrderId();

    long lastTradeId();

    long lastEventSequence();

    int restingOrderCount();

    void forEachLevel(int symbol, Side side, LevelVisitor visitor);

    /** Fails with an {@link AssertionError} when the engine's state is inconsistent. */
    void checkInvariants();

    /** @return one side of a book, best level first */
    default List<Level> levels(final int symbol, final Side side) {
        final List<Level> levels = new ArrayList<>();
        forEachLevel(symbol, side, (price, total, count) -> levels.add(new Level(price, total, count)));
        return levels;
    }
}
