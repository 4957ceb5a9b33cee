package io.orderentry.app;

import io.orderentry.audit.AuditVerifyCommand;
import io.orderentry.auth.KeysCommand;
import io.orderentry.auth.KeysFile;
import io.orderentry.config.ConfigException;
import io.orderentry.snapshot.SnapshotStore;
import io.orderentry.snapshot.VerifySnapshotCommand;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Entry point of {@code java -jar order-entry.jar}: loads the configuration, starts the service and
 * stops it cleanly on SIGTERM or Ctrl-C: refuse new orders (503), drain both rings, close (fsync) the
 * journal, close the server, exit 0. A bad configuration exits with status 2 and one clear line; a
 * failed startup (for example a corrupt journal) with status 1.
 *
 * <p>Commands: {@code audit-verify [dir]} checks the audit trail's hash chain (in {@code dir}, else the
 * configured {@code audit.dir}) and exits 0 when intact, 1 when broken, 2 when it cannot be read;
 * {@code verify-snapshot [dir]} replays the journal up to the newest snapshot (in {@code dir}, else the configured
 * {@code snapshot.dir}) and exits 0 when the states are equal, 1 with the first difference, 2 when it cannot.
 */
public final class Main {

    private static final Logger LOG = LoggerFactory.getLogger(Main.class);

    private Main() {
    }

    public static void main(final String[] args) {
        if (args.length > 0) {
            System.exit(command(args));
            return;
        }
        // before loading, so that a misspelt variable is named even when the value it left at its default fails
        for (final String unknown : ConfigLoader.unknownVariables(System.getenv())) {
            LOG.warn(unknown);
        }
        final Config config;
        try {
            config = ConfigLoader.load();
        } catch (final ConfigException e) {
            LOG.error("invalid configuration: {}", e.getMessage());
            System.exit(2);
            return;
        }
        final OrderEntryService service = new OrderEntryService(config);
        final Thread stopper = new Thread(() -> {
            service.stop();
            Runtime.getRuntime().halt(0);
        }, "shutdown");
        Runtime.getRuntime().addShutdownHook(stopper);   // before the replay, so a SIGTERM during it stops cleanly too
        try {
            service.start();
        } catch (final StoppedDuringStart e) {
            return;   // the shutdown hook stops what recovery opened and exits
        } catch (final ConfigException e) {
            LOG.error("invalid configuration: {}", e.getMessage());
            exitAfterFailedStart(service, stopper, 2);
        } catch (final RuntimeException e) {
            LOG.error("startup failed: {}", e.getMessage(), e);
            exitAfterFailedStart(service, stopper, 1);
        }
    }

    /** Stops what the failed start opened and exits with {@code status} (the hook would exit with 0). */
    private static void exitAfterFailedStart(final OrderEntryService service, final Thread hook, final int status) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (final IllegalStateException shuttingDown) {
            return;   // a SIGTERM came first: the hook is stopping the service
        }
        service.stop();
        System.exit(status);
    }

    private static int command(final String[] args) {
        final boolean keys = args[0].equals("keys");
        final boolean audit = args[0].equals("audit-verify");
        final boolean snapshot = args[0].equals("verify-snapshot");
        if (!keys && (!audit && !snapshot || args.length > (audit ? 3 : 2))) {
            System.err.println("usage: java -jar order-entry.jar                         start the service");
            System.err.println("       java -jar order-entry.jar audit-verify [dir [archive-dir]]   verify the audit trail");
            System.err.println("       java -jar order-entry.jar verify-snapshot [dir]   check the newest snapshot against"
                    + " a replay of the journal");
            System.err.println("       java -jar order-entry.jar keys create|list|revoke ...   manage API keys");
            return 2;
        }
        if (audit && args.length >= 2) {
            return AuditVerifyCommand.run(Path.of(args[1]), args.length == 3 ? Path.of(args[2]) : null, System.out,
                    System.err);
        }
        final Config config;
        try {
            config = ConfigLoader.load();
        } catch (final ConfigException e) {
            System.err.println("invalid configuration: " + e.getMessage());
            return 2;
        }
        if (keys) {
            return KeysCommand.run(java.util.Arrays.asList(args).subList(1, args.length),
                    new KeysFile(config.auth().keysFile()), System.out, System.err);
        }
        if (audit) {
            return AuditVerifyCommand.run(config.audit().directory(), config.audit().archive(), System.out,
                    System.err);
        }
        final SnapshotStore store = new SnapshotStore(args.length == 2 ? Path.of(args[1])
                : config.snapshots().directory(), config.snapshots().keep());
        return VerifySnapshotCommand.run(store, SnapshotWiring.layout(config), config.journal().directory(),
                config.snapshots().archive(), SingleNodeRecovery.symbolIndex(config), System.out, System.err);
    }
}
