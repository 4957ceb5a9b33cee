/**
 * Snapshots of every piece of state the journal determines (engine, order view, market data), so that a restart
 * replays only the journal after the newest one. {@link SnapshotStore} owns the file format, its CRC32C, the atomic
 * write and how many are kept; {@link Snapshotter} keeps a second copy of the state that follows the journal's durable
 * records, and writes snapshots of it without pausing the live engine.
 * <p>{@link Snapshotter} and its replica run on the snapshot writer's thread (oe-snapshot, nice 19).
 * {@link SnapshotStore} is also read on the starting thread to restore the newest usable snapshot, and written on the
 * clustered service thread in cluster mode. {@link VerifySnapshotCommand} runs in a process of its own.
 * <p>Depends on engine, pipeline (the matcher stage its replica runs), journal (positions, the tail it follows,
 * retention), query and marketdata (the state it copies) and config ({@link SnapshotConfig}'s settings) only; no
 * framework apart from SLF4J.
 */
package io.orderentry.snapshot;
