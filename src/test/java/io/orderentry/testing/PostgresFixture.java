package io.orderentry.testing;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.PostgreSQLContainer;

/**
 * PostgreSQL for tests, one fresh database per test class, dropped afterwards. Register it with
 * {@code @RegisterExtension static final PostgresFixture DB = new PostgresFixture();}. The server is
 * found once per JVM, in this order:
 * <ol>
 *   <li>{@code ORDERS_TEST_DB_URL} (with {@code ORDERS_TEST_DB_USER}, default postgres, and
 *       {@code ORDERS_TEST_DB_PASSWORD}); if that user may not create databases, the tests use the
 *       given database and drop the service's tables in it first;</li>
 *   <li>Testcontainers ({@code postgres:16-alpine}) when a Docker engine answers;</li>
 *   <li>a local server on 127.0.0.1:5432 as user postgres;</li>
 *   <li>otherwise the test fails with a message saying how to provide one.</li>
 * </ol>
 */
public final class PostgresFixture implements BeforeAllCallback, AfterAllCallback {

    /** Where the server came from and how to reach it. */
    private record Server(String source, String host, int port, String adminUrl, String user, String password) {

        String urlOf(final String database) {
            return "jdbc:postgresql://" + host + ":" + port + "/" + database;
        }
    }

    private static final Pattern URL = Pattern.compile("jdbc:postgresql://([^/:?]+)(?::(\\d+))?/([^?]+)(\\?.*)?");
    /** The service's tables; order_events is one before V5 and a view over the first two after it. */
    private static final String SERVICE_TABLES = "order_event_batches, order_events_v4, order_events, trades, orders,"
            + " high_water_mark, balances, balance_ledger_batches, flyway_schema_history";
    private static final String DROP_EVENTS_VIEW = "DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_views"
            + " WHERE schemaname = current_schema() AND viewname = 'order_events')"
            + " THEN DROP VIEW order_events CASCADE; END IF; END $$";
    private static final AtomicInteger COUNTER = new AtomicInteger();
    private static Server server;
    private static PostgreSQLContainer<?> container;

    private String database;
    private boolean created;

    @Override
    public void beforeAll(final ExtensionContext context) throws Exception {
        final Server s = server();
        final String name = "oe_test_" + context.getRequiredTestClass().getSimpleName().toLowerCase(Locale.ROOT)
                + "_" + ProcessHandle.current().pid() + "_" + COUNTER.incrementAndGet();
        try (Connection admin = DriverManager.getConnection(s.adminUrl(), s.user(), s.password());
             Statement statement = admin.createStatement()) {
            statement.execute("CREATE DATABASE " + name);
            database = name;
            created = true;
        } catch (final SQLException e) {
            if (!s.source().equals("ORDERS_TEST_DB_URL")) {
                throw e;
            }
            final Matcher m = URL.matcher(s.adminUrl());
            database = m.matches() ? m.group(3) : "postgres";
            created = false;
            dropServiceTables();
        }
    }

    /** Drops every table, view and function the service's migrations made, as if it had never run here. */
    public void dropServiceTables() throws SQLException {
        execute(DROP_EVENTS_VIEW);
        execute("DROP TABLE IF EXISTS " + SERVICE_TABLES + " CASCADE");
    }

    @Override
    public void afterAll(final ExtensionContext context) throws Exception {
        if (created) {
            dropDatabase(database);
        }
    }

    /** @return the JDBC URL of this class's database */
    public String url() {
        return server().urlOf(database);
    }

    /** @return the same database reached through another address, e.g. a proxy */
    public String urlVia(final String host, final int port) {
        return "jdbc:postgresql://" + host + ":" + port + "/" + database;
    }

    /** @return the URL of a database that does not exist yet on the same server */
    public String urlOfNewDatabase(final String name) {
        return server().urlOf(name);
    }

    public String host() {
        return server().host();
    }

    public int port() {
        return server().port();
    }

    public String user() {
        return server().user();
    }

    public String password() {
        return server().password();
    }

    /** @return true if databases can be created on the server, so the service's own creation can be tested */
    public boolean createsDatabases() {
        return created;
    }

    /** @return ORDERS_DB_URL, ORDERS_DB_USER and ORDERS_DB_PASSWORD for a service using this database */
    public Map<String, String> env() {
        return Map.of("ORDERS_DB_URL", url(), "ORDERS_DB_USER", user(), "ORDERS_DB_PASSWORD", password());
    }

