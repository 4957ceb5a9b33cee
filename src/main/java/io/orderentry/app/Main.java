package io.orderentry.app;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Entry point of {@code java -jar order-entry.jar}: loads the configuration, starts the service and
 * stops it cleanly on SIGTERM or Ctrl-C: refuse new orders (503), drain both rings, close (fsync) the
 * journal, close the server, exit 0. A bad configuration exits with status 2 and one clear line; a
 * failed startup (for example a corrupt journal) with status 1.
 */
public final class Main {

    private static final Logger LOG = LoggerFactory.getLogger(Main.class);

    private Main() {
    }

    public static void main(final String[] args) {
        final Config config;
        try {
            config = ConfigLoader.load();
        } catch (final ConfigException e) {
            LOG.error("invalid configuration: {}", e.getMessage());
            System.exit(2);
            return;
        }
        final OrderEntryService service = new OrderEntryService(config);
        try {
            service.start();
        } catch (final RuntimeException e) {
            LOG.error("startup failed: {}", e.getMessage(), e);
            service.stop();
            System.exit(1);
            return;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            service.stop();
            Runtime.getRuntime().halt(0);
        }, "shutdown"));
    }
}
