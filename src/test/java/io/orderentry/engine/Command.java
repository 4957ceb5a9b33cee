package io.orderentry.engine;

/** One generated engine command, for the determinism and differential tests. */
record Command(boolean cancel, long orderId, String accountId, String clientOrderId, int symbol, Side side,
               OrderType type, TimeInForce timeInForce, boolean postOnly, long price, long quantity) {

    static Command cancelOf(final long orderId) {
        return new Command(true, orderId, null, null, 0, null, null, null, false, 0, 0);
    }

    static Command place(final String accountId, final String clientOrderId, final int symbol, final Side side,
                         final OrderType type, final TimeInForce timeInForce, final boolean postOnly, final long price,
                         final long quantity) {
        return new Command(false, 0, accountId, clientOrderId, symbol, side, type, timeInForce, postOnly, price, quantity);
    }

    void applyTo(final OrderEngine engine, final long timestampMicros) {
        if (cancel) {
            engine.cancel(timestampMicros, orderId);
        } else {
            engine.place(timestampMicros, accountId, clientOrderId, symbol, side, type, timeInForce, postOnly, price,
                    quantity);
        }
    }
}
