package io.orderentry.engine;

/** One {@link EventSink} callback, captured as a value so that tests can compare streams of them. */
sealed interface RecordedEvent {

    record Accepted(long sequence, long timestamp, long orderId, String accountId, String clientOrderId, int symbol,
                    Side side, OrderType type, TimeInForce timeInForce, boolean postOnly, long price, long quantity)
            implements RecordedEvent {
    }

    record Trade(long sequence, long timestamp, long tradeId, int symbol, long price, long quantity, Side takerSide,
                 long takerOrderId, String takerAccountId, long takerFilled, long makerOrderId, String makerAccountId,
                 long makerFilled, OrderStatus makerStatus) implements RecordedEvent {
    }

    record Updated(long sequence, long timestamp, long orderId, String accountId, int symbol, Side side, long price,
                   long quantity, long filled, long remaining, OrderStatus status, RejectReason rejectReason)
            implements RecordedEvent {
    }

    record Amended(long sequence, long timestamp, long orderId, String accountId, int symbol, Side side, long price,
                   long quantity, long filled, long previousPrice, long previousQuantity, boolean keptPriority)
            implements RecordedEvent {
    }

    record Completed(CommandResult result, long orderId) implements RecordedEvent {
    }

    record Balance(long sequence, long timestamp, String accountId, int asset, long available, long held,
                   long availableChange, long heldChange, long fee, BalanceCause cause, long orderId, long tradeId,
                   String reference) implements RecordedEvent {
    }

    record Funded(CommandResult result, String accountId, int asset, long available, long held, long sequence)
            implements RecordedEvent {
    }
}
