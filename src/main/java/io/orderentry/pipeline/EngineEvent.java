package io.orderentry.pipeline;

import io.orderentry.engine.BalanceCause;
import io.orderentry.engine.CommandResult;
import io.orderentry.engine.OrderStatus;
import io.orderentry.engine.OrderType;
import io.orderentry.engine.RejectReason;
import io.orderentry.engine.SelfTradePrevention;
import io.orderentry.engine.Side;
import io.orderentry.engine.TimeInForce;

/**
 * One preallocated slot of the output ring: a tagged record of what the engine did. Written only
 * by the matcher stage; every consumer reads it and none writes it. Which fields are meaningful
 * depends on {@link #type}; {@link #reset()} clears the rest so nothing leaks between uses.
 */
public final class EngineEvent {

    /** The longest clientOrderId the API accepts (1-64 of [A-Za-z0-9_.:-]). */
    public static final int CLIENT_ORDER_ID_CAPACITY = 64;
    /** Request ids are {@code <8 hex>-<verticle>-<counter>} (the HTTP edge's X-Request-Id): well within this. */
    static final int REQUEST_TAG_CAPACITY = 48;

    /** What this slot describes. */
    public EventType type;
    /** Engine event sequence (1, 2, 3, ... with no gaps) for sequenced types; 0 for COMMAND_COMPLETED. */
    public long eventSequence;
    /** Time of the command that produced the event, microseconds since the epoch. */
    public long timestampMicros;
    /** Journal sequence of the command that produced the event. */
    public long commandSequence;
    /** True while the journal is being replayed at startup: nobody is waiting for an answer. */
    public boolean replay;
    /** Copied from the command: the waiting request, or 0. */
    public long requestId;
    /** Copied from the command: the verticle that waits, or -1. */
    public int replyTo;
    /**
     * COMMAND_COMPLETED, REQUEST_REJECTED: the command's {@link OrderCommand#requestTag}; when replayed, the one the
     * journal holds (null in records journaled before it held them). Inline: no reference to the request's String.
     */
    public final InlineText requestTag = new InlineText(REQUEST_TAG_CAPACITY);
    /** COMMAND_COMPLETED, REQUEST_REJECTED: the command's {@link OrderCommand#remoteAddress}; when replayed, as above. */
    public String remoteAddress;
    /** COMMAND_COMPLETED, REQUEST_REJECTED: the command's {@link OrderCommand#keyId}; when replayed, as above. */
    public String keyId;
    /** COMMAND_COMPLETED: the command's type (PLACE, CANCEL, AMEND or CANCEL_ALL). */
    public CommandType commandType;

    /** The order concerned (ORDER_ACCEPTED, ORDER_UPDATED, COMMAND_COMPLETED, REQUEST_REJECTED where known). */
    public long orderId;
    /** The owning account; for COMMAND_COMPLETED and REQUEST_REJECTED the one the request named, if any. */
    public String accountId;
    /** REQUEST_REJECTED: the command's {@link OrderCommand#claimedAccountId}: named by the body, vouched by no key. */
    public String claimedAccountId;
    /**
     * The client's idempotency key; for COMMAND_COMPLETED and REQUEST_REJECTED the one the request named, if any.
     * Inline: no reference to the request's String.
     */
    public final InlineText clientOrderId = new InlineText(CLIENT_ORDER_ID_CAPACITY);
    public int symbol;
    public Side side;
    public OrderType orderType;
    public TimeInForce timeInForce;
    public boolean postOnly;
    /** ORDER_ACCEPTED: the order's self-trade prevention. */
    public SelfTradePrevention selfTradePrevention;
    /** Limit price in ticks (0 for MARKET); for TRADE the execution price; for ORDER_AMENDED the new price. */
    public long price;
    /** Original quantity in lots; for TRADE the executed quantity; for ORDER_AMENDED and after it the new total. */
    public long quantity;
    public long filledQuantity;
    public long remainingQuantity;
    public OrderStatus status;
    public RejectReason rejectReason;

