/**
 * The PostgreSQL projection: a local spool of the engine events, batching, binary COPY writes through HikariCP on
 * one connection per lane, Flyway migrations, the high-water mark in each batch's transaction, and reconnection.
 * {@link PersistenceStage} appends each event to the spool and never touches the database; {@link PersistenceWriter}
 * tails the spool into PostgreSQL ({@link WriterStatus} says where it stands, {@link CatchUp} times its catch-ups,
 * {@link Leadership} decides in cluster mode whether it writes), one batch per transaction on a lane's
 * {@link PostgresSink} ({@link BatchCopy} the batch's COPY rows); {@link PersistenceService} puts them together.
 * <p>{@link PersistenceStage} runs on its consumer thread (oe-spool); {@link PersistenceWriter} on its own writer
 * thread (persistence-writer), which hands batches to one thread per lane (persistence-lane-N).
 * {@link PersistenceService} is opened, started and stopped on the starting thread.
 * <p>Depends on pipeline (the events), engine (its enums), journal ({@code WallClock}) and instrument
 * ({@code Instrument}); its settings are its own {@link DatabaseConfig}, read with config; on HikariCP, Flyway, the
 * PostgreSQL driver and the LMAX Disruptor.
 */
package io.orderentry.persistence;
