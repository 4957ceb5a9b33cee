package io.orderentry.persistence;

import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.sql.SQLException;

/**
 * Turns a failure to use PostgreSQL into one line an operator can act on: what went wrong and which
 * setting to check. Stateless.
 */
final class DatabaseErrors {

    private DatabaseErrors() {
    }

    /**
     * @param failure what the driver, the pool or Flyway threw
     * @param url     the configured database
     * @param user    the configured user
     * @return a one-line explanation naming the setting to check
     */
    static String describe(final Throwable failure, final JdbcUrl url, final String user) {
        final SQLException sql = innermost(failure, SQLException.class);
        final String state = sql == null ? null : sql.getSQLState();
        final String message = rootMessage(failure);
        if (state != null && state.startsWith("28")) {
            return "PostgreSQL at " + url.servers() + " refused the login of user '" + user + "': " + message
                    + " (check db.user/ORDERS_DB_USER and db.password/ORDERS_DB_PASSWORD)";
        }
        if ("3D000".equals(state)) {
            return "database '" + url.databaseName() + "' does not exist on " + url.servers() + ": " + message
                    + " (check db.url/ORDERS_DB_URL)";
        }
        if ("42501".equals(state)) {
            return message;
        }
        if (innermost(failure, UnknownHostException.class) != null) {
            return "the database host of " + url.redacted() + " is unknown: " + message
                    + " (check db.url/ORDERS_DB_URL)";
        }
        if (innermost(failure, ConnectException.class) != null
                || innermost(failure, SocketTimeoutException.class) != null
                || state != null && state.startsWith("08")) {
            return "cannot reach PostgreSQL at " + url.servers() + ": " + message
                    + " (is it running? check db.url/ORDERS_DB_URL)";
        }
        if (state != null && state.startsWith("57P")) {
            return "PostgreSQL at " + url.servers() + " is shutting down or starting: " + message;
        }
        return (state == null ? "" : "SQL state " + state + ": ") + message;
    }

    /** @return the message of the deepest cause, which is the one that names the real problem */
    static String rootMessage(final Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        final String message = root.getMessage();
        return message == null ? root.getClass().getSimpleName() : message.replace('\n', ' ').trim();
    }

    private static <T extends Throwable> T innermost(final Throwable failure, final Class<T> type) {
        T found = null;
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (type.isInstance(t)) {
                found = type.cast(t);
            }
        }
        return found;
    }
}
