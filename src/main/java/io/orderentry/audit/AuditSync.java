package io.orderentry.audit;

/** When the audit trail considers a batch written. Replies wait for it either way. */
public enum AuditSync {
    /**
     * Each batch is handed to the operating system with one {@code write}: it survives a crash of the process
     * ({@code kill -9}) but not of the machine. The default: the journal, fsync'd, still holds every answered
     * command with who asked (request id, address, key id), and a restart audits the ones whose record was lost
     * (marked {@code recovered}); the edge's refusals (401, 403, 400...) are not journaled, and those a power loss
     * took from the trail are gone.
     */
    NONE,
    /** Each batch is also forced to the device ({@code FileChannel.force(false)}) before any reply is sent. */
    FSYNC
}
