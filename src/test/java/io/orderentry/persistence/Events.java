package io.orderentry.persistence;

import io.orderentry.pipeline.EngineEvent;
import java.util.List;

/** Copies and sources of engine events for persistence tests. */
final class Events {

    private Events() {
    }

    /** Copies every field of {@code from} into {@code to}. */
    static void copy(final EngineEvent from, final EngineEvent to) {
        to.reset();
        to.type = from.type;
        to.eventSequence = from.eventSequence;
        to.timestampMicros = from.timestampMicros;
        to.commandSequence = from.commandSequence;
        to.replay = from.replay;
        to.requestId = from.requestId;
        to.replyTo = from.replyTo;
        to.orderId = from.orderId;
        to.accountId = from.accountId;
        to.clientOrderId.set(from.clientOrderId);
        to.symbol = from.symbol;
        to.side = from.side;
        to.orderType = from.orderType;
        to.timeInForce = from.timeInForce;
        to.postOnly = from.postOnly;
        to.selfTradePrevention = from.selfTradePrevention;
        to.price = from.price;
        to.quantity = from.quantity;
        to.filledQuantity = from.filledQuantity;
        to.remainingQuantity = from.remainingQuantity;
        to.status = from.status;
        to.rejectReason = from.rejectReason;
        to.previousPrice = from.previousPrice;
        to.previousQuantity = from.previousQuantity;
        to.keptPriority = from.keptPriority;
        to.tradeId = from.tradeId;
        to.takerSide = from.takerSide;
        to.takerOrderId = from.takerOrderId;
        to.takerAccountId = from.takerAccountId;
        to.takerFilledQuantity = from.takerFilledQuantity;
        to.makerOrderId = from.makerOrderId;
        to.makerAccountId = from.makerAccountId;
        to.makerFilledQuantity = from.makerFilledQuantity;
        to.makerStatus = from.makerStatus;
        to.result = from.result;
        to.journalFailed = from.journalFailed;
    }

    /** A source that hands out a list's events, and only as many as have been made available. */
    static final class ListSource implements EventSource {

        private final List<EngineEvent> events;
        private int available;
        private int next;

        ListSource(final List<EngineEvent> events) {
            this.events = events;
            this.available = events.size();
        }

        /** Makes only the first {@code count} events available. */
        ListSource availableUpTo(final int count) {
            available = count;
            return this;
        }

        @Override
        public boolean next(final EngineEvent into) {
            if (next >= available) {
                return false;
            }
            copy(events.get(next++), into);
            return true;
        }
    }
}
