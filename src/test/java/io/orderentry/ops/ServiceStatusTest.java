package io.orderentry.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** What makes /health DOWN: only states a restart is needed to leave. */
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
}
