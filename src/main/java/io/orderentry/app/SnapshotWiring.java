package io.orderentry.app;

import io.orderentry.cluster.EngineService;
import io.orderentry.journal.JournalManifest;
import io.orderentry.journal.JournalWriter;
import io.orderentry.ops.HealthComponent;
import io.orderentry.ops.MetricsText;
import io.orderentry.ops.ServiceStatus;
import io.orderentry.snapshot.SnapshotConfig;
import io.orderentry.snapshot.SnapshotStore;
import io.orderentry.snapshot.Snapshotter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts the single node's snapshot writer ({@link Snapshotter}) into the service: starts it once the journal is open,
 * takes one on {@code POST /admin/snapshot}, registers its {@code snapshots} part in {@code /ready} and its figures in
 * {@code /metrics} (in cluster mode the cluster's, which live in Aeron's archive), and closes it at stop, after the
 * journal, so that its last snapshot covers every journaled command.
 *
 * <p>Threads: starting, registering and closing on the service's main thread (or the stopping one); the writer on
 * threads of its own; {@link #request} on an event loop.
 */
final class SnapshotWiring {

    /** The service's logger: its lines keep the name the logs have always shown. */
    private static final Logger LOG = LoggerFactory.getLogger(OrderEntryService.class);

    private final Config config;
    private final ServiceStatus status;
    private final MetricsText metrics;
    private Snapshotter snapshotter;

    SnapshotWiring(final Config config, final ServiceStatus status, final MetricsText metrics) {
        this.config = config;
        this.status = status;
        this.metrics = metrics;
    }

    /** @return what snapshots of a service with this configuration hold, and how to check one against it */
    static Snapshotter.Layout layout(final Config config) {
        final Map<String, String> entries = JournalManifest.entries(config.instruments(), config.engine());
        return new Snapshotter.Layout(config.symbols(), entries,
                recorded -> JournalManifest.differences(recorded, entries), config.engine(),
                config.query().retainedFinalOrders(), config.marketData(),
                HeapSizing.fits(config, Runtime.getRuntime().maxMemory()));
    }

    /** Starts the snapshot writer, which follows the journal with a copy of the state (see {@link Snapshotter}). */
    void start(final Map<String, Integer> symbolIndex, final LongSupplier journaled, final LongSupplier persisted) {
        final SnapshotConfig snapshots = config.snapshots();
        if (!snapshots.enabled()) {
            return;
        }
        snapshotter = new Snapshotter(snapshots, layout(config), config.journal().directory(), symbolIndex,
                journaled, persisted);
        snapshotter.start();
        LOG.info("snapshots: in {}, every {} commands{}, {} kept{}", snapshots.directory().toAbsolutePath().normalize(),
                snapshots.everyCommands() == 0 ? "(off)" : snapshots.everyCommands(),
                snapshots.intervalMillis() == 0 ? "" : " or " + snapshots.intervalMillis() / 1000 + " s",
                snapshots.keep(), snapshots.onShutdown() ? ", and at a graceful stop" : "");
    }

    /**
     * Registers the {@code snapshots} part of {@code /ready} and the figures: the cluster's when {@code cluster} is
     * not null, else the writer's ({@code journal} is the single node's, for the replica's lag).
     */
    void register(final EngineService cluster, final JournalWriter journal) {
        if (cluster != null) {
            // the cluster's snapshots live in Aeron's archive; this member knows the newest it wrote or loaded
            status.addComponent(() -> HealthComponent.informational("snapshots", true,
                    Map.of("kind", "cluster", "lastCommandSequence", cluster.snapshotCommand())));
            metrics.gauge("orders_snapshot_last_sequence", "Command sequence of the newest cluster snapshot this member"
                    + " wrote or loaded (0: none)", cluster::snapshotCommand);
            return;
        }
        final Snapshotter writer = snapshotter;
        if (writer == null) {
            status.addComponent(() -> HealthComponent.informational("snapshots", false,
                    Map.of("state", "DISABLED", "reason", "ORDERS_SNAPSHOT_ENABLED=false")));
            return;
        }
        status.addComponent(() -> {
            final Map<String, Object> details = new LinkedHashMap<>();
            details.put("lastJournalSequence", writer.lastSequence());
            details.put("written", writer.written());
            details.put("failedWrites", writer.failedWrites());
            if (writer.failure() != null) {
                details.put("failure", writer.failure());
            }
            return HealthComponent.informational("snapshots", writer.failure() == null, details);
        });
        metrics.gauge("orders_snapshot_last_sequence", "Journal sequence of the newest snapshot this process wrote or"
                + " follows from (-1: none yet)", writer::lastSequence);
        metrics.counter("orders_snapshots_written_total", "Snapshots written since start", writer::written);
        metrics.counter("orders_snapshot_failed_writes_total", "Snapshot writes that failed since start",
                writer::failedWrites);
        metrics.counter("orders_snapshot_failed_retentions_total", "Removals of old snapshots or journal segments that"
                + " failed since start, or removed no segment because a kept snapshot could not be read",
                writer::failedRetentions);
        metrics.gauge("orders_snapshot_last_write_seconds", "How long the newest snapshot took to write",
                () -> writer.lastWriteMillis() / 1e3);
        metrics.gauge("orders_snapshot_last_bytes", "Size of the newest snapshot written", writer::lastBytes);
        metrics.gauge("orders_snapshot_replica_lag_records", "Journaled records the snapshot writer's replica has not"
                + " applied yet (it runs at the lowest CPU priority; -1 while it loads)",
                () -> writer.followedSequence() < 0 ? -1 : Math.max(0, journal.lastSequence() - writer.followedSequence()));
        metrics.gauge("orders_snapshot_failed", "1 once snapshots stopped on an error (until a restart)",
                () -> writer.failure() == null ? 0 : 1);
    }

    /** What {@code POST /admin/snapshot} does on a single node. */
    CompletionStage<Map<String, Object>> request() {
        final Snapshotter writer = snapshotter;
        if (writer == null) {
            return CompletableFuture.failedFuture(new IllegalStateException(config.snapshots().enabled()
                    ? "the service is not ready" : "snapshots are disabled (ORDERS_SNAPSHOT_ENABLED=false)"));
        }
        return writer.request().thenApply(file -> {
            final Map<String, Object> body = new LinkedHashMap<>();
            body.put("file", file.toAbsolutePath().normalize().toString());
            body.put("journalSequence", SnapshotStore.sequenceOf(file));
            try {
                body.put("bytes", Files.size(file));
            } catch (final IOException e) {
                throw new UncheckedIOException(e);
            }
            return body;
        });
    }

    /** Stops the writer, waiting at most {@code millis} for its last snapshot. */
    void close(final long millis) {
        if (snapshotter != null) {
            snapshotter.close(millis);
        }
    }
}