    /** @return a new connection to this class's database */
    public Connection connect() throws SQLException {
        return DriverManager.getConnection(url(), user(), password());
    }

    /** Runs one statement in this class's database. */
    public void execute(final String sql) throws SQLException {
        try (Connection c = connect(); Statement statement = c.createStatement()) {
            statement.execute(sql);
        }
    }

    /** @return every row of a query, each column as PostgreSQL's text (NULL as null) */
    public List<List<String>> rows(final String sql) throws SQLException {
        final List<List<String>> rows = new ArrayList<>();
        try (Connection c = connect(); Statement statement = c.createStatement(); ResultSet rs = statement.executeQuery(sql)) {
            final ResultSetMetaData meta = rs.getMetaData();
            while (rs.next()) {
                final List<String> row = new ArrayList<>();
                for (int i = 1; i <= meta.getColumnCount(); i++) {
                    row.add(rs.getString(i));
                }
                rows.add(row);
            }
        }
        return rows;
    }

    /** @return the single number a query answers */
    public long number(final String sql) throws SQLException {
        return Long.parseLong(rows(sql).get(0).get(0));
    }

    /** Drops a database on the server, disconnecting whoever still uses it. */
    public void dropDatabase(final String name) throws SQLException {
        final Server s = server();
        try (Connection admin = DriverManager.getConnection(s.adminUrl(), s.user(), s.password());
             Statement statement = admin.createStatement()) {
            statement.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
        }
    }

    private static synchronized Server server() {
        if (server == null) {
            server = find();
        }
        return server;
    }

    private static Server find() {
        final String given = System.getenv("ORDERS_TEST_DB_URL");
        if (given != null && !given.isBlank()) {
            final Matcher m = URL.matcher(given.trim());
            if (!m.matches()) {
                throw new IllegalStateException("ORDERS_TEST_DB_URL must look like jdbc:postgresql://host:port/db, was "
                        + given);
            }
            return new Server("ORDERS_TEST_DB_URL", m.group(1), m.group(2) == null ? 5432 : Integer.parseInt(m.group(2)),
                    given.trim(), envOr("ORDERS_TEST_DB_USER", "postgres"), envOr("ORDERS_TEST_DB_PASSWORD", ""));
        }
        if (dockerAnswers()) {
            container = new PostgreSQLContainer<>("postgres:16-alpine");
            container.start();
            return new Server("Testcontainers", container.getHost(), container.getMappedPort(5432),
                    "jdbc:postgresql://" + container.getHost() + ":" + container.getMappedPort(5432) + "/postgres",
                    container.getUsername(), container.getPassword());
        }
        final String local = "jdbc:postgresql://127.0.0.1:5432/postgres";
        try {
            DriverManager.getConnection(local + "?connectTimeout=3", "postgres", "").close();
            return new Server("local", "127.0.0.1", 5432, local, "postgres", "");
        } catch (final SQLException e) {
            throw new IllegalStateException("No PostgreSQL for the tests (" + e.getMessage() + "). Provide one: set "
                    + "ORDERS_TEST_DB_URL=jdbc:postgresql://host:port/db (and ORDERS_TEST_DB_USER, "
                    + "ORDERS_TEST_DB_PASSWORD), or start a Docker engine for Testcontainers, or run PostgreSQL on "
                    + "127.0.0.1:5432 with user postgres (trust auth), e.g. `pg_ctlcluster 15 main start`.", e);
        }
    }

    /** Asks Testcontainers whether a Docker engine answers, giving up after 20 s so a hung socket cannot block. */
    private static boolean dockerAnswers() {
        final ExecutorService probe = Executors.newSingleThreadExecutor(r -> {
            final Thread thread = new Thread(r, "docker-probe");
            thread.setDaemon(true);
            return thread;
        });
        try {
            final Future<Boolean> available = probe.submit(() -> DockerClientFactory.instance().isDockerAvailable());
            return available.get(20, TimeUnit.SECONDS);
        } catch (final Exception e) {
            return false;
        } finally {
            probe.shutdownNow();
        }
    }

    private static String envOr(final String name, final String fallback) {
        final String value = System.getenv(name);
        return value == null ? fallback : value;
    }
}
