package io.orderentry.audit;

import io.orderentry.engine.CommandResult;
import io.orderentry.engine.OrderStatus;
import io.orderentry.engine.RejectReason;
import io.orderentry.pipeline.CommandType;

/**
 * What one audit record says, before the trail gives it its seq, time and hashes. A reusable holder: the
 * {@link AuditStage} fills it, {@link AuditTrail#append} encodes it, and {@link #reset()} clears it for
 * the next use. Owned by the audit thread. Zero in a numeric field and null in the others mean "not known"
 * and are written as JSON {@code null}; in {@link #instrument}, {@link #bandBasisPoints} and {@link #canceledCount},
 * where 0 is a value, -1 does.
 */
public final class AuditEntry {

    public AuditKind kind;
    /**
     * PLACE, CANCEL, AMEND or CANCEL_ALL: what the client (or, for a cancel-all, the dead man's switch) asked for; null
     * for {@link AuditKind#SERVICE_STARTED} and {@link AuditKind#PRICE_BAND_SET}, which no request caused.
     */
    public CommandType action;
    public String requestId;
    public String remoteAddress;
    /** The id of the API key the request authenticated with (never the secret), or null. */
    public String keyId;
    /** The account a key vouches for (the key the request presented), or the one an executed command names. */
    public String accountId;
    /**
     * An account only the request's body named, no key vouching for it: set on a {@link AuditKind#REJECTED_AT_EDGE}
     * record (a keyless 401, a 400 with authentication off, a 403 naming another account), written as
     * {@code claimedAccountId} so that nobody can make the trail say their request was an account's. Null otherwise.
     */
    public String claimedAccountId;
    public String clientOrderId;
    public long orderId;
    /** The command's journal sequence; for {@link AuditKind#SERVICE_STARTED} the last one replayed. */
    public long journalSequence;
    /** True for a journaled command audited during the replay because its record was missing from the trail. */
    public boolean recovered;

    /**
     * Terms (AMEND, CANCEL_ALL, PRICE_BAND_SET): the instrument's index in the configured list, or -1 for none: all
     * instruments (with {@link #allInstruments} true) or not known.
     */
    public int instrument;
    /** Terms, CANCEL_ALL: true when it named no instrument (all of them); null when not known. */
    public Boolean allInstruments;
    /** Terms, AMEND: the new price asked for, in ticks; 0 when not asked for (kept) or not known. */
    public long price;
    /** Terms, AMEND: the new total quantity asked for, in lots; 0 when not asked for (kept) or not known. */
    public long quantity;
    /** Terms, CANCEL_ALL: {@link RejectReason#CANCEL_ALL}, or CANCEL_ALL_AFTER when a dead man's switch fired it. */
    public RejectReason cause;
    /** Terms, PRICE_BAND_SET: the band in basis points (0: no band); -1 when not known. */
    public int bandBasisPoints;
    /** FUNDING: the asset's index in the engine's risk rules, -1 when not known. */
    public int asset;
    /** FUNDING: the amount in units of the asset (negative: a withdrawal), 0 when not known. */
    public long amount;
    /** FUNDING: the funding's reference. */
    public String reference;
    /** FEES_SET: the maker fee rate in millionths, -1 when not known. */
    public int makerFeeRate;
    /** FEES_SET: the taker fee rate in millionths, -1 when not known. */
    public int takerFeeRate;

    /** Outcome: the engine's result, or null when the command was not executed. */
    public CommandResult result;
    /** Outcome: the order's status after the command, where the engine reported it. */
    public OrderStatus status;
    /** Outcome: why the engine rejected the order; {@link RejectReason#NONE} is written as null. */
    public RejectReason rejectReason;
    /** Outcome: the HTTP status answered, or 0 when no answer is known to have been sent. */
    public int httpStatus;
    /** Outcome: the error code answered, or null. */
    public String code;
    /** Outcome: the error message answered, or null; written truncated to {@link AuditRecordEncoder#MAX_TEXT_CHARS}. */
    public String message;
    /** Outcome: the request field at fault, or null. */
    public String field;
    /**
     * Outcome: how many orders other than the one the command names it canceled (each order of a cancel-all, each
     * resting order self-trade prevention canceled during a place or an amend); -1 when the record has no such list.
     */
    public int canceledCount;
    /**
     * Outcome: the ids of those orders, in the order they were canceled, the first {@link #MAX_LISTED_CANCELED} of
     * them ({@link #canceledCount} says how many there were); read up to {@code min(canceledCount,
     * MAX_LISTED_CANCELED)}. Not owned: the handler reuses the array.
     */
    public long[] canceledOrderIds;

    /** The most canceled order ids one record lists; an account may have far more open orders (100,000 by default). */
    public static final int MAX_LISTED_CANCELED = 1_000;

    public AuditEntry() {
        reset();
    }

    /** Clears every field. */
    public void reset() {
        kind = null;
        action = null;
        requestId = null;
        remoteAddress = null;
        keyId = null;
        accountId = null;
        claimedAccountId = null;
        clientOrderId = null;
        orderId = 0;
        journalSequence = 0;
        recovered = false;
        result = null;
        status = null;
        rejectReason = null;
        httpStatus = 0;
        code = null;
        message = null;
        field = null;
        instrument = -1;
        allInstruments = null;
        price = 0;
        quantity = 0;
        cause = null;
        bandBasisPoints = -1;
        asset = -1;
        amount = 0;
        reference = null;
        makerFeeRate = -1;
        takerFeeRate = -1;
        canceledCount = -1;
        canceledOrderIds = null;
    }

    /** @return a readable one-line summary, for the log when the entry could not be written */
    @Override
    public String toString() {
        return kind + " action=" + action + " requestId=" + requestId + " remoteAddress=" + remoteAddress + " keyId=" + keyId
                + " accountId=" + accountId + " claimedAccountId=" + claimedAccountId + " clientOrderId=" + clientOrderId + " orderId=" + orderId
                + " journalSequence=" + journalSequence + " recovered=" + recovered + " result=" + result
                + " status=" + status + " rejectReason=" + rejectReason + " httpStatus=" + httpStatus
                + " code=" + code + " field=" + field + " message=" + message
                + (hasTerms() ? " instrument=" + instrument + " allInstruments=" + allInstruments + " price=" + price
                        + " quantity=" + quantity + " cause=" + cause + " bandBasisPoints=" + bandBasisPoints
                        + " asset=" + asset + " amount=" + amount + " reference=" + reference + " makerFeeRate="
                        + makerFeeRate + " takerFeeRate=" + takerFeeRate : "")
                + (canceledCount < 0 ? "" : " canceledCount=" + canceledCount + " canceledOrderIds="
                        + java.util.Arrays.toString(java.util.Arrays.copyOf(canceledOrderIds,
                                Math.min(canceledCount, MAX_LISTED_CANCELED))));
    }

    /**
     * @return true for the kinds whose record carries {@code "terms"}: AMEND, CANCEL_ALL, PRICE_BAND_SET, FUNDING and
     *         FEES_SET
     */
    boolean hasTerms() {
        return kind == AuditKind.AMEND || kind == AuditKind.CANCEL_ALL || kind == AuditKind.PRICE_BAND_SET
                || kind == AuditKind.FUNDING || kind == AuditKind.FEES_SET;
    }
}
