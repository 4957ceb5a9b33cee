package io.orderentry.pipeline;

import com.lmax.disruptor.EventHandler;
import com.lmax.disruptor.RingBuffer;
import io.orderentry.engine.BalanceCause;
import io.orderentry.engine.CommandResult;
import io.orderentry.engine.EventSink;
import io.orderentry.engine.Matcher;
import io.orderentry.engine.OrderStatus;
import io.orderentry.engine.OrderType;
import io.orderentry.engine.RejectReason;
import io.orderentry.engine.SelfTradePrevention;
import io.orderentry.engine.Side;
import io.orderentry.engine.TimeInForce;

/**
 * The thin handler between the rings and the {@link Matcher}: it feeds each journaled command to
 * the matcher and publishes what the matcher decides into the output ring. It is the output ring's
 * only producer. A {@link CommandType#REJECTED} slot (an edge refusal) never reaches the matcher: it is
 * forwarded as one {@link EventType#REQUEST_REJECTED} event, for the audit trail.
 *
 * <p>Threads: {@link #onEvent} runs on the matcher thread once the journal stage has released the
 * command; {@link #replay} runs on the main thread during recovery, before the input ring starts
 * (the ring's start gives the happens-before edge between the two), and so does {@link #replayCompleted}.
 */
public final class MatcherStage implements EventHandler<OrderCommand>, EventSink {

    private final Matcher matcher;
    private final EventOutput output;
    private final MatcherMetrics metrics;
    private final AccountNames accountNames = new AccountNames();

    private OrderCommand command;
    private long commandSequence;
    private long requestId;
    private int replyTo;
    private boolean replaying;
    /** {@code System.nanoTime()} when the live command being executed started, for the stage latencies. */
    private long matchNanos;

    /**
     * @param matcherFactory builds the matcher around this stage as its event sink
     */
    public MatcherStage(final java.util.function.Function<EventSink, Matcher> matcherFactory,
                        final RingBuffer<EngineEvent> output, final MatcherMetrics metrics) {
        this(matcherFactory, EventOutput.of(output), metrics);
    }

    /**
     * @param matcherFactory builds the matcher around this stage as its event sink
     * @param output         where the events go
     */
    public MatcherStage(final java.util.function.Function<EventSink, Matcher> matcherFactory,
                        final EventOutput output, final MatcherMetrics metrics) {
        this.output = output;
        this.metrics = metrics;
        this.matcher = matcherFactory.apply(this);
    }

    @Override
    public void onEvent(final OrderCommand command, final long sequence, final boolean endOfBatch) {
        try {
            if (command.type == CommandType.REJECTED) {
                publishRefusal(command);
            } else if (command.type == CommandType.TICK) {
                publishTick();
            } else if (command.journalFailed) {
                publishJournalFailure(command);
            } else {
                final long start = System.nanoTime();
                matchNanos = start;
                execute(command, false);
                metrics.recordCommand(System.nanoTime() - start);
            }
        } finally {
            command.releaseReferences();   // the matcher is the slot's last consumer
        }
    }

    /**
     * Re-executes one command read from the journal. Called only on the main thread during recovery.
     */
    public void replay(final OrderCommand command) {
        execute(command, true);
    }

    /**
     * Publishes {@link EventType#REPLAY_COMPLETED}: the replay is over and live commands follow. Called once, on
     * the main thread, after the last {@link #replay} and before the input ring starts.
     *
     * @param lastJournalSequence the last journal sequence replayed, 0 for an empty journal
     */
    public void replayCompleted(final long lastJournalSequence) {
        final long seq = output.next();
        try {
            final EngineEvent event = output.get(seq);
            event.reset();
            event.type = EventType.REPLAY_COMPLETED;
            event.commandSequence = lastJournalSequence;
            event.replay = true;
        } finally {
            output.publish(seq);
        }
    }

    /** @return the matcher, for recovery checks and metrics; touch it only from the thread that owns the stage */
    public Matcher matcher() {
        return matcher;
    }

    private void execute(final OrderCommand command, final boolean replay) {
        this.command = command;
        commandSequence = command.sequence;
        requestId = replay ? 0 : command.requestId;
        replyTo = replay ? -1 : command.replyTo;
        replaying = replay;
        command.accountId = accountNames.canonical(command.accountId);
        switch (command.type) {
            case PLACE -> matcher.place(command.timestampMicros, command.accountId, command.clientOrderId,
                    command.symbol, command.side, command.orderType, command.timeInForce, command.postOnly,
                    command.selfTradePrevention == null ? SelfTradePrevention.NONE : command.selfTradePrevention,
                    command.price, command.quantity, command.session);
            case CANCEL -> matcher.cancel(command.timestampMicros, command.orderId);
            case AMEND -> matcher.amend(command.timestampMicros, command.orderId, command.price, command.quantity);
            case CANCEL_ALL -> {
                if (command.cancelAllCause == RejectReason.CANCEL_ON_DISCONNECT) {
                    matcher.cancelOnDisconnect(command.timestampMicros, command.accountId, command.session);
                } else {
                    matcher.cancelAll(command.timestampMicros, command.accountId, command.symbol,
                            command.cancelAllCause);
                }
            }
            case SET_PRICE_BAND -> matcher.setPriceBand(command.timestampMicros, command.symbol,
                    command.priceBandBasisPoints, command.priceBandRule);
            case FUND -> matcher.fund(command.timestampMicros, command.accountId, command.asset, command.amount,
                    command.reference);
            case SET_FEES -> matcher.setFees(command.timestampMicros, command.symbol, command.makerFeeRate,
                    command.takerFeeRate);
            default -> throw new IllegalStateException("unknown command type " + command.type);
        }
    }

