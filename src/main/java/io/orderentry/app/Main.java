package io.orderentry.app;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Entry point of {@code java -jar order-entry.jar}: loads the configuration, starts the service and
 * stops it cleanly on SIGTERM or Ctrl-C. A bad configuration exits with status 2 and one clear line.
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
        Runtime.getRuntime().addShutdownHook(new Thread(service::stop, "shutdown"));
        try {
            service.start();
        } catch (final RuntimeException e) {
            LOG.error("startup failed: {}", e.getMessage(), e);
            System.exit(1);
        }
    }
}
