package io.orderentry.journal;

import com.lmax.disruptor.EventHandler;
import com.lmax.disruptor.RingBuffer;
import io.orderentry.pipeline.CommandType;
import io.orderentry.pipeline.OrderCommand;

import java.io.IOException;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * The journal stage of the input ring. For every slot it assigns {@link OrderCommand#sequence} (the previous
 * one plus 1, continuing from recovery) and {@link OrderCommand#timestampMicros} (the clock, never below the
 * previous one), appends the record, and at the end of each batch flushes once: one write and one fsync
 * per batch. A batch larger than the write buffer is flushed in several parts.
 *
 * <p>The matcher stage must be gated on this handler ({@code handleEventsWith(journal).then(matcher)}): the
 * {@code BatchEventProcessor} publishes this handler's sequence only after {@code onEvent(endOfBatch)}
 * returns, so the matcher sees a slot only once it is durable or marked. A slot whose record could not be
 * made durable gets {@link OrderCommand#journalFailed} {@code = true} and {@code sequence = 0} before that.
 * Records already made durable by an earlier partial flush of the same batch stay unmarked, because a replay will
 * execute them. Once the writer has failed, every later slot is marked too, except that a slot may first try to
 * resume the writer, at most once a second ({@link JournalWriter#resume}): when that succeeds the slot and those
 * after it are journaled again, continuing the sequence from the last durable record.
 * A slot whose command cannot be encoded (a bug upstream: incomplete, oversized) is marked alone,
 * counted in {@link #rejectedCommands()} and its error kept in {@link #lastRejection()}; the journal carries on.
 * {@link #onEvent} throws nothing for these cases.
 * A {@link CommandType#REJECTED} slot (an edge refusal, on its way to the audit stage) is skipped entirely:
 * no sequence, no timestamp, no record, never marked; so is a {@link CommandType#TICK}, the edge's signal once a
 * second, except that it too may try to resume a failed writer.
 *
 * <p>Threads: {@link #onEvent} runs on the journal thread; the accessors may be called from any thread.
 */
public final class JournalStage implements EventHandler<OrderCommand> {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(JournalStage.class);
    /** While the writer has failed, how often a command may try to resume it. */
    static final long RESUME_EVERY_MICROS = 1_000_000;
    /** How often a resume that fails again is logged. */
    private static final long RESUME_LOG_EVERY_MICROS = 60_000_000;
    private boolean failureLogged;
    private long failedSinceMicros;
    private long nextResumeMicros;
    private long nextResumeLogMicros;
    private long answeredUnavailable;

    private final JournalWriter writer;
    private final RingBuffer<OrderCommand> ring;
    private final LongSupplier clockMicros;

    private long nextSequence;
    private long lastTimestampMicros;
    private long batchStart = -1;

    private volatile long batches;
    private volatile long failedSlots;
    private volatile long rejectedCommands;
    private volatile IllegalArgumentException lastRejection;

    /**
     * Continues from where the writer stands, that is from the {@link JournalRecovery} it was opened with:
     * the first slot gets {@code writer.lastSequence() + 1} and no timestamp below
     * {@code writer.lastTimestampMicros()}. Construct it after {@link JournalWriter#open} and before the
     * ring starts; the writer then belongs to this handler's thread.
     *
     * @param writer      the open journal writer
     * @param ring        the input ring this handler consumes, to mark the slots of a failed batch
     * @param clockMicros wall clock in microseconds since the epoch, e.g. {@link WallClock#currentTimeMicros()}
     */
    public JournalStage(final JournalWriter writer, final RingBuffer<OrderCommand> ring, final LongSupplier clockMicros) {
        this.writer = Objects.requireNonNull(writer, "writer");
        this.ring = Objects.requireNonNull(ring, "ring");
        this.clockMicros = Objects.requireNonNull(clockMicros, "clockMicros");
        this.nextSequence = writer.lastSequence() + 1;
        this.lastTimestampMicros = writer.lastTimestampMicros();
    }

    /** Sequences and journals {@code command}; at {@code endOfBatch} makes the batch durable or marks it failed. */
    @Override
    public void onEvent(final OrderCommand command, final long ringSequence, final boolean endOfBatch) {
        if (batchStart < 0) {
            batchStart = ringSequence;
        }
        journal(command);
        if (endOfBatch) {
            if (!writer.flush()) {
                markNotDurable(batchStart, ringSequence);
            }
            batchStart = -1;
            batches++;
            if (!failureLogged && writer.failure() != null) {
                failureLogged = true;
                LOG.error("journal: cannot write ({}); orders and cancels are answered 503 JOURNAL_UNAVAILABLE and /ready"
                        + " 503 until a write succeeds again, tried once a second; everything"
                        + " answered before is durable", writer.failure().toString(), writer.failure());
            }
        }
    }

    private void journal(final OrderCommand command) {
        command.journalFailed = false;
        command.journalNanos = System.nanoTime();
        if (command.type == CommandType.REJECTED || command.type == CommandType.TICK) {
            command.sequence = 0;
            if (command.type == CommandType.TICK && !writer.isHealthy()) {
                resume();   // so that the journal writes again, and /ready says so, without waiting for an order
            }
            return;
        }
        if (!writer.isHealthy() && !resume()) {
            command.sequence = 0;
            command.journalFailed = true;
            failedSlots++;
            answeredUnavailable++;
            return;
        }
        command.sequence = nextSequence;
        command.timestampMicros = Math.max(lastTimestampMicros, clockMicros.getAsLong());
        try {
            if (writer.append(command)) {
                nextSequence++;
                lastTimestampMicros = command.timestampMicros;
            }
        } catch (final IllegalArgumentException e) {
            command.sequence = 0;
            command.journalFailed = true;
            if (rejectedCommands++ == 0) {
                LOG.error("journal: a command could not be encoded and was answered 503 ({}); later ones are counted"
                        + " in orders_journal_rejected_commands_total", e.getMessage(), e);
            }
            lastRejection = e;
        }
    }

    /**
     * Tries, at most once every {@link #RESUME_EVERY_MICROS} and first that long after the failure was seen, to make
     * the failed writer write again ({@link JournalWriter#resume});
     * on success the sequence continues from the last durable record, so the commands answered 503 meanwhile leave
     * no gap and no trace in the journal.
     *
     * @return true if the writer is healthy again
     */
    private boolean resume() {
        final long now = clockMicros.getAsLong();
        if (failedSinceMicros == 0) {   // the first command to see the failure: the first try comes a second later
            failedSinceMicros = now;
            nextResumeMicros = now + RESUME_EVERY_MICROS;
            return false;
        }
        if (now < nextResumeMicros) {
            return false;
        }
        nextResumeMicros = now + RESUME_EVERY_MICROS;
        if (writer.resume()) {
            nextSequence = writer.lastSequence() + 1;
            LOG.warn("journal: writing again after {} s; {} commands were answered 503 JOURNAL_UNAVAILABLE meanwhile and"
                    + " none of them was journaled", (now - failedSinceMicros) / 1_000_000, answeredUnavailable);
            failureLogged = false;
            failedSinceMicros = 0;
            nextResumeLogMicros = 0;
            answeredUnavailable = 0;
            return true;
        }
        if (now >= nextResumeLogMicros) {
            nextResumeLogMicros = now + RESUME_LOG_EVERY_MICROS;
            LOG.error("journal: still cannot write ({}); retried once a second while orders arrive, logged once a"
                    + " minute", String.valueOf(writer.failure()));
        }
        return false;
    }

    /** Marks every slot in {@code [from, to]} whose record is not durable. */
    private void markNotDurable(final long from, final long to) {
        final long durable = writer.lastSequence();
        long marked = 0;
        for (long s = from; s <= to; s++) {
            final OrderCommand slot = ring.get(s);
            if (!slot.journalFailed && slot.sequence > durable) {
                slot.journalFailed = true;
                slot.sequence = 0;   // never durable: the sequence is used again once the writer resumes
                marked++;
            }
        }
        failedSlots += marked;
    }

    /** @return false once the journal cannot write: every slot is then marked {@code journalFailed} */
    public boolean isHealthy() {
        return writer.isHealthy();
    }

    /** @return the I/O error that made the journal fail, for the log; null while healthy */
    public IOException failure() {
        return writer.failure();
    }

    /** @return sequence of the last durable record */
    public long lastSequence() {
        return writer.lastSequence();
    }

    /** @return records made durable since start */
    public long recordsWritten() {
        return writer.recordsWritten();
    }

    /** @return batches handled (ends of batch seen), successful or not */
    public long batches() {
        return batches;
    }

    /** @return nanoseconds the last fsync took; 0 in {@link JournalSync#NONE} mode */
    public long lastFsyncNanos() {
        return writer.lastForceNanos();
    }

    /** @return nanoseconds spent in fsync since start */
    public long totalFsyncNanos() {
        return writer.totalForceNanos();
    }

    /** @return slots marked {@code journalFailed} because the journal could not write */
    public long failedSlots() {
        return failedSlots;
    }

    /** @return slots marked {@code journalFailed} because their command could not be encoded */
    public long rejectedCommands() {
        return rejectedCommands;
    }

    /** @return why the last rejected command could not be encoded, or null */
    public IllegalArgumentException lastRejection() {
        return lastRejection;
    }
}
