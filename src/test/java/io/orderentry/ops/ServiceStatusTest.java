package io.orderentry.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** What makes /health DOWN: only states a restart is needed to leave; what makes /ready (and orders_ready) 503. */
class ServiceStatusTest {

    @Test
    void healthIsDownOnlyForStatesThatNeedARestart() {
        final ServiceStatus status = new ServiceStatus();
        assertNull(status.unrecoverable(), "recovering is not a reason to restart");
        status.phase(ServiceStatus.Phase.READY);
        assertNull(status.unrecoverable());
        status.phase(ServiceStatus.Phase.STOPPING);
        assertNull(status.unrecoverable(), "a graceful stop is not a failure");
        status.phase(ServiceStatus.Phase.READY);
        status.auditFailed("No space left on device", true);
        assertNull(status.unrecoverable(), "an audit trail that retries by itself is not a reason to restart");
        status.auditResumed();
        assertNull(status.auditFailure());
        status.auditFailed("No space left on device", true);
        status.auditFailed("records lost", false);
        assertEquals("the audit trail cannot go on before a restart: records lost", status.unrecoverable());
        status.auditResumed();
        assertEquals("No space left on device", status.auditFailure(), "a trail that lost records stays failed");
        status.fail("output ring stage failed");
        assertEquals("output ring stage failed", status.unrecoverable());
    }

    @Test
    void readyOnlyOnceRecoveredAndWhileEveryRequiredPartIsUpWhateverAnInformationalPartSays() {
        final ServiceStatus status = new ServiceStatus();
        final AtomicBoolean journal = new AtomicBoolean(true);
        final AtomicBoolean database = new AtomicBoolean(false);
        status.addComponent(() -> new HealthComponent("journal", journal.get(), Map.of()));
        status.addComponent(() -> HealthComponent.informational("database", database.get(), Map.of()));
        assertFalse(status.ready(), "recovering");
        status.phase(ServiceStatus.Phase.READY);
        assertTrue(status.ready(), "a database that is down does not stop order entry");
        journal.set(false);
        assertFalse(status.ready(), "a journal that cannot write does");
        journal.set(true);
        assertTrue(status.ready(), "and it is ready again once the journal writes");
        status.phase(ServiceStatus.Phase.STOPPING);
        assertFalse(status.ready(), "stopping");
        status.fail("output ring stage failed");
        assertFalse(status.ready(), "failed");
    }
}
