package io.orderentry.audit;

import io.orderentry.engine.OrderStatus;
import io.orderentry.engine.RejectReason;
import io.orderentry.pipeline.Answer;
import io.orderentry.pipeline.BatchStage;
import io.orderentry.pipeline.CommandType;
import io.orderentry.pipeline.EngineEvent;
import io.orderentry.pipeline.Refusal;
import java.io.IOException;
import java.util.Objects;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The audit stage of the output ring: one record per completed command ({@code COMMAND_COMPLETED}), per edge
 * refusal ({@code REQUEST_REJECTED}) and per start ({@code REPLAY_COMPLETED}), appended to the {@link AuditTrail}
 * in ring order and written once per batch, in {@link #endOfBatch}, whatever the type of the batch's last event.
 *
 * <p>Kinds by command: PLACE, CANCEL, AMEND (with the new price and quantity asked for), CANCEL_ALL (the instrument or
 * all, the cause, and the orders it canceled) and PRICE_BAND_SET (the service's change of a band: no request, no
 * answer). A command that cancels orders it does not name (a cancel-all; a place or an amend whose self-trade
 * prevention canceled makers) lists them in its outcome, the first {@value AuditEntry#MAX_LISTED_CANCELED} with their
 * count, since nobody else's record shows why they ended.
 *
 * <p>Replies must come after this stage's {@link #endOfBatch}: the service runs it before the reply stage on the
 * same thread ({@link io.orderentry.pipeline.Sequential}), so no request is answered before its record has been
 * written (and forced, in {@link AuditSync#FSYNC} mode).
 *
 * <p>Replay: commands replayed from the journal were audited when they first ran and are skipped, except those
 * whose journal sequence is above the highest one the trail held at startup. Such a command was journaled but
 * its record is not in the trail: the process died between the journal write and the audit write (the request was
 * then never answered, since replies wait for this stage), the machine lost the trail's unforced tail ({@link
 * AuditSync#NONE} and a power loss: the request may well have been answered), or the trail had failed (the record is
 * then in the application log). It is audited now with {@code recovered: true}, with the request id, address and key
 * id the journal holds (format version 2; null for commands journaled before) and the engine's outcome, but no HTTP
 * status: whether an answer went out is not known. Edge refusals are never journaled, so those a lost tail held
 * are gone. An empty trail has no such baseline and back-fills nothing of the start's replay: it starts with this
 * run's {@code SERVICE_STARTED} record, and its baseline is then the sequence that record names.
 *
 * <p>Cluster mode: a member executes the commands of the other members (and the log it catches up on after its
 * start) as replayed commands, after its {@code SERVICE_STARTED}. Those above the baseline are audited like a
 * back-filled command, {@code recovered: true} with who asked as the log holds it, so that every member's trail holds
 * every command of the log once (issue 34; {@link AuditVerifier} checks it). Before, an empty trail's baseline stayed
 * "none" for the whole run, and a member's trail held only the commands it answered itself.
 *
 * <p>Failure: if the trail cannot write, {@code onFailure} is told the reason (the service then refuses new orders
 * with 503) and the handler keeps consuming: the trail keeps the records it could not write (and logs them), and
 * requests already in the pipeline are still answered with their real outcome. From a second later, at the end of
 * a batch at most once every {@value #RESUME_EVERY_MILLIS} ms (a {@code TICK} event comes once a second when
 * nothing else does), it asks the trail to {@link AuditTrail#resume}; when that writes the kept records,
 * {@code onResumed} is told and orders are taken again. If the trail loses its chain ({@link AuditTrail#resumable}),
 * {@code onFailure} is told again, with {@code resumable} false: only a restart brings the trail back. Nothing throws.
 *
 * <p>Threads: every method runs on the audit thread; the accessors may be called from any thread.
 */
public final class AuditStage implements BatchStage<EngineEvent> {

    private static final Logger LOG = LoggerFactory.getLogger(AuditStage.class);

    private final AuditTrail trail;
    private final java.util.function.LongPredicate orderHeld;
    /** While the trail cannot write, how often it is asked to try again. */
    static final long RESUME_EVERY_MILLIS = 1000;

    private final BiConsumer<String, Boolean> onFailure;
    private final Runnable onResumed;
    private final java.util.function.LongSupplier nanoTime;
    /** Replayed commands up to this journal sequence were audited before; {@code Long.MAX_VALUE}: not known yet. */
    private long backfillAbove;
    private final AuditEntry entry = new AuditEntry();

    private long updatedOrderId;
    private OrderStatus updatedStatus;
    private RejectReason updatedRejectReason;
    private String updatedAccountId;
    /** The current command's cancels of orders it does not name (cancel-all, self-trade prevention), the first ones. */
    private final long[] canceled = new long[AuditEntry.MAX_LISTED_CANCELED];
    private int canceledCount;
    /** The reason of the current command's last such cancel. */
    private RejectReason canceledReason;
    private boolean failureReported;
    private boolean lossReported;
    private long nextResumeNanos;

    private volatile long recoveredRecords;

    /**
     * @param trail     the open trail; from now on it belongs to the audit thread
     * @param onFailure told, on the audit thread, why the trail stopped writing and whether it may write again in this
     *                  process (it tries by itself); told again when that turns false; must not block
     * @param onResumed told, on the audit thread, when the trail writes again; must not block
     * @param orderHeld whether the order view holds an order, asked on this stage's thread after the view applied the
     *                  same event: the answers that carry the order depend on it ({@link Answer})
     */
    public AuditStage(final AuditTrail trail, final BiConsumer<String, Boolean> onFailure, final Runnable onResumed,
                        final java.util.function.LongPredicate orderHeld) {
        this(trail, onFailure, onResumed, orderHeld, System::nanoTime);
    }

    /** As the public constructor, timing its retries by {@code nanoTime} (tests). */
    AuditStage(final AuditTrail trail, final BiConsumer<String, Boolean> onFailure, final Runnable onResumed,
                 final java.util.function.LongPredicate orderHeld, final java.util.function.LongSupplier nanoTime) {
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
        this.trail = Objects.requireNonNull(trail, "trail");
        this.onFailure = Objects.requireNonNull(onFailure, "onFailure");
        this.onResumed = Objects.requireNonNull(onResumed, "onResumed");
        this.orderHeld = Objects.requireNonNull(orderHeld, "orderHeld");
        this.backfillAbove = trail.tail().isEmpty() ? Long.MAX_VALUE : trail.tail().lastAuditedJournalSequence();
    }

    @Override
    public void onStart() {
        LOG.info("audit: trail continues at seq {} in {}; journaled commands above sequence {} that it lacks will be"
                + " audited as recovered", trail.lastSeq() + 1, trail.currentFile(),
                backfillAbove == Long.MAX_VALUE ? "(none: new trail)" : backfillAbove);
    }

    @Override
    public void apply(final EngineEvent event, final long sequence) {
        switch (event.type) {
            case ORDER_UPDATED -> rememberUpdate(event);
            case COMMAND_COMPLETED -> completed(event);
            case REQUEST_REJECTED -> rejected(event.refusal, event);
            case REPLAY_COMPLETED -> started(event.commandSequence);
            case ORDER_ACCEPTED, TRADE, ORDER_AMENDED, BALANCE_CHANGED -> {
                // the outcome is recorded once, at the command's COMMAND_COMPLETED
            }
            case TICK -> {
                // nothing to record: it only ends a batch, where a failed trail may try again
            }
            default -> throw new IllegalStateException("unknown event type " + event.type);
        }
    }

    /**
     * Writes the batch's records (one write; forced in fsync mode) before anything after this stage runs; after a
     * failure, first asks the trail to write what it kept, at most once every {@value #RESUME_EVERY_MILLIS} ms.
     */
    @Override
    public void endOfBatch() {
        if (failureReported && !lossReported && nanoTime.getAsLong() - nextResumeNanos >= 0) {
            nextResumeNanos = nanoTime.getAsLong() + RESUME_EVERY_MILLIS * 1_000_000;
            if (trail.resume()) {
                failureReported = false;
                LOG.warn("audit: the trail writes again; order entry takes orders again");
                onResumed.run();
            }
        }
        if (!trail.flush()) {
            reportFailure();
        }
    }

    @Override
    public void onShutdown() {
        try {
            trail.close();
            LOG.info("audit: trail closed at seq {}, head hash {}", trail.lastSeq(), trail.headHash());
        } catch (final IOException e) {
            LOG.error("audit: the final write of the trail failed; the unwritten records are logged above", e);
            reportFailure();
        }
    }

    /** @return journaled commands audited during this start's replay because the trail lacked them; any thread */
    public long recoveredRecords() {
        return recoveredRecords;
    }

    private void completed(final EngineEvent event) {
        if (event.replay && event.commandSequence <= backfillAbove) {
            clearUpdate();
            return;
        }
        entry.reset();
        entry.kind = kindOf(event.commandType);
        entry.action = entry.kind == AuditKind.PRICE_BAND_SET || entry.kind == AuditKind.FEES_SET ? null
                : event.commandType;
        entry.requestId = event.requestTag.toStringOrNull();
        entry.remoteAddress = event.remoteAddress;
        entry.keyId = event.keyId;
        entry.accountId = event.accountId;
        entry.clientOrderId = event.clientOrderId.toStringOrNull();
        entry.orderId = event.orderId;
        entry.recovered = event.replay;
        terms(event);
        // nobody waits for a band or a fee change
        final boolean answered = entry.kind != AuditKind.PRICE_BAND_SET && entry.kind != AuditKind.FEES_SET;
        if (event.journalFailed) {
            if (answered) {
                answered(Answer.JOURNAL_UNAVAILABLE);
            }
        } else {
            entry.journalSequence = event.commandSequence;
            entry.result = event.result;
            if (updatedOrderId != 0 && updatedOrderId == event.orderId) {
                entry.status = updatedStatus;
                entry.rejectReason = updatedRejectReason;
                if (entry.accountId == null) {
                    entry.accountId = updatedAccountId;
                }
            }
            if (canceledCount > 0 || entry.kind == AuditKind.CANCEL_ALL) {
                entry.canceledCount = canceledCount;
                entry.canceledOrderIds = canceled;
            }
            if (entry.kind == AuditKind.CANCEL_ALL && entry.cause == null) {
                entry.cause = canceledReason;   // each order a cancel-all cancels carries its cause
            }
            if (!event.replay && answered) {
                answered(Answer.of(event.result, false, orderHeld.test(event.orderId)));
            }
        }
        if (event.replay) {
            recoveredRecords++;
        }
        append();
        clearUpdate();
    }

    private static AuditKind kindOf(final CommandType type) {
        if (type == null) {
            return AuditKind.PLACE;
        }
        return switch (type) {
            case CANCEL -> AuditKind.CANCEL;
            case AMEND -> AuditKind.AMEND;
            case CANCEL_ALL -> AuditKind.CANCEL_ALL;
            case SET_PRICE_BAND -> AuditKind.PRICE_BAND_SET;
            case FUND -> AuditKind.FUNDING;
            case SET_FEES -> AuditKind.FEES_SET;
            default -> AuditKind.PLACE;
        };
    }

    /**
     * The command's terms, as its COMMAND_COMPLETED carries them from the command: an AMEND's {@code price} and
     * {@code quantity} (0: kept); a CANCEL_ALL's {@code symbol} (-1: all) and its cause in {@code rejectReason}; a
     * SET_PRICE_BAND's {@code symbol}. A value the event does not carry stays "not known": a cancel-all's instrument is
     * taken only with its cause, since the event's {@code symbol} is -1 also when nothing was copied into it.
     */
    private void terms(final EngineEvent event) {
        switch (entry.kind) {
            case AMEND -> {
                entry.price = event.price;
                entry.quantity = event.quantity;
            }
            case CANCEL_ALL -> {
                final RejectReason cause = event.rejectReason;
                if (cause == RejectReason.CANCEL_ALL || cause == RejectReason.CANCEL_ALL_AFTER
                        || cause == RejectReason.CANCEL_ON_DISCONNECT) {
                    entry.cause = cause;
                    entry.instrument = Math.max(-1, event.symbol);
                    entry.allInstruments = event.symbol < 0;
                }
            }
            case PRICE_BAND_SET -> {
                entry.instrument = Math.max(-1, event.symbol);
                entry.bandBasisPoints = event.priceBandBasisPoints;
            }
            case FUNDING -> {
                entry.asset = event.asset;
                entry.amount = event.amount;
                entry.reference = event.reference;
            }
            case FEES_SET -> {
                entry.instrument = Math.max(-1, event.symbol);
                entry.makerFeeRate = event.makerFeeRate;
                entry.takerFeeRate = event.takerFeeRate;
            }
            default -> {
                // a place or a cancel: its terms are the order's, in the journal and the order's events
            }
        }
    }

    /** Records the answer the HTTP edge gives, from the same table it reads ({@link Answer}). */
    private void answered(final Answer answer) {
        entry.httpStatus = answer.status();
        entry.code = answer.code();
        entry.message = answer.message();
    }

    private void rejected(final Refusal refusal, final EngineEvent event) {
        entry.reset();
        entry.kind = AuditKind.REJECTED_AT_EDGE;
        entry.action = refusal.request();
        entry.requestId = event.requestTag.toStringOrNull();
        entry.remoteAddress = event.remoteAddress;
        entry.keyId = event.keyId;
        entry.accountId = event.accountId;
        entry.claimedAccountId = event.claimedAccountId;
        entry.clientOrderId = event.clientOrderId.toStringOrNull();
        entry.orderId = event.orderId;
        entry.httpStatus = refusal.httpStatus();
        entry.code = refusal.code();
        entry.message = refusal.message();
        entry.field = refusal.field();
        append();
    }

    private void started(final long lastJournalSequence) {
        if (recoveredRecords > 0) {
            LOG.warn("audit: {} journaled command(s) had no audit record and were audited as recovered, with the request"
                    + " id, address and key id the journal holds: the process stopped between the journal and the audit"
                    + " write (such a request was not answered), or the machine lost the trail's unforced tail"
                    + " (ORDERS_AUDIT_SYNC=none and a power loss: it may have been answered, and refusals the lost tail"
                    + " held are gone)", recoveredRecords);
        }
        entry.reset();
        entry.kind = AuditKind.SERVICE_STARTED;
        entry.journalSequence = lastJournalSequence;
        append();
        if (backfillAbove == Long.MAX_VALUE) {
            // a new trail: what was replayed before this record is not audited, what is replayed after it is (cluster)
            backfillAbove = lastJournalSequence;
        }
    }

    /**
     * The command's last ORDER_UPDATED is the state it left the order it names in (a place's or an amend's incoming
     * order comes after the makers self-trade prevention canceled; a cancel has only its order's); {@link #completed}
     * takes it only when it is of that order. A CANCELED with a reason is an order the command canceled without naming
     * it (each order of a cancel-all, a maker STP canceled): those are listed.
     */
    private void rememberUpdate(final EngineEvent event) {
        updatedOrderId = event.orderId;
        updatedStatus = event.status;
        updatedRejectReason = event.rejectReason;
        updatedAccountId = event.accountId;
        if (event.status == OrderStatus.CANCELED && event.rejectReason != null
                && event.rejectReason != RejectReason.NONE) {
            if (canceledCount < canceled.length) {
                canceled[canceledCount] = event.orderId;
            }
            canceledCount++;
            canceledReason = event.rejectReason;
        }
    }

    private void clearUpdate() {
        updatedOrderId = 0;
        updatedStatus = null;
        updatedRejectReason = null;
        updatedAccountId = null;
        canceledCount = 0;
        canceledReason = null;
    }

    private void append() {
        if (!trail.append(entry)) {
            reportFailure();
        }
    }

    private void reportFailure() {
        final boolean resumable = trail.resumable();
        if (failureReported && (resumable || lossReported)) {
            return;
        }
        if (!failureReported) {
            nextResumeNanos = nanoTime.getAsLong() + RESUME_EVERY_MILLIS * 1_000_000;
        }
        failureReported = true;
        lossReported = !resumable;
        final IOException cause = trail.failure();
        if (resumable) {
            LOG.error("audit: the trail cannot be written; order entry refuses new orders (503 AUDIT_UNAVAILABLE) and"
                    + " the trail tries again every second; requests already accepted are still answered, their records"
                    + " kept until it writes again", cause);
        } else {
            LOG.error("audit: the trail lost records and cannot go on before a restart; /health is DOWN; a restart"
                    + " audits the journaled commands it lacks as recovered", cause);
        }
        onFailure.accept("the audit trail cannot write: " + (cause == null ? "closed" : cause.getMessage()), resumable);
    }
}
