package io.orderentry.engine;

/**
 * Receives everything the {@link Matcher} decides, in order, on the matcher thread.
 *
 * <p>For each command the matcher calls zero or more of {@link #orderAccepted}, {@link #trade} and
 * {@link #orderUpdated}, and then exactly one {@link #commandCompleted}. The first three are
 * <em>engine events</em>: each carries the next value of the engine's event sequence (1, 2, 3, ...
 * with no gaps, restored by journal replay), which is what downstream consumers key on.
 *
 * <p>Implementations must not call back into the matcher and must not keep references to mutable
 * engine state; all arguments are primitives, enums or immutable strings.
 */
public interface EventSink {

    /**
     * A new order entered the engine, before it traded. Emitted for every placed order, including
     * ones that end up REJECTED or EXPIRED.
     *
     * @param price price in ticks; 0 for MARKET orders
     * @param quantity quantity in lots
     * @param clientOrderId may be null
     */
    void orderAccepted(long eventSequence, long timestampMicros, long orderId, String accountId,
                       String clientOrderId, int symbol, Side side, OrderType type, TimeInForce timeInForce,
                       boolean postOnly, long price, long quantity);

    /**
     * One execution between an incoming (taker) order and a resting (maker) order, at the maker's
     * price. The maker's state after the trade is given because no separate update is emitted for it.
     *
     * @param makerFilledQuantity the maker's cumulative filled quantity after this trade, in lots
     * @param makerStatus FILLED or PARTIALLY_FILLED
     * @param takerFilledQuantity the taker's cumulative filled quantity after this trade, in lots
     */
    void trade(long eventSequence, long timestampMicros, long tradeId, int symbol, long price, long quantity,
               Side takerSide, long takerOrderId, String takerAccountId, long takerFilledQuantity,
               long makerOrderId, String makerAccountId, long makerFilledQuantity, OrderStatus makerStatus);

    /**
     * The state an order was left in. Emitted once for the incoming order at the end of a place
     * command (NEW, PARTIALLY_FILLED, FILLED, EXPIRED or REJECTED), once for the amended order at the end of an amend,
     * once for the order a successful cancel removed and once per order a cancel-all removed (CANCELED), and once for
     * each resting order self-trade prevention canceled (CANCELED, in the middle of the command that caused it).
     *
     * @param quantity the order's original quantity in lots
     * @param filledQuantity cumulative filled quantity in lots
     * @param remainingQuantity what still rests in the book, in lots; 0 once the order is final
     */
    void orderUpdated(long eventSequence, long timestampMicros, long orderId, String accountId, int symbol,
                      Side side, long price, long quantity, long filledQuantity, long remainingQuantity,
                      OrderStatus status, RejectReason rejectReason);

    /**
     * A resting order's terms changed (an amend), before anything it then trades. Followed, in the same command, by the
     * trades the order makes at its new price (if any), then by {@link #orderUpdated} with its final state.
     *
     * @param price            the order's price after the amend, in ticks
     * @param quantity         its new total quantity (filled plus remaining), in lots
     * @param filledQuantity   what it had filled before the amend, in lots
     * @param previousPrice    its price before the amend
     * @param previousQuantity its total quantity before the amend
     * @param keptPriority     true when it kept its place in the queue (same price, quantity not larger)
     */
    void orderAmended(long eventSequence, long timestampMicros, long orderId, String accountId, int symbol, Side side,
                      long price, long quantity, long filledQuantity, long previousPrice, long previousQuantity,
                      boolean keptPriority);

    /**
     * The command is finished. Not an engine event: it carries no sequence.
     *
     * @param orderId the order the command concerned: the new order, the duplicate's original
     *                order, or the cancel's target (which may be unknown)
     */
    void commandCompleted(CommandResult result, long orderId);

    /**
     * With balances ({@link Funds}): an account's balance of one asset changed (sequenced engine event). Carries the
     * new balance and what changed, so that a consumer keeps the balances by taking the last event of each account
     * and asset, and a ledger by keeping them all. A sink that runs without balances never receives one.
     *
     * @param asset           the asset's index in the {@link RiskRules}
     * @param available       the account's available balance of the asset after the change, in units of the asset
     * @param held            what its open orders hold of it after the change
     * @param availableChange what was added to available (negative: taken)
     * @param heldChange      what was added to held (negative: taken)
     * @param fee             of a TRADE, the fee taken from what the account received (already out of availableChange)
     * @param orderId         the order concerned, 0 for a funding
     * @param tradeId         the trade concerned, 0 for anything but TRADE and FEE
     * @param reference       of a funding, its reference; else null
     */
    default void balanceChanged(long eventSequence, long timestampMicros, String accountId, int asset, long available,
                                long held, long availableChange, long heldChange, long fee, BalanceCause cause,
                                long orderId, long tradeId, String reference) {
        throw new UnsupportedOperationException("this sink does not take balance events");
    }

    /**
     * The end of a funding command, instead of {@link #commandCompleted}: its result and the balance it answers with.
     * By default reported as {@code commandCompleted(result, 0)}.
     *
     * @param result    FUNDED, FUNDING_DUPLICATE, FUNDING_MISMATCH (then the original funding's account, asset and
     *                  answer), INSUFFICIENT_BALANCE or BALANCE_LIMIT_EXCEEDED (then the balance as it is)
     * @param available the available balance after the funding (or as it is)
     * @param held      the held balance
     * @param sequence  the engine event sequence of the funding's balance event, 0 when it changed nothing
     */
    default void fundingCompleted(CommandResult result, String accountId, int asset, long available, long held,
                                  long sequence) {
        commandCompleted(result, 0);
    }
}