    private void publishJournalFailure(final OrderCommand command) {
        final long seq = output.next();
        try {
            final EngineEvent event = output.get(seq);
            event.reset();
            event.type = EventType.COMMAND_COMPLETED;
            event.requestId = command.requestId;
            event.replyTo = command.replyTo;
            event.orderId = command.orderId;
            event.journalFailed = true;
            copyRequest(command, event);
        } finally {
            output.publish(seq);
        }
    }

    private void publishTick() {
        final long seq = output.next();
        try {
            output.get(seq).reset();
            output.get(seq).type = EventType.TICK;
        } finally {
            output.publish(seq);
        }
    }

    private void publishRefusal(final OrderCommand command) {
        final long seq = output.next();
        try {
            final EngineEvent event = output.get(seq);
            event.reset();
            event.type = EventType.REQUEST_REJECTED;
            event.orderId = command.orderId;
            event.accountId = command.accountId;
            event.claimedAccountId = command.claimedAccountId;
            event.clientOrderId.set(command.clientOrderId);
            event.requestTag.set(command.requestTag);
            event.remoteAddress = command.remoteAddress;
            event.keyId = command.keyId;
            event.refusal = command.refusal;
        } finally {
            output.publish(seq);
        }
    }

    /**
     * Copies what the audit trail records about the request into a COMMAND_COMPLETED event: who asked, and the terms of
     * the commands whose events do not carry them (an amend's requested price and quantity, a cancel-all's instrument
     * and cause, a band change's instrument and band).
     */
    private static void copyRequest(final OrderCommand command, final EngineEvent event) {
        event.commandType = command.type;
        event.accountId = command.accountId;
        event.clientOrderId.set(command.clientOrderId);
        event.requestTag.set(command.requestTag);
        event.remoteAddress = command.remoteAddress;
        event.keyId = command.keyId;
        switch (command.type) {
            case AMEND -> {
                event.price = command.price;
                event.quantity = command.quantity;
            }
            case CANCEL_ALL -> {
                event.symbol = command.symbol;
                event.rejectReason = command.cancelAllCause;
            }
            case SET_PRICE_BAND -> {
                event.symbol = command.symbol;
                event.priceBandBasisPoints = command.priceBandBasisPoints;
            }
            case FUND -> {
                event.asset = command.asset;
                event.amount = command.amount;
                event.reference = command.reference;
            }
            case SET_FEES -> {
                event.symbol = command.symbol;
                event.makerFeeRate = command.makerFeeRate;
                event.takerFeeRate = command.takerFeeRate;
            }
            default -> {
                // a place's and a cancel's terms are in their orders' events
            }
        }
    }

    private EngineEvent claim(final long seq, final EventType type) {
        final EngineEvent event = output.get(seq);
        event.reset();
        event.type = type;
        event.commandSequence = commandSequence;
        event.requestId = requestId;
        event.replyTo = replyTo;
        event.replay = replaying;
        return event;
    }

    /** Claims a slot for an event about one order's state (ORDER_UPDATED, ORDER_AMENDED) and fills what they share. */
    private EngineEvent claimOrder(final long seq, final EventType type, final long eventSequence,
                                   final long timestampMicros, final long orderId, final String accountId,
                                   final int symbol, final Side side, final long price, final long quantity,
                                   final long filledQuantity) {
        final EngineEvent event = claim(seq, type);
        event.eventSequence = eventSequence;
        event.timestampMicros = timestampMicros;
        event.orderId = orderId;
        event.accountId = accountId;
        event.symbol = symbol;
        event.side = side;
        event.price = price;
        event.quantity = quantity;
        event.filledQuantity = filledQuantity;
        return event;
    }

    @Override
    public void orderAccepted(final long eventSequence, final long timestampMicros, final long orderId,
                              final String accountId, final String clientOrderId, final int symbol, final Side side,
                              final OrderType type, final TimeInForce timeInForce, final boolean postOnly,
                              final long price, final long quantity) {
        final long seq = output.next();
        try {
            final EngineEvent event = claim(seq, EventType.ORDER_ACCEPTED);
            event.eventSequence = eventSequence;
            event.timestampMicros = timestampMicros;
            event.orderId = orderId;
            event.accountId = accountId;
            event.clientOrderId.set(clientOrderId);
            event.symbol = symbol;
            event.side = side;
            event.orderType = type;
            event.timeInForce = timeInForce;
            event.postOnly = postOnly;
            event.selfTradePrevention = command.selfTradePrevention == null ? SelfTradePrevention.NONE
                    : command.selfTradePrevention;
            event.price = price;
            event.quantity = quantity;
            event.status = OrderStatus.NEW;
            event.rejectReason = RejectReason.NONE;
        } finally {
            output.publish(seq);
        }
    }

