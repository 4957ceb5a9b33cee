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
 * <p>Replies must come after this stage's {@link #endOfBatch}: the service runs it before the reply stage on the
 * same thread ({@link io.orderentry.pipeline.Sequential}), so no request is answered before its record has been
 * written (and forced, in {@link AuditSync#FSYNC} mode).
 *
 * <p>Replay: commands replayed from the journal were audited when they first ran and are skipped, except those
 * whose journal sequence is above the highest one the trail held at startup. Such a command was journaled but
 * its record never reached the trail: the process died between the journal write and the audit write (the
 * request was then never answered, since replies wait for this stage), or the trail had failed (the record is
 * then in the application log). It is audited now with {@code recovered: true} and no request id, address or
 * HTTP status. An empty trail has no such baseline and back-fills nothing: it starts with this run's
 * {@code SERVICE_STARTED} record.
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
public final class AuditHandler implements BatchStage<EngineEvent> {

    private static final Logger LOG = LoggerFactory.getLogger(AuditHandler.class);

    private final AuditTrail trail;
    private final java.util.function.LongPredicate orderHeld;
    /** While the trail cannot write, how often it is asked to try again. */
    static final long RESUME_EVERY_MILLIS = 1000;

    private final BiConsumer<String, Boolean> onFailure;
    private final Runnable onResumed;
    private final java.util.function.LongSupplier nanoTime;
    private final long backfillAbove;
    private final AuditEntry entry = new AuditEntry();

    private long updatedOrderId;
    private OrderStatus updatedStatus;
    private RejectReason updatedRejectReason;
    private String updatedAccountId;
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
    public AuditHandler(final AuditTrail trail, final BiConsumer<String, Boolean> onFailure, final Runnable onResumed,
                        final java.util.function.LongPredicate orderHeld) {
        this(trail, onFailure, onResumed, orderHeld, System::nanoTime);
    }

    /** As the public constructor, timing its retries by {@code nanoTime} (tests). */
    AuditHandler(final AuditTrail trail, final BiConsumer<String, Boolean> onFailure, final Runnable onResumed,
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
            case ORDER_ACCEPTED, TRADE -> {
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
        entry.kind = event.commandType == CommandType.CANCEL ? AuditKind.CANCEL : AuditKind.PLACE;
        entry.action = event.commandType;
        entry.requestId = event.requestTag;
        entry.remoteAddress = event.remoteAddress;
        entry.keyId = event.keyId;
        entry.accountId = event.accountId;
        entry.clientOrderId = event.clientOrderId;
        entry.orderId = event.orderId;
        entry.recovered = event.replay;
        if (event.journalFailed) {
            answered(Answer.JOURNAL_UNAVAILABLE);
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
            if (!event.replay) {
                answered(Answer.of(event.result, false, orderHeld.test(event.orderId)));
            }
        }
        if (event.replay) {
            recoveredRecords++;
        }
        append();
        clearUpdate();
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
        entry.requestId = event.requestTag;
        entry.remoteAddress = event.remoteAddress;
        entry.keyId = event.keyId;
        entry.accountId = event.accountId;
        entry.clientOrderId = event.clientOrderId;
        entry.orderId = event.orderId;
        entry.httpStatus = refusal.httpStatus();
        entry.code = refusal.code();
        entry.message = refusal.message();
        entry.field = refusal.field();
        append();
    }

    private void started(final long lastJournalSequence) {
        if (recoveredRecords > 0) {
            LOG.warn("audit: {} journaled command(s) had no audit record (a crash between the journal and the audit"
                    + " write; never answered) and were audited as recovered", recoveredRecords);
        }
        entry.reset();
        entry.kind = AuditKind.SERVICE_STARTED;
        entry.journalSequence = lastJournalSequence;
        append();
    }

    private void rememberUpdate(final EngineEvent event) {
        updatedOrderId = event.orderId;
        updatedStatus = event.status;
        updatedRejectReason = event.rejectReason;
        updatedAccountId = event.accountId;
    }

    private void clearUpdate() {
        updatedOrderId = 0;
        updatedStatus = null;
        updatedRejectReason = null;
        updatedAccountId = null;
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
