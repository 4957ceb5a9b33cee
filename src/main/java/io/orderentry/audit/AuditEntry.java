package io.orderentry.audit;

import io.orderentry.engine.CommandResult;
import io.orderentry.engine.OrderStatus;
import io.orderentry.engine.RejectReason;
import io.orderentry.pipeline.CommandType;

/**
 * What one audit record says, before the trail gives it its seq, time and hashes. A reusable holder: the
 * {@link AuditHandler} fills it, {@link AuditTrail#append} encodes it, and {@link #reset()} clears it for
 * the next use. Owned by the audit thread. Zero in a numeric field and null in the others mean "not known"
 * and are written as JSON {@code null}.
 */
public final class AuditEntry {

    public AuditKind kind;
    /** PLACE or CANCEL: what the client asked for; null for {@link AuditKind#SERVICE_STARTED}. */
    public CommandType action;
    public String requestId;
    public String remoteAddress;
    /** The id of the API key the request authenticated with (never the secret), or null. */
    public String keyId;
    public String accountId;
    public String clientOrderId;
    public long orderId;
    /** The command's journal sequence; for {@link AuditKind#SERVICE_STARTED} the last one replayed. */
    public long journalSequence;
    /** True for a journaled command audited during the replay because its record was missing from the trail. */
    public boolean recovered;

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

    /** Clears every field. */
    public void reset() {
        kind = null;
        action = null;
        requestId = null;
        remoteAddress = null;
        keyId = null;
        accountId = null;
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
    }

    /** @return a readable one-line summary, for the log when the entry could not be written */
    @Override
    public String toString() {
        return kind + " action=" + action + " requestId=" + requestId + " remoteAddress=" + remoteAddress + " keyId=" + keyId
                + " accountId=" + accountId + " clientOrderId=" + clientOrderId + " orderId=" + orderId
                + " journalSequence=" + journalSequence + " recovered=" + recovered + " result=" + result
                + " status=" + status + " rejectReason=" + rejectReason + " httpStatus=" + httpStatus
                + " code=" + code + " field=" + field + " message=" + message;
    }
}
