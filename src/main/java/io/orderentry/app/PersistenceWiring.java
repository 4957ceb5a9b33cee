package io.orderentry.app;

import com.lmax.disruptor.EventHandler;
import io.orderentry.ops.HealthComponent;
import io.orderentry.ops.MetricsText;
import io.orderentry.ops.ServiceStatus;
import io.orderentry.persistence.PersistenceMetrics;
import io.orderentry.persistence.PersistenceService;
import io.orderentry.persistence.PersistenceWriter;
import io.orderentry.pipeline.EngineEvent;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts {@link PersistenceService} into the service: its stage on the output ring beside the order view,
 * its parts in {@code /ready} and its figures in {@code /metrics}. With persistence disabled (an empty
 * {@code db.url}) every method does nothing except report the database as disabled.
 *
 * <p>{@code /ready} names two parts, {@code database} and {@code persistence}. Neither makes the service
 * not ready: order entry works without the database, which catches up when it returns.
 *
 * <p>Threads: opening, starting and stopping on the service's main thread; in cluster mode {@code lead} on the
 * cluster's service thread and {@code snapshotHold} on the snapshot timer's or an admin request's. All of them, and
 * the registered suppliers (on event loops), only hand over or read volatile figures.
 */
final class PersistenceWiring {

    private static final Logger LOG = LoggerFactory.getLogger(PersistenceWiring.class);

    private final PersistenceService persistence;

    private PersistenceWiring(final PersistenceService persistence) {
        this.persistence = persistence;
    }

    /** Opens persistence (before the journal is replayed) and registers its health parts and metrics. */
    static PersistenceWiring open(final Config config, final ServiceStatus status, final MetricsText metrics) {
        if (config.database().isEmpty()) {
            LOG.info("persistence: disabled (db.url/ORDERS_DB_URL is empty)");
            status.addComponent(() -> HealthComponent.informational("database", false,
                    Map.of("state", "DISABLED", "reason", "db.url is empty")));
            return new PersistenceWiring(null);
        }
        final PersistenceService persistence = PersistenceService.open(config.database().get(), config.instruments(),
                config.engine().risk(), config.cluster().isPresent());
        register(persistence, status, metrics);
        return new PersistenceWiring(persistence);
    }

    /** @return the persistence stage for the output ring (it gates no other stage), or null when disabled */
    EventHandler<EngineEvent> stage() {
        return persistence == null ? null : persistence.stage();
    }

    /**
     * @return the event sequence up to which the database holds every event, as known at open; replay must give the
     *         persistence stage every event above it. Long.MAX_VALUE when persistence is disabled (it needs none), -1
     *         when the database did not answer at open.
     */
    long knownPersistedThrough() {
        return persistence == null ? Long.MAX_VALUE : persistence.knownPersistedThrough();
    }

    /** @return the event sequence up to which the database holds every event now; Long.MAX_VALUE when disabled */
    long persistedSequence() {
        return persistence == null ? Long.MAX_VALUE : persistence.persistedSequence();
    }

    /** Lets the writer write, once the journal has been replayed up to {@code lastEventSequence}. */
    void start(final long lastEventSequence) {
        if (persistence != null) {
            persistence.start(lastEventSequence);
        }
    }

    /** Cluster mode: this member leads (its writer writes) or follows (its writer follows the database's mark). */
    void lead(final boolean leads) {
        if (persistence != null) {
            persistence.lead(leads);
        }
    }

    /**
     * Cluster mode: why a cluster snapshot must wait. Every member loads the newest snapshot and replays only the log
     * after it, so a member restarted from a snapshot newer than the database's high-water mark has no events for the
     * rows in between; the database must hold (nearly) everything when the snapshot is taken.
     *
     * @return null when the database is disabled, or UP and at most {@link #SNAPSHOT_LAG_MILLIS} behind; else why not
     */
    String snapshotHold() {
        if (persistence == null) {
            return null;
        }
        if (persistence.state() != PersistenceWriter.State.UP) {
            return "the database is " + persistence.state() + (persistence.lastError() == null ? ""
                    : " (" + persistence.lastError() + ")");
        }
        final long lag = persistence.lagMillis();
        return lag <= SNAPSHOT_LAG_MILLIS ? null : "the database is " + lag + " ms (" + persistence.lagEvents()
                + " events) behind the engine";
    }

    /** The most a cluster snapshot lets the database lag behind: a few of its 100 ms batches. */
    static final long SNAPSHOT_LAG_MILLIS = 1_000;

