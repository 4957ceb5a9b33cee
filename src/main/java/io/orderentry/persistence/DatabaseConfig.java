package io.orderentry.persistence;

import java.nio.file.Path;

/**
 * How the service reaches PostgreSQL and spools events for it (ORDERS_DB_*, ORDERS_PERSISTENCE_*).
 *
 * @param batchSize          most events written in one transaction
 * @param batchMillis        longest a partial batch waits before it is written
 * @param spoolDir           where events wait on disk for the database (derived data, reset at start)
 * @param spoolSegmentBytes  size at which a spool segment file is closed and a new one started
 * @param connectTimeoutSeconds longest wait for PostgreSQL to accept a connection and a login
 * @param retryMaxMillis     longest pause between reconnection attempts while the database is down
 * @param writers            connections writing consecutive batches at once (commits stay in order)
 * @param statementTimeoutSeconds longest a statement of the writer may run (or wait for a lock) before
 *                           PostgreSQL cancels it; below the socket timeout, so the server ends it, not the client
 * @param spoolMaxBytes      the most bytes the spool may hold on disk
 * @param spoolMinFreeBytes  bytes the spool leaves free on its file system, for the journal and audit trail
 */
public record DatabaseConfig(String url, String user, String password, int batchSize, long batchMillis,
                             Path spoolDir, long spoolSegmentBytes, int connectTimeoutSeconds, long retryMaxMillis,
                             int writers, int statementTimeoutSeconds, long spoolMaxBytes, long spoolMinFreeBytes) {

    /** A database with the default statement timeout (20 s) and no spool bound. */
    public DatabaseConfig(final String url, final String user, final String password, final int batchSize,
                          final long batchMillis, final Path spoolDir, final long spoolSegmentBytes,
                          final int connectTimeoutSeconds, final long retryMaxMillis, final int writers) {
        this(url, user, password, batchSize, batchMillis, spoolDir, spoolSegmentBytes, connectTimeoutSeconds,
                retryMaxMillis, writers, 20, Long.MAX_VALUE, 0);
    }
}
