package io.orderentry.journal;

/** When the journal considers a batch durable. */
public enum JournalSync {
    /**
     * Each flush writes the batch and then forces it to the device ({@code FileChannel.force(false)}),
     * so an acknowledged command survives a power loss. The default.
     */
    FSYNC,
    /**
     * Each flush only writes the batch to the operating system: it survives a crash of the process but
     * not of the machine. For tests, benchmarks and throw-away environments.
     */
    NONE
}
