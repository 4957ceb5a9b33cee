/**
 * The audit trail: append-only JSON Lines files, each record holding the SHA-256 of the one before, rotated by size and
 * UTC day, archived after a retention period, and checked by {@code audit-verify}. {@link AuditStage} makes a record
 * of each completed command, edge refusal and start; {@link AuditTrail} numbers, hashes and writes them, once per
 * batch, into the current {@link AuditFile}; {@link AuditVerifier} checks a whole chain.
 * <p>{@link AuditStage} and {@link AuditTrail} run on the order stage's thread (oe-orders), after the order view and
 * before the replies. A finished file is forced and closed on oe-audit-sync ({@link AuditBackgroundSync});
 * {@link AuditArchiver} runs on oe-audit-archive; {@link AuditTailReader} on the starting thread;
 * {@link AuditVerifyCommand} in a process of its own.
 * <p>Depends on pipeline (events, {@code Answer}, {@code Refusal}), engine (its enums), journal
 * ({@code DirectoryLock}) and config ({@link AuditConfig}'s settings) only, and on Jackson in {@code RecordCheck}.
 */
package io.orderentry.audit;
