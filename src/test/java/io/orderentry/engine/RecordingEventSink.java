package io.orderentry.engine;

import java.util.ArrayList;
import java.util.List;

/** An {@link EventSink} that records every callback, in order, as a {@link RecordedEvent}. */
final class RecordingEventSink implements EventSink {

    private final List<RecordedEvent> events = new ArrayList<>();

    /** @return the events recorded since the last {@link #clear()}, oldest first */
    List<RecordedEvent> events() {
        return events;
    }

    void clear() {
        events.clear();
    }

    List<RecordedEvent.Trade> trades() {
        return ofType(RecordedEvent.Trade.class);
    }

    List<RecordedEvent.Updated> updates() {
        return ofType(RecordedEvent.Updated.class);
    }

    List<RecordedEvent.Accepted> accepted() {
        return ofType(RecordedEvent.Accepted.class);
    }

    List<RecordedEvent.Amended> amendments() {
        return ofType(RecordedEvent.Amended.class);
    }

    List<RecordedEvent.Balance> balances() {
        return ofType(RecordedEvent.Balance.class);
    }

    /** @return the one funding completion recorded since the last clear */
    RecordedEvent.Funded funded() {
        return only(ofType(RecordedEvent.Funded.class));
    }

    List<RecordedEvent.Completed> completions() {
        return ofType(RecordedEvent.Completed.class);
    }

    /** @return the one update recorded since the last clear */
    RecordedEvent.Updated update() {
        return only(updates());
    }

    /** @return the one completion recorded since the last clear */
    RecordedEvent.Completed completion() {
        return only(completions());
    }

    @Override
    public void orderAccepted(final long eventSequence, final long timestampMicros, final long orderId,
                              final String accountId, final String clientOrderId, final int symbol, final Side side,
                              final OrderType type, final TimeInForce timeInForce, final boolean postOnly,
                              final long price, final long quantity) {
        events.add(new RecordedEvent.Accepted(eventSequence, timestampMicros, orderId, accountId, clientOrderId, symbol,
                side, type, timeInForce, postOnly, price, quantity));
    }

    @Override
    public void trade(final long eventSequence, final long timestampMicros, final long tradeId, final int symbol,
                      final long price, final long quantity, final Side takerSide, final long takerOrderId,
                      final String takerAccountId, final long takerFilledQuantity, final long makerOrderId,
                      final String makerAccountId, final long makerFilledQuantity, final OrderStatus makerStatus) {
        events.add(new RecordedEvent.Trade(eventSequence, timestampMicros, tradeId, symbol, price, quantity, takerSide,
                takerOrderId, takerAccountId, takerFilledQuantity, makerOrderId, makerAccountId, makerFilledQuantity,
                makerStatus));
    }

    @Override
    public void orderAmended(final long eventSequence, final long timestampMicros, final long orderId,
                             final String accountId, final int symbol, final Side side, final long price,
                             final long quantity, final long filledQuantity, final long previousPrice,
                             final long previousQuantity, final boolean keptPriority) {
        events.add(new RecordedEvent.Amended(eventSequence, timestampMicros, orderId, accountId, symbol, side, price,
                quantity, filledQuantity, previousPrice, previousQuantity, keptPriority));
    }

    @Override
    public void orderUpdated(final long eventSequence, final long timestampMicros, final long orderId,
                             final String accountId, final int symbol, final Side side, final long price,
                             final long quantity, final long filledQuantity, final long remainingQuantity,
                             final OrderStatus status, final RejectReason rejectReason) {
        events.add(new RecordedEvent.Updated(eventSequence, timestampMicros, orderId, accountId, symbol, side, price,
                quantity, filledQuantity, remainingQuantity, status, rejectReason));
    }

    @Override
    public void commandCompleted(final CommandResult result, final long orderId) {
        events.add(new RecordedEvent.Completed(result, orderId));
    }

    @Override
    public void balanceChanged(final long eventSequence, final long timestampMicros, final String accountId,
                               final int asset, final long available, final long held, final long availableChange,
                               final long heldChange, final long fee, final BalanceCause cause, final long orderId,
                               final long tradeId, final String reference) {
        events.add(new RecordedEvent.Balance(eventSequence, timestampMicros, accountId, asset, available, held,
                availableChange, heldChange, fee, cause, orderId, tradeId, reference));
    }

    @Override
    public void fundingCompleted(final CommandResult result, final String accountId, final int asset,
                                 final long available, final long held, final long sequence) {
        events.add(new RecordedEvent.Funded(result, accountId, asset, available, held, sequence));
    }

    private <T extends RecordedEvent> List<T> ofType(final Class<T> type) {
        final List<T> matching = new ArrayList<>();
        for (final RecordedEvent event : events) {
            if (type.isInstance(event)) {
                matching.add(type.cast(event));
            }
        }
        return matching;
    }

    private static <T> T only(final List<T> list) {
        if (list.size() != 1) {
            throw new AssertionError("expected exactly one, got " + list);
        }
        return list.get(0);
    }
}
