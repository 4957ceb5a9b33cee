package io.orderentry.persistence;

import com.lmax.disruptor.EventHandler;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.orderentry.engine.RiskRules;
import io.orderentry.instrument.Instrument;
import io.orderentry.journal.WallClock;
import io.orderentry.pipeline.EngineEvent;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * PostgreSQL persistence as one piece: the spool, the {@link PersistenceStage} on the output ring, the
 * {@link PersistenceWriter} thread and its HikariCP pool.
 *
 * <pre>
 *  output ring ──▶ PersistenceStage ──append, write to the OS at end of batch──▶ spool segments (local disk)
 *                                                                                   │ tail from the high-water mark
 *                  PostgreSQL ◀──one transaction per batch (events + new mark)── PersistenceWriter
 * </pre>
 *
 * <p>Life: {@link #open} before the journal is replayed (it empties the spool and gives the database
 * a few seconds to tell its high-water mark, so replayed events it already has are not spooled);
 * {@link #stage()} joins the output ring; {@link #start} after recovery; {@link #stop} after the rings
 * have drained. All of these are called on the service's main thread; the figures from any thread.
 */
public final class PersistenceService {

    private static final Logger LOG = LoggerFactory.getLogger(PersistenceService.class);
    private static final int SPOOL_BUFFER_BYTES = 1 << 20;
    private static final int SOCKET_TIMEOUT_SECONDS = 60;

    private final DatabaseConfig config;
    private final JdbcUrl url;
    private final HikariDataSource pool;
    private final PersistenceWriter writer;
    private final PersistenceStage stage;
    private final PersistenceMetrics metrics;
    private final long knownAtOpen;

    private PersistenceService(final DatabaseConfig config, final JdbcUrl url, final HikariDataSource pool,
                               final PersistenceWriter writer, final PersistenceStage stage,
                               final PersistenceMetrics metrics, final long knownAtOpen) {
        this.knownAtOpen = knownAtOpen;
        this.config = config;
        this.url = url;
        this.pool = pool;
        this.writer = writer;
        this.stage = stage;
        this.metrics = metrics;
    }


    /**
     * Empties the spool directory, starts the writer thread and waits a bounded time (twice the connect
     * timeout, plus 3 s for a first migration) for the database's high-water mark. Never fails because
     * of the database; it fails only if the spool directory cannot be used.
     *
     * @param instruments the configured instruments, indexed by engine symbol number
     * @param shared      a member of a cluster: every member spools the same events, only the one that leads writes
     *                    ({@link #lead}), and a member that takes over goes on from the database's high-water mark,
     *                    whoever moved it; false on a single node
     * @throws UncheckedIOException if the spool directory cannot be created or emptied
     */
    public static PersistenceService open(final DatabaseConfig config, final List<Instrument> instruments,
                                          final boolean shared) {
        return open(config, instruments, (RiskRules) null, shared);
    }

    /**
     * As {@link #open(DatabaseConfig, List, boolean)}, storing balances too.
     *
     * @param risk the engine's balances' rules, null without balances
     */
    public static PersistenceService open(final DatabaseConfig config, final List<Instrument> instruments,
                                          final RiskRules risk, final boolean shared) {
        final AtomicLong uncertainThrough = new AtomicLong(-1);
        return open(config, instruments,
                (pool, columns) -> new PostgresSink(pool, columns, risk, uncertainThrough, shared), shared);
    }

    /**
     * {@link #open(DatabaseConfig, List, boolean)} on a single node, with another way of writing batches, for
     * measurements.
     *
     * @param sinkFactory builds the sink from the connection pool and the instruments
     */
    static PersistenceService open(final DatabaseConfig config, final List<Instrument> instruments,
                                   final BiFunction<DataSource, List<Instrument>, BatchSink> sinkFactory) {
        return open(config, instruments, sinkFactory, false);
    }

    private static PersistenceService open(final DatabaseConfig config, final List<Instrument> instruments,
                                           final BiFunction<DataSource, List<Instrument>, BatchSink> sinkFactory,
                                           final boolean shared) {
        final JdbcUrl url = new JdbcUrl(config.url());
        try {
            final long removed = SpoolFiles.reset(config.spoolDir());
            LOG.info("persistence: spool at {} emptied ({} bytes of the previous run removed); database {} as '{}',"
                    + " batches of up to {} events or {} ms on {} connection(s)", config.spoolDir().toAbsolutePath()
                    .normalize(), removed, url, config.user(), config.batchSize(), config.batchMillis(), config.writers());
        } catch (final IOException e) {
            throw new UncheckedIOException("persistence.spool.dir " + config.spoolDir() + " cannot be used: "
                    + e.getMessage(), e);
        }
        final SpoolWriter spool = new SpoolWriter(config.spoolDir(), config.spoolSegmentBytes(), SPOOL_BUFFER_BYTES);
        final SpoolReader reader = new SpoolReader(config.spoolDir(), spool::flushedSequence, SPOOL_BUFFER_BYTES);
        spool.limits(config.spoolMaxBytes(), config.spoolMinFreeBytes(), reader::deletedBytes);
        final HikariDataSource pool = new HikariDataSource(hikari(config));
        final List<BatchSink> sinks = new ArrayList<>();
        for (int i = 0; i < config.writers(); i++) {
            sinks.add(sinkFactory.apply(pool, instruments));
        }
        final PersistenceMetrics metrics = new PersistenceMetrics();
        final PersistenceWriter writer = new PersistenceWriter(url, config.user(), pool,
                new DatabaseBootstrap(url, driverProperties(config)), sinks, reader,
                config.batchSize(), config.batchMillis(), config.retryMaxMillis(), metrics, shared);
        final Thread thread = new Thread(writer, "persistence-writer");
        thread.setDaemon(true);
        thread.start();
        final long known = writer.awaitFirstAttempt(TimeUnit.SECONDS.toMillis(2L * config.connectTimeoutSeconds() + 3));
        final PersistenceStage stage = new PersistenceStage(spool, Math.max(0, known));
        LOG.info("persistence: replayed events up to sequence {} are {}", Math.max(0, known),
                known > 0 ? "already in the database and are not spooled" : "spooled (none are known to be stored)");
        return new PersistenceService(config, url, pool, writer, stage, metrics, known);
    }

    /**
     * @return the engine event sequence up to which the database held every event, as it told at {@link #open} (0
     *         when it was empty), or -1 when it did not answer in time; replay needs to reach the stage only above it
     */
    public long knownPersistedThrough() {
        return knownAtOpen < 0 ? -1 : stage.skipThrough();
    }

    /** @return the consumer to add to the output ring, beside the order view */
    public EventHandler<EngineEvent> stage() {
        return stage;
    }

    /**
     * Lets the writer write, once the journal has been replayed.
     *
     * @param journalLastEventSequence the engine's last event sequence after replay
     */
    public void start(final long journalLastEventSequence) {
        writer.start(stage, journalLastEventSequence);
    }

    /** Cluster mode: this member now leads (it writes) or no longer does (it follows the mark); see PersistenceWriter. */
    public void lead(final boolean lead) {
        writer.lead(lead);
    }

    /** @return true while this service's writer writes: always on a single node, on the leader in cluster mode */
    public boolean writing() {
        return writer.writing();
    }

    /** Writes what was spooled (at most 10 s), stops the writer and closes the pool. Call after the rings drained. */
    public void stop() {
        stop(STOP_WAIT_MILLIS);
    }

    /**
     * As {@link #stop()}, waiting at most {@code waitMillis} for the writer: what it has not written by then is
     * written from the journal at the next start (its high-water mark commits with each batch).
     */
    public void stop(final long waitMillis) {
        writer.stop(Math.min(waitMillis, STOP_WAIT_MILLIS));
        pool.close();
    }

    /** The longest {@link #stop()} waits: the writer's 10 s to write what was spooled, and 5 s to close. */
    public static final long STOP_WAIT_MILLIS = 15_000;

    /**
     * @return where persistence stands; FAILED once the spool stopped, also while the database is down or not reached
     *         yet: only a restart resumes persistence then, whatever the database does (docs/persistence.md)
     */
    public PersistenceWriter.State state() {
        final PersistenceWriter.State state = writer.state();
        return stage.failure() != null && state != PersistenceWriter.State.STOPPED ? PersistenceWriter.State.FAILED
                : state;
    }

    /** @return why the database is down or persistence failed; null while all works */
    public String lastError() {
        final String error = writer.lastError();
        return error == null && stage.failure() != null ? "spool: " + stage.failure() : error;
    }

    /** @return why spooling stopped (a full disk, a bound reached), or null while it works */
    public String spoolFailure() {
        return stage.failure();
    }

    /** @return the configured URL without any password, for logs and {@code /ready} */
    public String databaseUrl() {
        return url.redacted();
    }

    /** @return the database's high-water mark as last seen; 0 until it is known */
    public long persistedSequence() {
        return Math.max(0, writer.persistedSequence());
    }

    /** @return the last engine event sequence the stage has seen */
    public long engineSequence() {
        return stage.lastSeenSequence();
    }

    /** @return engine events not yet in the database */
    public long lagEvents() {
        return Math.max(0, stage.lastSeenSequence() - Math.max(stage.skipThrough(), writer.persistedSequence()));
    }

    /** @return age of the oldest engine event not yet in the database, in milliseconds; 0 when none */
    public long lagMillis() {
        if (lagEvents() == 0) {
            return 0;
        }
        long oldest = writer.oldestPendingMicros();
        if (oldest == 0) {
            oldest = writer.lastPersistedMicros() != 0 ? writer.lastPersistedMicros() : stage.lastSeenMicros();
        }
        return Math.max(0, (WallClock.currentTimeMicros() - oldest) / 1_000);
    }

    /** @return bytes the spool holds on disk for the database */
    public long spoolBytes() {
        return Math.max(0, stage.spooledBytes() - writer.deletedSpoolBytes());
    }

    /** @return batch and outage figures */
    public PersistenceMetrics metrics() {
        return metrics;
    }

    /** @return the configured batch size, for reporting */
    public int batchSize() {
        return config.batchSize();
    }

    private static HikariConfig hikari(final DatabaseConfig config) {
        final HikariConfig hikari = new HikariConfig();
        hikari.setPoolName("persistence");
        hikari.setJdbcUrl(config.url());
        hikari.setUsername(config.user());
        hikari.setPassword(config.password());
        // One connection per writer lane, and one for the schema migration and pool checks.
        hikari.setMaximumPoolSize(config.writers() + 1);
        hikari.setMinimumIdle(0);
        hikari.setInitializationFailTimeout(-1);
        hikari.setConnectionTimeout(TimeUnit.SECONDS.toMillis(config.connectTimeoutSeconds()) + 1_000);
        hikari.setValidationTimeout(1_000);
        final Properties driver = driverProperties(config);
        driver.remove("user");
        driver.remove("password");
        hikari.setDataSourceProperties(driver);
        return hikari;
    }

    /** @return login and timeouts for every connection: short connect and login, bounded socket reads */
    private static Properties driverProperties(final DatabaseConfig config) {
        final Properties properties = new Properties();
        properties.setProperty("user", config.user());
        properties.setProperty("password", config.password());
        properties.setProperty("connectTimeout", Integer.toString(config.connectTimeoutSeconds()));
        properties.setProperty("loginTimeout", Integer.toString(config.connectTimeoutSeconds()));
        properties.setProperty("socketTimeout", Integer.toString(SOCKET_TIMEOUT_SECONDS));
        properties.setProperty("tcpKeepAlive", "true");
        // the server cancels a statement (or a lock wait) past the timeout and ends a session left idle in a
        // transaction, so a slow database never leaves a backend running behind a client that gave up
        properties.setProperty("options", "-c statement_timeout=" + config.statementTimeoutSeconds() * 1000
                + " -c idle_in_transaction_session_timeout=" + (SOCKET_TIMEOUT_SECONDS + 30) * 1000);
        properties.setProperty("ApplicationName", "order-entry persistence");
        return properties;
    }
}
