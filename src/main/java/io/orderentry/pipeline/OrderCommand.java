package io.orderentry.pipeline;

import io.orderentry.engine.MarketBandRule;
import io.orderentry.engine.OrderType;
import io.orderentry.engine.RejectReason;
import io.orderentry.engine.SelfTradePrevention;
import io.orderentry.engine.Side;
import io.orderentry.engine.TimeInForce;

/**
 * One preallocated slot of the input ring. Filled by the HTTP edge (validated, already in ticks and
 * lots), sequenced and journaled by the journal stage, then executed by the matcher stage. A
 * {@link CommandType#REJECTED} slot is neither journaled nor executed: it only carries an edge refusal
 * ({@link #refusal}, with {@link #accountId}, {@link #clientOrderId} and {@link #orderId} where known) to
 * the audit stage.
 *
 * <p>Ownership: the publishing event loop writes the request fields before publishing; the journal
 * thread writes {@link #sequence}, {@link #timestampMicros} and {@link #journalFailed}; the matcher
 * thread only reads. The ring's sequence barriers make each stage's writes visible to the next.
 */
public final class OrderCommand {

    /** What to do. */
    public CommandType type;

    /** Correlates the answer with the waiting HTTP request; 0 for commands replayed from the journal. */
    public long requestId;
    /** Index of the HTTP verticle (event loop) that waits for the answer; -1 when nobody waits. */
    public int replyTo;
    /** The process-unique id the client sees in {@code X-Request-Id}; null for commands replayed from the journal. */
    public String requestTag;
    /** The client's address as {@code host:port}; null for commands replayed from the journal. */
    public String remoteAddress;
    /** The id of the API key the request authenticated with, or null (authentication off, or replayed). Audit only. */
    public String keyId;

    /** {@code System.nanoTime()} when the edge published the command, for the stage latencies; 0 when replayed. */
    public long edgeNanos;
    /** {@code System.nanoTime()} when the journal thread took the command, for the stage latencies; 0 when replayed. */
    public long journalNanos;

    /** Journal sequence, assigned by the journal stage: 1, 2, 3, ... across restarts. */
    public long sequence;
    /** Ingress time in microseconds since the epoch, assigned by the journal stage, never decreasing. */
    public long timestampMicros;
    /** Set by the journal stage when the record could not be made durable; the matcher skips it. */
    public boolean journalFailed;

    /** PLACE, CANCEL_ALL and FUND: the owning account. */
    public String accountId;
    /**
     * REJECTED: an account only the refused request's body named, no key vouching for it (no key, a key that failed
     * authentication, or a key of another account), or null. Audit only: recorded as claimed, never as the account.
     */
    public String claimedAccountId;
    /** PLACE: the client's idempotency key, or null. */
    public String clientOrderId;
    /** PLACE, SET_PRICE_BAND and SET_FEES: the instrument's index in the configured instrument list. CANCEL_ALL: that, or -1 for all. */
    public int symbol;
    /** PLACE: side. */
    public Side side;
    /** PLACE: LIMIT or MARKET. */
    public OrderType orderType;
    /** PLACE: time in force (MARKET orders always carry IOC). */
    public TimeInForce timeInForce;
    /** PLACE: maker-only flag (LIMIT GTC only). */
    public boolean postOnly;
    /** PLACE: self-trade prevention (the venue's default already applied); null reads as NONE. */
    public SelfTradePrevention selfTradePrevention;
    /** PLACE: limit price in ticks; 0 for MARKET. AMEND: the new price, or 0 to keep it. */
    public long price;
    /** PLACE: quantity in lots. AMEND: the new total quantity, or 0 to keep it. */
    public long quantity;

    /** CANCEL and AMEND: the order. REJECTED: the order named in the refused request, or 0. */
    public long orderId;
    /**
     * CANCEL_ALL: {@link RejectReason#CANCEL_ALL} from a client, {@link RejectReason#CANCEL_ALL_AFTER} from a dead man's
     * switch, {@link RejectReason#CANCEL_ON_DISCONNECT} when a stream connection with cancel on disconnect closed (then
     * of that connection's orders only, see {@link #session}).
     */
    public RejectReason cancelAllCause;
    /**
     * PLACE: the stream connection with cancel on disconnect it came through, or 0. CANCEL_ALL with cause
     * CANCEL_ON_DISCONNECT: the connection that closed. A random number per connection, never 0.
     */
    public long session;
    /** SET_PRICE_BAND: the band of instrument {@link #symbol} in basis points, 0 for none. */
    public int priceBandBasisPoints;
    /** SET_PRICE_BAND: how the band bounds MARKET orders ({@link MarketBandRule#CURRENT} unless replayed from older records). */
    public MarketBandRule priceBandRule;

    /** FUND: the asset's index in the engine's risk rules. */
    public int asset;
    /** FUND: the amount in units of the asset; negative for a withdrawal, never 0. */
    public long amount;
    /** FUND: the funding's idempotency key (its reference). */
    public String reference;
    /** SET_FEES: the maker fee of instrument {@link #symbol}, in millionths. */
    public int makerFeeRate;
    /** SET_FEES: the taker fee, in millionths. */
    public int takerFeeRate;

    /** REJECTED: what the edge answered. PLACE and CANCEL: null. */
    public Refusal refusal;

    /**
     * Drops the slot's references once its last consumer (the matcher) is done with it. A slot is reused only when
     * the ring comes round again, seconds later at full rate; until then it would keep the request's strings
     * alive through several young collections, each of which would copy them.
     */
    public void releaseReferences() {
        requestTag = null;
        remoteAddress = null;
        keyId = null;
        accountId = null;
        claimedAccountId = null;
        clientOrderId = null;
        reference = null;
        refusal = null;
    }

    /** Clears every field so that nothing of a previous use leaks into the next one. */
    public void reset() {
        type = null;
        requestId = 0;
        replyTo = -1;
        requestTag = null;
        remoteAddress = null;
        keyId = null;
        edgeNanos = 0;
        journalNanos = 0;
        sequence = 0;
        timestampMicros = 0;
        journalFailed = false;
        accountId = null;
        claimedAccountId = null;
        clientOrderId = null;
        symbol = -1;
        side = null;
        orderType = null;
        timeInForce = null;
        postOnly = false;
        selfTradePrevention = null;
        cancelAllCause = null;
        session = 0;
        priceBandBasisPoints = 0;
        priceBandRule = null;
        price = 0;
        quantity = 0;
        orderId = 0;
        asset = 0;
        amount = 0;
        reference = null;
        makerFeeRate = 0;
        takerFeeRate = 0;
        refusal = null;
    }
}
