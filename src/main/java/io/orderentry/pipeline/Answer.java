package io.orderentry.pipeline;

import io.orderentry.engine.CommandResult;

/**
 * What a client is answered for a journaled command (place, cancel, amend, cancel-all, funding): the HTTP status and, for errors, the code. The one table
 * both the HTTP edge (which answers) and the audit trail (which records the answer) read, so the two cannot disagree.
 *
 * @param status  the HTTP status
 * @param code    the error code, null for a success
 * @param message a fixed message for the error, or null when the edge words it with the order's details
 */
public record Answer(int status, String code, String message) {

    /** The journal could not make the command durable: it was not executed. */
    public static final Answer JOURNAL_UNAVAILABLE = new Answer(503, "JOURNAL_UNAVAILABLE",
            "the journal cannot write; the order was not accepted");
    /** A result that answers with the order, when the order view no longer holds it. */
    public static final Answer ORDER_NOT_RETAINED = new Answer(404, "ORDER_NOT_RETAINED", null);

    private static final Answer PLACED = new Answer(201, null, null);
    private static final Answer OK = new Answer(200, null, null);
    private static final Answer DUPLICATE_CLIENT_ORDER_ID = new Answer(409, "DUPLICATE_CLIENT_ORDER_ID", null);
    private static final Answer ORDER_NOT_FOUND = new Answer(404, "ORDER_NOT_FOUND", null);
    private static final Answer ORDER_NOT_OPEN = new Answer(409, "ORDER_NOT_OPEN", null);
    private static final Answer INVALID_QUANTITY = new Answer(422, "INVALID_QUANTITY", null);
    private static final Answer PRICE_OUTSIDE_BAND = new Answer(422, "PRICE_OUTSIDE_BAND", null);
    private static final Answer TOO_MANY_PRICE_LEVELS = new Answer(422, "TOO_MANY_PRICE_LEVELS", null);
    private static final Answer INSUFFICIENT_BALANCE = new Answer(422, "INSUFFICIENT_BALANCE",
            "the available balance does not cover it");
    private static final Answer FUNDED = new Answer(201, null, null);
    private static final Answer FUNDING_MISMATCH = new Answer(409, "DUPLICATE_REFERENCE",
            "this reference was used by a funding of another account, asset or amount");
    private static final Answer BALANCE_LIMIT_EXCEEDED = new Answer(422, "BALANCE_LIMIT_EXCEEDED",
            "the asset's total across all accounts would pass its maximum");

    /**
     * @param result        the engine's result; ignored when {@code journalFailed}
     * @param journalFailed the command could not be journaled
     * @param orderHeld     the order view holds the order the result names (the answers that carry the order need it)
     * @return the answer
     */
    public static Answer of(final CommandResult result, final boolean journalFailed, final boolean orderHeld) {
        if (journalFailed) {
            return JOURNAL_UNAVAILABLE;
        }
        return switch (result) {
            case PLACED -> orderHeld ? PLACED : ORDER_NOT_RETAINED;
            case DUPLICATE, CANCELED, AMENDED -> orderHeld ? OK : ORDER_NOT_RETAINED;
            case CANCELED_ALL, PRICE_BAND_SET, FEES_SET -> OK;
            case QUANTITY_NOT_ABOVE_FILLED -> INVALID_QUANTITY;
            case PRICE_OUTSIDE_BAND -> PRICE_OUTSIDE_BAND;
            case TOO_MANY_PRICE_LEVELS -> TOO_MANY_PRICE_LEVELS;
            case DUPLICATE_MISMATCH -> DUPLICATE_CLIENT_ORDER_ID;
            case ORDER_NOT_FOUND -> ORDER_NOT_FOUND;
            case ORDER_NOT_OPEN -> ORDER_NOT_OPEN;
            case INSUFFICIENT_BALANCE -> INSUFFICIENT_BALANCE;
            case FUNDED -> FUNDED;
            case FUNDING_DUPLICATE -> OK;
            case FUNDING_MISMATCH -> FUNDING_MISMATCH;
            case BALANCE_LIMIT_EXCEEDED -> BALANCE_LIMIT_EXCEEDED;
        };
    }

    /** @return true for a 2xx answer */
    public boolean success() {
        return status < 300;
    }
}
