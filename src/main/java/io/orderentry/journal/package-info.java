/**
 * The command journal: the record format ({@link JournalFormat}), segment files, appending with one write and one fsync
 * per batch, reading back with CRC32C and sequence checks, cutting a torn tail, segment retention and the directory
 * lock. {@link JournalStage} sequences, timestamps and appends each command through {@link JournalWriter};
 * {@link JournalReader} replays the journal at startup; {@link JournalManifest} records the configuration the journal
 * was written under and refuses a start that would change what its records mean.
 * <p>{@link JournalStage} and {@link JournalWriter} run on the journal thread (oe-journal); {@link JournalReader} on
 * the starting thread during recovery, before the input ring runs. {@link JournalTail} and {@link JournalRetention} run
 * on the snapshot writer's thread (oe-snapshot). In cluster mode {@link JournalRecords} encodes the same records for
 * the replicated log, one instance per thread.
 * <p>Depends on pipeline (the {@code OrderCommand} it encodes and decodes), engine (its enums), instrument and config
 * (for the manifest) only, and on the LMAX Disruptor for {@link JournalStage}.
 */
package io.orderentry.journal;