    /** ORDER_AMENDED: the price before the amend. */
    public long previousPrice;
    /** ORDER_AMENDED: the total quantity before the amend. */
    public long previousQuantity;
    /** ORDER_AMENDED: the order kept its place in the queue. */
    public boolean keptPriority;
    /**
     * COMMAND_COMPLETED of a SET_PRICE_BAND: the band set, in basis points. (Of an AMEND, {@link #price} and
     * {@link #quantity} are those asked for, 0 for unchanged; of a CANCEL_ALL, {@link #symbol} is the instrument or -1
     * and {@link #rejectReason} the cause.)
     */
    public int priceBandBasisPoints;

    /** TRADE fields. */
    public long tradeId;
    public Side takerSide;
    public long takerOrderId;
    public String takerAccountId;
    public long takerFilledQuantity;
    public long makerOrderId;
    public String makerAccountId;
    public long makerFilledQuantity;
    public OrderStatus makerStatus;

    /** BALANCE_CHANGED, and COMMAND_COMPLETED of a FUND: the asset's index in the engine's risk rules. */
    public int asset;
    /** BALANCE_CHANGED: the account's available balance after the change; COMMAND_COMPLETED of a FUND: the answer's. */
    public long available;
    /** BALANCE_CHANGED: what the account's open orders hold after the change; of a FUND: the answer's. */
    public long held;
    /** BALANCE_CHANGED: what was added to available (negative: taken). */
    public long availableChange;
    /** BALANCE_CHANGED: what was added to held (negative: taken). */
    public long heldChange;
    /** BALANCE_CHANGED of a TRADE: the fee taken from what the account received. */
    public long fee;
    /** BALANCE_CHANGED: why. */
    public BalanceCause balanceCause;
    /** BALANCE_CHANGED of a funding, and COMMAND_COMPLETED of a FUND: the funding's reference. */
    public String reference;
    /** COMMAND_COMPLETED of a SET_FEES: the maker fee rate set, in millionths. */
    public int makerFeeRate;
    /** COMMAND_COMPLETED of a SET_FEES: the taker fee rate set, in millionths. */
    public int takerFeeRate;
    /** COMMAND_COMPLETED of a FUND: the amount asked for (units of the asset). */
    public long amount;
    /** COMMAND_COMPLETED of a FUND: the event sequence of the funding's balance change, 0 when it changed nothing. */
    public long balanceSequence;

    /** COMMAND_COMPLETED: the engine's result, or null when {@link #journalFailed}. */
    public CommandResult result;
    /** COMMAND_COMPLETED: the command was not made durable and was not executed. */
    public boolean journalFailed;
    /** REQUEST_REJECTED: what the edge answered. */
    public Refusal refusal;

    /**
     * COMMAND_COMPLETED of a live command: {@code System.nanoTime()} when the edge published it, the journal took it
     * and the matcher started it, for the stage latencies; 0 otherwise.
     */
    public long edgeNanos;
    /** See {@link #edgeNanos}. */
    public long journalNanos;
    /** See {@link #edgeNanos}. */
    public long matchNanos;

    /** Clears every field. Called by the matcher stage before it fills the slot. */
    public void reset() {
        type = null;
        edgeNanos = 0;
        journalNanos = 0;
        matchNanos = 0;
        eventSequence = 0;
        timestampMicros = 0;
        commandSequence = 0;
        replay = false;
        requestId = 0;
        replyTo = -1;
        requestTag.clear();
        remoteAddress = null;
        keyId = null;
        commandType = null;
        orderId = 0;
        accountId = null;
        claimedAccountId = null;
        clientOrderId.clear();
        symbol = -1;
        side = null;
        orderType = null;
        timeInForce = null;
        postOnly = false;
        selfTradePrevention = null;
        price = 0;
        quantity = 0;
        filledQuantity = 0;
        remainingQuantity = 0;
        status = null;
        rejectReason = null;
        previousPrice = 0;
        previousQuantity = 0;
        keptPriority = false;
        priceBandBasisPoints = 0;
        tradeId = 0;
        takerSide = null;
        takerOrderId = 0;
        takerAccountId = null;
        takerFilledQuantity = 0;
        makerOrderId = 0;
        makerAccountId = null;
        makerFilledQuantity = 0;
        makerStatus = null;
        asset = 0;
        available = 0;
        held = 0;
        availableChange = 0;
        heldChange = 0;
        fee = 0;
        balanceCause = null;
        reference = null;
        amount = 0;
        balanceSequence = 0;
        makerFeeRate = 0;
        takerFeeRate = 0;
        result = null;
        journalFailed = false;
        refusal = null;
    }
}
