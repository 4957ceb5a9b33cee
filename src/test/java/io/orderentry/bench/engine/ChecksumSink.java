package io.orderentry.bench.engine;

import io.orderentry.engine.BalanceCause;
import io.orderentry.engine.CommandResult;
import io.orderentry.engine.EventSink;
import io.orderentry.engine.OrderStatus;
import io.orderentry.engine.OrderType;
import io.orderentry.engine.RejectReason;
import io.orderentry.engine.Side;
import io.orderentry.engine.TimeInForce;

/**
 * An {@link EventSink} that folds every event into a checksum and counts trades, so that the JIT
 * cannot drop the work, while keeping and allocating nothing: the cheapest possible consumer.
 */
final class ChecksumSink implements EventSink {

    long checksum;
    long trades;

    @Override
    public void orderAccepted(final long eventSequence, final long timestampMicros, final long orderId,
                              final String accountId, final String clientOrderId, final int symbol, final Side side,
                              final OrderType type, final TimeInForce timeInForce, final boolean postOnly,
                              final long price, final long quantity) {
        checksum += eventSequence ^ orderId;
    }

    @Override
    public void trade(final long eventSequence, final long timestampMicros, final long tradeId, final int symbol,
                      final long price, final long quantity, final Side takerSide, final long takerOrderId,
                      final String takerAccountId, final long takerFilledQuantity, final long makerOrderId,
                      final String makerAccountId, final long makerFilledQuantity, final OrderStatus makerStatus) {
        checksum += price * quantity + makerFilledQuantity;
        trades++;
    }

    @Override
    public void orderAmended(final long eventSequence, final long timestampMicros, final long orderId,
                             final String accountId, final int symbol, final Side side, final long price,
                             final long quantity, final long filledQuantity, final long previousPrice,
                             final long previousQuantity, final boolean keptPriority) {
        checksum += quantity * 17 + price;
    }

    @Override
    public void orderUpdated(final long eventSequence, final long timestampMicros, final long orderId,
                             final String accountId, final int symbol, final Side side, final long price,
                             final long quantity, final long filledQuantity, final long remainingQuantity,
                             final OrderStatus status, final RejectReason rejectReason) {
        checksum += filledQuantity * 31 + status.ordinal();
    }

    @Override
    public void balanceChanged(final long eventSequence, final long timestampMicros, final String accountId,
                               final int asset, final long available, final long held, final long availableChange,
                               final long heldChange, final long fee, final BalanceCause cause, final long orderId,
                               final long tradeId, final String reference) {
        checksum += available ^ held + asset;
    }

    @Override
    public void commandCompleted(final CommandResult result, final long orderId) {
        checksum += result.ordinal();
    }
}
