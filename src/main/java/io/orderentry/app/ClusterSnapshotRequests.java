package io.orderentry.app;

import io.aeron.cluster.ClusterTool;
import io.aeron.cluster.service.Cluster;
import io.orderentry.cluster.ClusterConfig;
import io.orderentry.cluster.EngineService;
import io.orderentry.ops.ServiceStatus;
import io.orderentry.snapshot.SnapshotConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cluster snapshots as this member asks for them: periodically ({@link #start}), when it leads, and on
 * {@code POST /admin/snapshot} ({@link #request}); the cluster then takes one at the same log position on every member.
 *
 * <p>Threads: {@link #start} and {@link #stop} on the service's main (or stopping) thread; the periodic check on
 * {@code oe-cluster-snapshots}; a request on {@code oe-cluster-snapshot-request}.
 */
final class ClusterSnapshotRequests {

    /** The service's logger: its lines keep the name the logs have always shown. */
    private static final Logger LOG = LoggerFactory.getLogger(OrderEntryService.class);

    private final Config config;
    private final ClusterConfig settings;
    private final ServiceStatus status;
    private final PersistenceWiring persistence;
    private final Supplier<EngineService> service;
    private ScheduledExecutorService timer;

    /** @param service the engine as the cluster's service; null until the member joined */
    ClusterSnapshotRequests(final Config config, final ClusterConfig settings, final ServiceStatus status,
                            final PersistenceWiring persistence, final Supplier<EngineService> service) {
        this.config = config;
        this.settings = settings;
        this.status = status;
        this.persistence = persistence;
        this.service = service;
    }

    /**
     * Snapshots by count and by time, as a single node writes them ({@code ORDERS_SNAPSHOT_EVERY_COMMANDS},
     * {@code ORDERS_SNAPSHOT_INTERVAL_SECONDS}): each member checks once a second, and the one that leads asks the
     * cluster for one, which every member then takes at the same log position.
     */
    void start() {
        final SnapshotConfig snapshots = config.snapshots();
        if (!snapshots.enabled() || snapshots.everyCommands() == 0 && snapshots.intervalMillis() == 0) {
            LOG.info("cluster: no periodic snapshots ({}); POST /admin/snapshot on the leader takes one",
                    snapshots.enabled() ? "every.commands and interval.seconds are 0" : "ORDERS_SNAPSHOT_ENABLED=false");
            return;
        }
        final EngineService service = this.service.get();
        final AtomicBoolean asked = new AtomicBoolean();
        final long[] lastAskedNanos = {System.nanoTime()};
        final String[] held = {null};
        timer = Executors.newSingleThreadScheduledExecutor(ServiceThreads.daemon("oe-cluster-snapshots"));
        timer.scheduleWithFixedDelay(() -> {
            if (service.role() != Cluster.Role.LEADER || asked.get()) {
                return;
            }
            final long since = service.appliedCommands() - service.snapshotCommand();
            final boolean byCount = snapshots.everyCommands() > 0 && since >= snapshots.everyCommands();
            final boolean byTime = snapshots.intervalMillis() > 0 && since > 0
                    && System.nanoTime() - lastAskedNanos[0] >= TimeUnit.MILLISECONDS.toNanos(snapshots.intervalMillis());
            if (!byCount && !byTime) {
                return;
            }
            final String hold = persistence.snapshotHold();
            if (hold != null) {
                if (!hold.equals(held[0])) {
                    LOG.info("cluster: the periodic snapshot waits: {}", hold);
                }
                held[0] = hold;
                return;
            }
            held[0] = null;
            asked.set(true);
            lastAskedNanos[0] = System.nanoTime();
            request().whenComplete((details, failure) -> {
                asked.set(false);
                if (failure != null) {
                    LOG.warn("cluster: the periodic snapshot ({} commands since the last) failed: {}", since,
                            failure.toString());
                }
            });
        }, 1, 1, TimeUnit.SECONDS);
        LOG.info("cluster: the leader asks for a snapshot every {} commands{}",
                snapshots.everyCommands() == 0 ? "(off)" : snapshots.everyCommands(),
                snapshots.intervalMillis() == 0 ? "" : " or " + snapshots.intervalMillis() / 1000 + " s");
    }

    /**
     * Cluster mode: asks the consensus module for a cluster snapshot (Aeron's control toggle, as its {@code ClusterTool
     * snapshot} does), which every member then takes at the same log position; only the leader's toggle counts.
     */
    CompletionStage<Map<String, Object>> request() {
        final EngineService service = this.service.get();
        if (service == null || status.phase() != ServiceStatus.Phase.READY) {
            return CompletableFuture.failedFuture(new IllegalStateException("the service is not ready"));
        }
        if (service.role() != Cluster.Role.LEADER) {
            return CompletableFuture.failedFuture(new IllegalStateException("only the cluster's leader takes a snapshot:"
                    + " ask the member whose /metrics has orders_cluster_leader 1"));
        }
        return CompletableFuture.supplyAsync(() -> {
            // the database's next batch is at most 100 ms away: wait for it a little before refusing
            final long holdDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
            String hold = persistence.snapshotHold();
            while (hold != null && System.nanoTime() < holdDeadline) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
                hold = persistence.snapshotHold();
            }
            if (hold != null) {
                throw new IllegalStateException("not now: " + hold + ". A member restarted from a cluster snapshot"
                        + " replays only the log after it, so the database must hold the events before it; try again"
                        + " once /ready's persistence lag is small");
            }
            final ByteArrayOutputStream said = new ByteArrayOutputStream();
            final boolean taken;
            try (PrintStream out = new PrintStream(said, true, StandardCharsets.UTF_8)) {
                taken = ClusterTool.snapshot(settings.directory().resolve("cluster").toAbsolutePath()
                        .toFile(), out);
            }
            final String text = said.toString(StandardCharsets.UTF_8).strip();
            if (!taken) {
                throw new IllegalStateException("the cluster did not take the snapshot: " + text);
            }
            final Map<String, Object> body = new LinkedHashMap<>();
            body.put("cluster", true);
            body.put("commandSequence", service.snapshotCommand());   // the snapshot's, taken by now
            body.put("detail", text);
            return body;
        }, task -> {
            // a thread of its own: the request waits for the database (up to 3 s) and for Aeron's answer, and is rare
            final Thread thread = new Thread(task, "oe-cluster-snapshot-request");
            thread.setDaemon(true);
            thread.start();
        });
    }

    /** Stops the periodic check. */
    void stop() {
        if (timer != null) {
            timer.shutdownNow();
        }
    }
}
