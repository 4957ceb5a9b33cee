package io.orderentry.app;

import io.orderentry.audit.AuditArchiver;
import io.orderentry.audit.AuditFiles;
import io.orderentry.audit.AuditStage;
import io.orderentry.audit.AuditConfig;
import io.orderentry.audit.AuditTrail;
import io.orderentry.http.rest.InputGateway;
import io.orderentry.journal.WallClock;
import io.orderentry.ops.HealthComponent;
import io.orderentry.ops.MetricsText;
import io.orderentry.ops.ServiceStatus;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts the audit trail into the service: opens it (first of all at start, since recovery asks it what it lacks),
 * archives its old files every hour with {@code ORDERS_AUDIT_RETENTION_DAYS} set, registers its {@code audit} part in
 * {@code /ready} and its figures in {@code /metrics}, and closes it at stop.
 *
 * <p>Threads: opening, registering and closing on the service's main thread (or the stopping one); the archiving on
 * {@code oe-audit-archive}; the registered suppliers on event loops, reading the trail's volatile figures.
 */
final class AuditWiring {

    /** The service's logger: its lines keep the name the logs have always shown. */
    private static final Logger LOG = LoggerFactory.getLogger(OrderEntryService.class);

    private final Config config;
    private final ServiceStatus status;
    private final MetricsText metrics;
    private final AuditTrail trail;
    private ScheduledExecutorService archiving;
    private final AtomicLong filesArchived = new AtomicLong();
    private final AtomicLong archiveFailures = new AtomicLong();

    private AuditWiring(final Config config, final ServiceStatus status, final MetricsText metrics,
                        final AuditTrail trail) {
        this.config = config;
        this.status = status;
        this.metrics = metrics;
        this.trail = trail;
    }

    /** Opens the trail, first of all at start: recovery asks it which commands it lacks. */
    static AuditWiring open(final Config config, final ServiceStatus status, final MetricsText metrics)
            throws IOException {
        return new AuditWiring(config, status, metrics, AuditTrail.open(config.audit(), WallClock::currentTimeMicros));
    }

    AuditTrail trail() {
        return trail;
    }

    /**
     * With {@code ORDERS_AUDIT_RETENTION_DAYS} set, archives the audit files older than that at start and every hour
     * after (see {@link AuditArchiver}); the newest file, which the trail appends to, is never touched.
     */
    void startArchiving() {
        final AuditConfig audit = config.audit();
        if (audit.retentionDays() == 0) {
            return;
        }
        final AuditArchiver archiver = new AuditArchiver(audit.directory(), audit.archive());
        archiving = Executors.newSingleThreadScheduledExecutor(ServiceThreads.daemon("oe-audit-archive"));
        archiving.scheduleWithFixedDelay(() -> {
            final long today = AuditFiles.epochDay(WallClock.currentTimeMicros());
            try {
                final List<Path> archived = archiver.archiveBefore(today - audit.retentionDays());
                filesArchived.addAndGet(archived.size());
                if (!archived.isEmpty()) {
                    LOG.info("audit: archived {} file(s) older than {} day(s) to {}: {} .. {}", archived.size(),
                            audit.retentionDays(), audit.archive(), archived.get(0).getFileName(),
                            archived.get(archived.size() - 1).getFileName());
                }
            } catch (final IOException | RuntimeException e) {
                archiveFailures.incrementAndGet();
                LOG.error("audit: archiving old audit files failed; they stay in {} and are tried again in an hour",
                        config.audit().directory(), e);
            }
        }, 0, 1, TimeUnit.HOURS);
        metrics.counter("orders_audit_files_archived_total", "Audit files moved to the archive since start",
                filesArchived::get);
        metrics.counter("orders_audit_archive_failures_total", "Audit archiving runs that failed since start",
                archiveFailures::get);
    }

    /** Registers the {@code audit} part of {@code /ready} and the trail's figures, the edge's refusals among them. */
    void register(final AuditStage audit, final InputGateway gateway) {
        final AuditTrail auditTrail = trail;
        status.addComponent(() -> new HealthComponent("audit", auditTrail.isHealthy() && status.auditFailure() == null,
                Map.of("lastSeq", auditTrail.lastSeq(), "sync", config.audit().sync().name(),
                "file", String.valueOf(auditTrail.currentFile()), "pendingRecords", auditTrail.pendingRecords(),
                "resumable", auditTrail.resumable(),
                "failure", status.auditFailure() == null ? "none" : status.auditFailure())));
        metrics.gauge("orders_audit_last_seq", "Seq of the last audit record written", auditTrail::lastSeq);
        metrics.counter("orders_audit_records_total", "Audit records written since start", auditTrail::recordsWritten);
        metrics.counter("orders_audit_unwritten_total", "Audit records lost to the trail (each logged): the trail could"
                + " not keep them for a retry", auditTrail::unwrittenRecords);
        metrics.gauge("orders_audit_pending_records", "Audit records kept in memory while the trail cannot write",
                auditTrail::pendingRecords);
        metrics.counter("orders_audit_recovered_total", "Journaled commands audited at startup because the trail lacked"
                + " them; in cluster mode also every command of another member's", audit::recoveredRecords);
        metrics.counter("orders_audit_refusals_dropped_total",
                "Edge refusals answered but not audited (input ring half full)", gateway::refusalsDropped);
        metrics.counter("orders_audit_refusals_suppressed_total", "Refusals answered beyond"
                + " ORDERS_AUDIT_REFUSALS_PER_SECOND in all or its tenth per address, recorded only in a summary record", gateway::refusalsSuppressed);
        metrics.gauge("orders_audit_up", "1 while the audit trail can write", () -> auditTrail.isHealthy() ? 1 : 0);
    }

    /** Closes the trail, logging where it ends. */
    void close() {
        try {
            trail.close();
            LOG.info("audit trail closed at record {}", trail.lastSeq());
        } catch (final IOException e) {
            LOG.error("closing the audit trail failed", e);
        }
    }

    void stopArchiving() {
        if (archiving != null) {
            archiving.shutdownNow();
        }
    }
}
