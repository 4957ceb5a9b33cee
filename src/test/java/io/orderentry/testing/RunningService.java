package io.orderentry.testing;

import io.orderentry.app.Config;
import io.orderentry.app.ConfigLoader;
import io.orderentry.app.OrderEntryService;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The whole service in this JVM, on a free loopback port, with its own journal directory and
 * persistence disabled unless the test sets ORDERS_DB_URL. Close it to stop it cleanly.
 */
public final class RunningService implements AutoCloseable {

    private final OrderEntryService service;
    private final int port;
    private final Path journalDir;

    private RunningService(final OrderEntryService service, final int port, final Path journalDir) {
        this.service = service;
        this.port = port;
        this.journalDir = journalDir;
    }

    /** Starts a service whose journal lives in {@code dir}; {@code overrides} are extra environment variables. */
    public static RunningService start(final Path dir, final Map<String, String> overrides) {
        final int port = FreePort.pick();
        final Map<String, String> env = new HashMap<>();
        env.put("ORDERS_HTTP_HOST", "127.0.0.1");
        env.put("ORDERS_HTTP_PORT", Integer.toString(port));
        env.put("ORDERS_HTTP_INSTANCES", "2");
        env.put("ORDERS_JOURNAL_DIR", dir.resolve("journal").toString());
        env.put("ORDERS_AUDIT_DIR", dir.resolve("audit").toString());
        env.put("ORDERS_PERSISTENCE_SPOOL_DIR", dir.resolve("spool").toString());
        env.put("ORDERS_JOURNAL_SYNC", "none");
        env.put("ORDERS_INPUT_RING_SIZE", "1024");
        env.put("ORDERS_OUTPUT_RING_SIZE", "4096");
        env.put("ORDERS_DB_URL", "");
        env.put("ORDERS_AUTH", "none");   // tests of authentication turn it on; the others name their accounts
        // tests read a counter right after what moves it; the cached rendering is tested where it is the subject
        env.put("ORDERS_HTTP_METRICS_CACHE_MILLIS", "0");
        env.putAll(overrides);
        final Config config = ConfigLoader.load(env);
        final OrderEntryService service = new OrderEntryService(config);
        service.start();
        return new RunningService(service, port, config.journal().directory());
    }

    public int port() {
        return port;
    }

    public Path journalDir() {
        return journalDir;
    }

    public OrderEntryService service() {
        return service;
    }

    public ApiClient client() {
        return new ApiClient(port);
    }

    @Override
    public void close() {
        service.stop();
    }
}