    @Override
    public void trade(final long eventSequence, final long timestampMicros, final long tradeId, final int symbol,
                      final long price, final long quantity, final Side takerSide, final long takerOrderId,
                      final String takerAccountId, final long takerFilledQuantity, final long makerOrderId,
                      final String makerAccountId, final long makerFilledQuantity, final OrderStatus makerStatus) {
        final long seq = output.next();
        try {
            final EngineEvent event = claim(seq, EventType.TRADE);
            event.eventSequence = eventSequence;
            event.timestampMicros = timestampMicros;
            event.tradeId = tradeId;
            event.symbol = symbol;
            event.price = price;
            event.quantity = quantity;
            event.takerSide = takerSide;
            event.takerOrderId = takerOrderId;
            event.takerAccountId = takerAccountId;
            event.takerFilledQuantity = takerFilledQuantity;
            event.makerOrderId = makerOrderId;
            event.makerAccountId = makerAccountId;
            event.makerFilledQuantity = makerFilledQuantity;
            event.makerStatus = makerStatus;
        } finally {
            output.publish(seq);
        }
        metrics.recordTrade();
    }

    @Override
    public void orderUpdated(final long eventSequence, final long timestampMicros, final long orderId,
                             final String accountId, final int symbol, final Side side, final long price,
                             final long quantity, final long filledQuantity, final long remainingQuantity,
                             final OrderStatus status, final RejectReason rejectReason) {
        final long seq = output.next();
        try {
            final EngineEvent event = claimOrder(seq, EventType.ORDER_UPDATED, eventSequence, timestampMicros, orderId,
                    accountId, symbol, side, price, quantity, filledQuantity);
            event.remainingQuantity = remainingQuantity;
            event.status = status;
            event.rejectReason = rejectReason;
        } finally {
            output.publish(seq);
        }
        metrics.recordStatus(status);
        if (rejectReason != RejectReason.NONE) {
            metrics.recordReason(rejectReason);
        }
    }

    @Override
    public void orderAmended(final long eventSequence, final long timestampMicros, final long orderId,
                             final String accountId, final int symbol, final Side side, final long price,
                             final long quantity, final long filledQuantity, final long previousPrice,
                             final long previousQuantity, final boolean keptPriority) {
        final long seq = output.next();
        try {
            final EngineEvent event = claimOrder(seq, EventType.ORDER_AMENDED, eventSequence, timestampMicros, orderId,
                    accountId, symbol, side, price, quantity, filledQuantity);
            event.previousPrice = previousPrice;
            event.previousQuantity = previousQuantity;
            event.keptPriority = keptPriority;
        } finally {
            output.publish(seq);
        }
    }

    @Override
    public void balanceChanged(final long eventSequence, final long timestampMicros, final String accountId,
                               final int asset, final long available, final long held, final long availableChange,
                               final long heldChange, final long fee, final BalanceCause cause, final long orderId,
                               final long tradeId, final String reference) {
        final long seq = output.next();
        try {
            final EngineEvent event = claim(seq, EventType.BALANCE_CHANGED);
            event.eventSequence = eventSequence;
            event.timestampMicros = timestampMicros;
            event.accountId = accountId;
            event.asset = asset;
            event.available = available;
            event.held = held;
            event.availableChange = availableChange;
            event.heldChange = heldChange;
            event.fee = fee;
            event.balanceCause = cause;
            event.orderId = orderId;
            event.tradeId = tradeId;
            event.reference = reference;
        } finally {
            output.publish(seq);
        }
    }

    @Override
    public void fundingCompleted(final CommandResult result, final String accountId, final int asset,
                                 final long available, final long held, final long sequence) {
        completed(result, 0, true, available, held, sequence);
        metrics.recordFunding(result);
    }

    @Override
    public void commandCompleted(final CommandResult result, final long orderId) {
        completed(result, orderId, false, 0, 0, 0);
    }

    private void completed(final CommandResult result, final long orderId, final boolean funding,
                           final long available, final long held,
                           final long balanceSequence) {
        final long seq = output.next();
        try {
            final EngineEvent event = claim(seq, EventType.COMMAND_COMPLETED);
            event.result = result;
            event.orderId = orderId;
            copyRequest(command, event);   // replayed: who asked, as the journal holds it (null before format 2)
            if (funding) {   // reset() cleared them for every other command
                event.available = available;
                event.held = held;
                event.balanceSequence = balanceSequence;
            }
            if (!replaying) {
                event.edgeNanos = command.edgeNanos;
                event.journalNanos = command.journalNanos;
                event.matchNanos = matchNanos;
            }
        } finally {
            output.publish(seq);
        }
        metrics.recordResult(result);
    }
}
