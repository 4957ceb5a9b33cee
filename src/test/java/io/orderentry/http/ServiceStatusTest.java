package io.orderentry.http;

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
        status.auditFailed("No space left on device");
        assertEquals("the audit trail cannot write: No space left on device", status.unrecoverable());
        status.fail("output ring stage failed");
        assertEquals("output ring stage failed", status.unrecoverable());
    }
}
