package io.orderentry.app;

import io.orderentry.journal.JournalStage;
import io.orderentry.journal.JournalRecovery;
import io.orderentry.journal.JournalWriter;
import io.orderentry.ops.HealthComponent;
import io.orderentry.ops.MetricsText;
import io.orderentry.ops.ServiceStatus;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts the journal's writer into a single-node service: opens it where recovery ended, registers its {@code journal}
 * part in {@code /ready} and its figures in {@code /metrics}, and closes it at stop. (Cluster mode has no journal: the
 * cluster's log takes its place.)
 *
 * <p>Threads: opening, registering and closing on the service's main thread (or the stopping one); the writer itself
 * runs on {@code oe-journal}; the registered suppliers on event loops, reading its volatile figures.
 */
final class JournalWiring {

    /** The service's logger: its lines keep the name the logs have always shown. */
    private static final Logger LOG = LoggerFactory.getLogger(OrderEntryService.class);

    private final Config config;
    private final ServiceStatus status;
    private final MetricsText metrics;
    private final JournalWriter journal;

    private JournalWiring(final Config config, final ServiceStatus status, final MetricsText metrics,
                          final JournalWriter journal) {
        this.config = config;
        this.status = status;
        this.metrics = metrics;
        this.journal = journal;
    }

    /** Opens the journal for writing after the records {@code recovery} read. */
    static JournalWiring open(final Config config, final ServiceStatus status, final MetricsText metrics,
                              final List<String> symbols, final JournalRecovery recovery) throws IOException {
        return new JournalWiring(config, status, metrics, JournalWriter.open(config.journal(),
                symbols.toArray(String[]::new), recovery));
    }

    JournalWriter writer() {
        return journal;
    }

    /** Registers the {@code journal} part of {@code /ready} and the writer's figures. */
    void register() {
        status.addComponent(() -> {
            final Map<String, Object> details = new LinkedHashMap<>();
            details.put("lastSequence", journal.lastSequence());
            details.put("sync", config.journal().sync().name());
            if (journal.failure() != null) {
                details.put("failure", journal.failure().toString());
            }
            return new HealthComponent("journal", journal.isHealthy(), details);
        });
        metrics.gauge("orders_journal_last_sequence", "Last journaled command sequence", journal::lastSequence);
        metrics.counter("orders_journal_records_total", "Records written to the journal since start",
                journal::recordsWritten);
        metrics.counter("orders_journal_flushes_total", "Journal flushes (group commits) since start; records per"
                + " flush is the batch size", journal::flushes);
        metrics.counter("orders_journal_fsync_seconds_total", "Time spent in fsync since start",
                () -> journal.totalForceNanos() / 1e9);
        metrics.gauge("orders_journal_last_fsync_seconds", "Duration of the latest fsync",
                () -> journal.lastForceNanos() / 1e9);
    }

    /** Registers the commands the journal's stage could not encode; last of the start's figures, as it always was. */
    void registerRejections(final JournalStage handler) {
        metrics.counter("orders_journal_rejected_commands_total", "Commands the journal could not encode (answered 503)",
                handler::rejectedCommands);
    }

    /** Closes the writer, logging where the journal ends. */
    void close() {
        try {
            journal.close();
            LOG.info("journal closed at sequence {}", journal.lastSequence());
        } catch (final IOException e) {
            LOG.error("closing the journal failed", e);
        }
    }
}