    /** Stops persistence, waiting at most {@code waitMillis} for its writer (see {@link PersistenceService#stop(long)}). */
    void stop(final long waitMillis) {
        if (persistence != null) {
            persistence.stop(waitMillis);
        }
    }

    private static void register(final PersistenceService p, final ServiceStatus status, final MetricsText metrics) {
        status.addComponent(() -> {
            final Map<String, Object> details = new LinkedHashMap<>();
            details.put("state", p.state().name());
            details.put("url", p.databaseUrl());
            if (p.lastError() != null) {
                details.put("error", p.lastError());
            }
            return HealthComponent.informational("database", p.state() == PersistenceWriter.State.UP, details);
        });
        status.addComponent(() -> {
            final Map<String, Object> details = new LinkedHashMap<>();
            details.put("persistedSequence", p.persistedSequence());
            details.put("engineSequence", p.engineSequence());
            details.put("lagEvents", p.lagEvents());
            details.put("lagMillis", p.lagMillis());
            details.put("spoolBytes", p.spoolBytes());
            details.put("writing", p.writing());
            if (p.spoolFailure() != null) {
                details.put("spoolFailure", p.spoolFailure() + "; events after it reach PostgreSQL after the next"
                        + " start, which rebuilds the spool from the journal");
            }
            return HealthComponent.informational("persistence", p.state() != PersistenceWriter.State.FAILED
                    && p.spoolFailure() == null, details);
        });
        final PersistenceMetrics m = p.metrics();
        metrics.gauge("orders_persistence_database_up", "1 while the persistence writer is connected to PostgreSQL",
                () -> p.state() == PersistenceWriter.State.UP ? 1 : 0);
        metrics.gauge("orders_persistence_failed", "1 once persistence stopped on an error until restart",
                () -> p.state() == PersistenceWriter.State.FAILED ? 1 : 0);
        metrics.gauge("orders_persistence_writing", "1 while this service's writer writes to PostgreSQL (cluster mode:"
                + " the leader only; the others follow the high-water mark)", () -> p.writing() ? 1 : 0);
        metrics.gauge("orders_persistence_persisted_sequence", "High-water mark: last engine event in PostgreSQL",
                p::persistedSequence);
        metrics.gauge("orders_persistence_lag_events", "Engine events not yet in PostgreSQL", p::lagEvents);
        metrics.gauge("orders_persistence_lag_seconds", "Age of the oldest engine event not yet in PostgreSQL",
                () -> p.lagMillis() / 1e3);
        metrics.gauge("orders_persistence_spool_bytes", "Bytes of events waiting on local disk for PostgreSQL",
                p::spoolBytes);
        metrics.gauge("orders_persistence_spool_stopped", "1 once the spool stopped taking events (full, its disk"
                + " short of ORDERS_PERSISTENCE_SPOOL_MIN_FREE_BYTES, or a write failed): trading goes on, and the events"
                + " after it reach PostgreSQL only after the next start", () -> p.spoolFailure() == null ? 0 : 1);
        metrics.counter("orders_persistence_batches_total", "Batches committed to PostgreSQL", m::batches);
        metrics.counter("orders_persistence_events_total", "Events committed to PostgreSQL", m::events);
        metrics.counter("orders_persistence_batch_write_seconds_total", "Time spent writing committed batches",
                () -> m.writeNanos() / 1e9);
        metrics.gauge("orders_persistence_last_batch_events", "Events in the last committed batch",
                m::lastBatchEvents);
        metrics.gauge("orders_persistence_last_batch_write_seconds", "Write time of the last committed batch",
                () -> m.lastBatchNanos() / 1e9);
        metrics.gauge("orders_persistence_max_batch_write_seconds", "Longest batch write since start",
                () -> m.maxBatchNanos() / 1e9);
        metrics.gauge("orders_persistence_max_batch_events", "Configured most events per batch", p::batchSize);
        metrics.counter("orders_persistence_failures_total", "Failed connection attempts and batch writes",
                m::failures);
        metrics.counter("orders_persistence_outages_total", "Times a working database went away", m::outages);
        metrics.counter("orders_persistence_catchups_total", "Backlogs written completely (after an outage or at"
                + " startup)", m::catchUps);
        metrics.gauge("orders_persistence_last_catchup_events", "Events written by the last catch-up",
                m::lastCatchUpEvents);
        metrics.gauge("orders_persistence_last_catchup_seconds", "Duration of the last catch-up",
                () -> m.lastCatchUpNanos() / 1e9);
    }
}
