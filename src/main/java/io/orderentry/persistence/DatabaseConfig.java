package io.orderentry.persistence;

import io.orderentry.config.ConfigException;
import io.orderentry.config.ConfigReader;
import io.orderentry.config.SettingNames;
import java.nio.file.Path;
import java.util.Optional;

/**
 * How the service reaches PostgreSQL and spools events for it (ORDERS_DB_*, ORDERS_PERSISTENCE_*), read from the
 * settings by {@link #from}.
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

    /** @return the database's settings; empty when {@code db.url} is, which disables persistence */
    public static Optional<DatabaseConfig> from(final ConfigReader settings) {
        final String url = settings.string("db.url");
        if (url.isEmpty()) {
            return Optional.empty();
        }
        if (!url.startsWith("jdbc:postgresql:")) {
            throw new ConfigException(SettingNames.envName("db.url") + " must be a jdbc:postgresql: URL or empty to"
                    + " disable persistence, was '" + url + "'");
        }
        return Optional.of(new DatabaseConfig(url, settings.string("db.user"), settings.string("db.password"),
                settings.intValue("persistence.batch.size", 1, 100_000),
                settings.longValue("persistence.batch.millis", 1, 60_000),
                Path.of(settings.string("persistence.spool.dir")),
                settings.longValue("persistence.spool.segment.bytes", 1L << 20, 1L << 40),
                settings.intValue("db.connect.timeout.seconds", 1, 300),
                settings.longValue("persistence.retry.max.millis", 10, 600_000),
                settings.intValue("persistence.writers", 1, 8),
                settings.intValue("db.statement.timeout.seconds", 1, 50),
                settings.longValue("persistence.spool.max.bytes", 1L << 20, Long.MAX_VALUE),
                settings.longValue("persistence.spool.min.free.bytes", 0, Long.MAX_VALUE)));
    }
}
