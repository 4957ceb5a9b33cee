package io.orderentry.persistence;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;
import org.postgresql.Driver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes the configured database usable with no manual setup: creates it when it is missing and the user
 * has the right to, then applies the Flyway migrations from {@code classpath:db/migration} (the
 * top-level {@code db/migration/} folder, shipped in the jar).
 *
 * <p>Threads: called on the persistence writer thread; every call is bounded by the connect, login and
 * socket timeouts it is given.
 */
final class DatabaseBootstrap {

    /** Where the migrations are on the classpath. */
    static final String MIGRATIONS = "classpath:db/migration";

    private static final Logger LOG = LoggerFactory.getLogger(DatabaseBootstrap.class);
    private static final String DUPLICATE_DATABASE = "42P04";
    private static final String INSUFFICIENT_PRIVILEGE = "42501";
    private static final String INVALID_CATALOG_NAME = "3D000";

    private final JdbcUrl url;
    private final Properties login;

    /**
     * @param login user, password and timeouts for the direct connections used to check and create the
     *              database
     */
    DatabaseBootstrap(final JdbcUrl url, final Properties login) {
        this.url = url;
        this.login = login;
    }

    /**
     * Creates the database if needed, then migrates it through {@code pool}.
     *
     * @return the schema version after migration
     * @throws SQLException when the server cannot be reached, refuses the login or the database cannot be created
     * @throws org.flywaydb.core.api.FlywayException when a migration fails
     */
    String run(final DataSource pool) throws SQLException {
        createIfMissing();
        final MigrateResult result = Flyway.configure()
                .dataSource(pool)
                .locations(MIGRATIONS)
                .failOnMissingLocations(true)
                .load()
                .migrate();
        if (result.migrationsExecuted > 0) {
            LOG.info("persistence: applied {} migration(s) to {}; schema now at version {}",
                    result.migrationsExecuted, url.redacted(), result.targetSchemaVersion);
        }
        return result.targetSchemaVersion != null ? result.targetSchemaVersion : result.initialSchemaVersion;
    }

    private void createIfMissing() throws SQLException {
        try {
            connect(url.url(), new Properties()).close();
            return;
        } catch (final SQLException e) {
            if (!INVALID_CATALOG_NAME.equals(e.getSQLState())) {
                throw e;
            }
        }
        final String name = url.databaseName();
        try (Connection admin = connect(url.maintenanceUrl(), url.parameters());
             Statement statement = admin.createStatement()) {
            statement.execute("CREATE DATABASE \"" + name.replace("\"", "\"\"") + "\"");
            LOG.info("persistence: created database '{}' on {}", name, url.servers());
        } catch (final SQLException e) {
            if (DUPLICATE_DATABASE.equals(e.getSQLState())) {
                return;
            }
            if (INSUFFICIENT_PRIVILEGE.equals(e.getSQLState())) {
                throw new SQLException("database '" + name + "' does not exist on " + url.servers() + " and user '"
                        + login.getProperty("user") + "' may not create it; create it once with: CREATE DATABASE \""
                        + name + "\" OWNER \"" + login.getProperty("user") + "\";", INSUFFICIENT_PRIVILEGE, e);
            }
            throw e;
        }
    }

    private Connection connect(final String jdbcUrl, final Properties parameters) throws SQLException {
        final Properties properties = new Properties();
        properties.putAll(parameters);
        properties.putAll(login);
        final Connection connection = new Driver().connect(jdbcUrl, properties);
        if (connection == null) {
            throw new SQLException("pgjdbc does not accept " + url.redacted(), "08001");
        }
        return connection;
    }
}
