package io.orderentry.persistence;

import java.util.Properties;
import org.postgresql.Driver;
import org.postgresql.PGProperty;

/**
 * The parts of a {@code jdbc:postgresql:} URL that setting up the database needs: the database name,
 * the URL of the maintenance database on the same server, and a form that is safe to log. Immutable.
 */
final class JdbcUrl {

    private static final String MAINTENANCE_DATABASE = "postgres";

    private final String url;
    private final Properties parsed;

    /** @throws IllegalArgumentException if pgjdbc does not accept the URL */
    JdbcUrl(final String url) {
        this.url = url;
        this.parsed = Driver.parseURL(url, null);
        if (parsed == null) {
            throw new IllegalArgumentException("not a PostgreSQL JDBC URL: " + redact(url));
        }
    }

    /** @return the URL as configured; it may carry a password, do not log it */
    String url() {
        return url;
    }

    /** @return the name of the database the URL points at */
    String databaseName() {
        return PGProperty.PG_DBNAME.getOrDefault(parsed);
    }

    /** @return {@code host:port} of the server(s), comma separated */
    String servers() {
        final String[] hosts = PGProperty.PG_HOST.getOrDefault(parsed).split(",");
        final String[] ports = PGProperty.PG_PORT.getOrDefault(parsed).split(",");
        final StringBuilder servers = new StringBuilder();
        for (int i = 0; i < hosts.length; i++) {
            if (i > 0) {
                servers.append(',');
            }
            final String host = hosts[i].contains(":") ? "[" + hosts[i] + "]" : hosts[i];
            servers.append(host).append(':').append(ports[Math.min(i, ports.length - 1)]);
        }
        return servers.toString();
    }

    /** @return the URL of the {@code postgres} maintenance database on the same server(s) */
    String maintenanceUrl() {
        return "jdbc:postgresql://" + servers() + "/" + MAINTENANCE_DATABASE;
    }

    /**
     * @return the URL parameters other than host, port and database (ssl settings and the like), to be
     *         passed along when connecting to the maintenance database
     */
    Properties parameters() {
        final Properties parameters = new Properties();
        for (final String key : parsed.stringPropertyNames()) {
            if (!key.equals(PGProperty.PG_DBNAME.getName()) && !key.equals(PGProperty.PG_HOST.getName())
                    && !key.equals(PGProperty.PG_PORT.getName())) {
                parameters.setProperty(key, parsed.getProperty(key));
            }
        }
        return parameters;
    }

    /** @return the URL with any password parameter masked, safe to log */
    String redacted() {
        return redact(url);
    }

    @Override
    public String toString() {
        return redacted();
    }

    private static String redact(final String url) {
        return url.replaceAll("(?i)(password=)[^&]*", "$1***");
    }
}
