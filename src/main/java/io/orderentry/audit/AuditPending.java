package io.orderentry.audit;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The records the trail has chained but could not write since it failed: kept in memory, in order, as they go to
 * the file, until {@link AuditTrail#resume} writes them, up to a bound in bytes. Past it, or once the trail gives
 * them up ({@link #lose}), the chain cannot go on in this process: {@link #resumable()} turns false and every later
 * record is only logged and counted in {@link #unwrittenRecords()}. Each kept or lost record is logged at ERROR, so
 * that a process that dies before the trail writes again leaves them in its log.
 *
 * <p>Threads: changed only on the trail's writer thread; the counts and {@link #resumable()} are read from any.
 */
final class AuditPending {

    /** The trail's own logger: operators and tests read these lines under its name. */
    private static final Logger LOG = LoggerFactory.getLogger(AuditTrail.class);

    /** Records chained but not written since the trail failed, in order, as they go to the file; writer thread. */
    private byte[] pending = new byte[0];
    private int pendingBytes;
    private volatile long pendingRecords;
    /** False once a record could not be kept: the chain cannot continue in this process. */
    private volatile boolean resumable = true;
    private volatile long unwrittenRecords;
    private final int maxPendingBytes;

    AuditPending(final int maxPendingBytes) {
        this.maxPendingBytes = maxPendingBytes;
    }

    /** @return records kept and not yet written; any thread */
    long records() {
        return pendingRecords;
    }

    /** @return false once records were lost and the chain cannot go on before a restart; any thread */
    boolean resumable() {
        return resumable;
    }

    /** @return records that could not be written and were logged instead; any thread */
    long unwrittenRecords() {
        return unwrittenRecords;
    }

    /** @return the kept records' bytes, to write in one go; writer thread */
    ByteBuffer bytes() {
        return ByteBuffer.wrap(pending, 0, pendingBytes);
    }

    /** Forgets the kept records once they are written. */
    void clear() {
        pending = new byte[0];
        pendingBytes = 0;
        pendingRecords = 0;
    }

    /**
     * Keeps chained records that could not be written, after those kept before, and logs each; past
     * the bound it was made with ({@link AuditTrail#MAX_PENDING_BYTES}) the chain is lost instead ({@link #lose}).
     */
    void keep(final byte[] lines, final int offset, final int length, final long records) {
        if (!resumable) {
            logLines(lines, offset, length, "audit: record not written to the trail: {}");
            unwrittenRecords += records;
            return;
        }
        if ((long) pendingBytes + length > maxPendingBytes) {
            lose("more than " + maxPendingBytes + " bytes of records would have to be kept", pendingRecords);
            keep(lines, offset, length, records);
            return;
        }
        if (pendingBytes + length > pending.length) {
            pending = java.util.Arrays.copyOf(pending, Math.max(pendingBytes + length, 2 * pending.length));
        }
        System.arraycopy(lines, offset, pending, pendingBytes, length);
        pendingBytes += length;
        pendingRecords += records;
        logLines(lines, offset, length, "audit: record not in the trail yet (kept until it can write again): {}");
    }

    /** Gives up the kept records: they stay only in the log, and the chain cannot go on before a restart. */
    void lose(final String why, final long records) {
        if (resumable) {
            LOG.error("audit: {}: {} record(s) kept since the failure are not in the trail (each is in this log) and"
                    + " the trail cannot go on before a restart; a restart audits the journaled commands it lacks as"
                    + " recovered", why, records);
        }
        resumable = false;
        unwrittenRecords += records;
        clear();
    }

    /** Counts and logs a record the trail, failed for good, did not even chain. */
    void unwritten(final String record) {
        unwrittenRecords++;
        LOG.error("audit: record not written to the trail: {}", record);
    }

    private static void logLines(final byte[] lines, final int offset, final int length, final String format) {
        int start = offset;
        for (int i = offset; i < offset + length; i++) {
            if (lines[i] == '\n') {
                LOG.error(format, new String(lines, start, i - start, StandardCharsets.UTF_8));
                start = i + 1;
            }
        }
    }
}
