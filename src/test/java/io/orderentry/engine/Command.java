package io.orderentry.engine;

/**
 * One generated engine command, for the determinism, differential, snapshot and allocation tests: a place, a
 * cancel, an amend, a cancel-all or a funding. Fields a kind does not use are null, 0 or false.
 *
 * @param orderId             the target of a cancel or an amend
 * @param symbol              for a cancel-all, -1 means every instrument
 * @param price               a place's price; an amend's new price (0 = keep)
 * @param quantity            a place's quantity; an amend's new total quantity (0 = keep)
 * @param cause               a cancel-all's reason, CANCEL_ALL or CANCEL_ALL_AFTER
 * @param session             a place's stream connection (0: none); the connection a cancel on disconnect names
 */
record Command(Kind kind, long orderId, String accountId, String clientOrderId, int symbol, Side side,
               OrderType type, TimeInForce timeInForce, boolean postOnly, SelfTradePrevention selfTradePrevention,
               long price, long quantity, RejectReason cause, long session) {

    enum Kind { PLACE, CANCEL, AMEND, CANCEL_ALL, SET_PRICE_BAND, CANCEL_ON_DISCONNECT, FUND, SET_FEES }

    /** A command of no stream connection. */
    Command(final Kind kind, final long orderId, final String accountId, final String clientOrderId, final int symbol,
            final Side side, final OrderType type, final TimeInForce timeInForce, final boolean postOnly,
            final SelfTradePrevention selfTradePrevention, final long price, final long quantity,
            final RejectReason cause) {
        this(kind, orderId, accountId, clientOrderId, symbol, side, type, timeInForce, postOnly, selfTradePrevention,
                price, quantity, cause, 0);
    }

    /** A cancel of the account's orders placed through stream connection {@code session}, which closed. */
    static Command cancelOnDisconnect(final String accountId, final long session) {
        return new Command(Kind.CANCEL_ON_DISCONNECT, 0, accountId, null, -1, null, null, null, false, null, 0, 0,
                RejectReason.CANCEL_ON_DISCONNECT, session);
    }

    /** @return this command (a place) through stream connection {@code connection} */
    Command through(final long connection) {
        return new Command(kind, orderId, accountId, clientOrderId, symbol, side, type, timeInForce, postOnly,
                selfTradePrevention, price, quantity, cause, connection);
    }

    /** A funding: the asset travels in {@code symbol}, the amount in {@code quantity}, the reference as the client id. */
    static Command fund(final String accountId, final int asset, final long amount, final String reference) {
        return new Command(Kind.FUND, 0, accountId, reference, asset, null, null, null, false, null, 0, amount, null);
    }

    /** A change of an instrument's fee rates: the maker's travels in {@code price}, the taker's in {@code quantity}. */
    static Command setFees(final int symbol, final int maker, final int taker) {
        return new Command(Kind.SET_FEES, 0, null, null, symbol, null, null, null, false, null, maker, taker, null);
    }

    static Command cancelOf(final long orderId) {
        return new Command(Kind.CANCEL, orderId, null, null, 0, null, null, null, false, null, 0, 0, null);
    }

    static Command place(final String accountId, final String clientOrderId, final int symbol, final Side side,
                         final OrderType type, final TimeInForce timeInForce, final boolean postOnly,
                         final SelfTradePrevention selfTradePrevention, final long price, final long quantity) {
        return new Command(Kind.PLACE, 0, accountId, clientOrderId, symbol, side, type, timeInForce, postOnly,
                selfTradePrevention, price, quantity, null);
    }

    static Command place(final String accountId, final String clientOrderId, final int symbol, final Side side,
                         final OrderType type, final TimeInForce timeInForce, final boolean postOnly, final long price,
                         final long quantity) {
        return place(accountId, clientOrderId, symbol, side, type, timeInForce, postOnly, SelfTradePrevention.NONE,
                price, quantity);
    }

    static Command amend(final long orderId, final long newPrice, final long newQuantity) {
        return new Command(Kind.AMEND, orderId, null, null, 0, null, null, null, false, null, newPrice, newQuantity,
                null);
    }

    /** A change of an instrument's band under this build's rule. */
    static Command setPriceBand(final int symbol, final int basisPoints) {
        return setPriceBand(symbol, basisPoints, MarketBandRule.CURRENT);
    }

    /** A change of an instrument's band: its basis points travel in {@code quantity}, its rule's code in {@code price}. */
    static Command setPriceBand(final int symbol, final int basisPoints, final MarketBandRule rule) {
        return new Command(Kind.SET_PRICE_BAND, 0, null, null, symbol, null, null, null, false, null, rule.code(),
                basisPoints, null);
    }

    /** @return a band change's rule */
    MarketBandRule bandRule() {
        return MarketBandRule.ofCode((int) price);
    }

    static Command cancelAll(final String accountId, final int symbol, final RejectReason cause) {
        return new Command(Kind.CANCEL_ALL, 0, accountId, null, symbol, null, null, null, false, null, 0, 0, cause);
    }

    /** @return this command with another quantity (a place's) */
    Command withQuantity(final long newQuantity) {
        return new Command(kind, orderId, accountId, clientOrderId, symbol, side, type, timeInForce, postOnly,
                selfTradePrevention, price, newQuantity, cause, session);
    }

    /** @return this command with another self-trade prevention mode (a place's) */
    Command withSelfTradePrevention(final SelfTradePrevention mode) {
        return new Command(kind, orderId, accountId, clientOrderId, symbol, side, type, timeInForce, postOnly, mode,
                price, quantity, cause, session);
    }

    void applyTo(final OrderEngine engine, final long timestampMicros) {
        switch (kind) {
            case PLACE -> engine.place(timestampMicros, accountId, clientOrderId, symbol, side, type, timeInForce,
                    postOnly, selfTradePrevention, price, quantity, session);
            case CANCEL_ON_DISCONNECT -> engine.cancelOnDisconnect(timestampMicros, accountId, session);
            case CANCEL -> engine.cancel(timestampMicros, orderId);
            case AMEND -> engine.amend(timestampMicros, orderId, price, quantity);
            case CANCEL_ALL -> engine.cancelAll(timestampMicros, accountId, symbol, cause);
            case SET_PRICE_BAND -> engine.setPriceBand(timestampMicros, symbol, (int) quantity, bandRule());
            case FUND -> engine.fund(timestampMicros, accountId, symbol, quantity, clientOrderId);
            case SET_FEES -> engine.setFees(timestampMicros, symbol, (int) price, (int) quantity);
            default -> throw new IllegalStateException(kind.toString());
        }
    }

    /** The same, straight into a {@link Matcher} (for the tests that look at the matcher itself). */
    void applyTo(final Matcher matcher, final long timestampMicros) {
        switch (kind) {
            case PLACE -> matcher.place(timestampMicros, accountId, clientOrderId, symbol, side, type, timeInForce,
                    postOnly, selfTradePrevention, price, quantity, session);
            case CANCEL_ON_DISCONNECT -> matcher.cancelOnDisconnect(timestampMicros, accountId, session);
            case CANCEL -> matcher.cancel(timestampMicros, orderId);
            case AMEND -> matcher.amend(timestampMicros, orderId, price, quantity);
            case CANCEL_ALL -> matcher.cancelAll(timestampMicros, accountId, symbol, cause);
            case SET_PRICE_BAND -> matcher.setPriceBand(timestampMicros, symbol, (int) quantity, bandRule());
            case FUND -> matcher.fund(timestampMicros, accountId, symbol, quantity, clientOrderId);
            case SET_FEES -> matcher.setFees(timestampMicros, symbol, (int) price, (int) quantity);
            default -> throw new IllegalStateException(kind.toString());
        }
    }
}
