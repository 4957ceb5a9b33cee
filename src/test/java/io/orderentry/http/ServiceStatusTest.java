package io.orderentry.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** What makes /health DOWN: only states a restart is needed to leave. */
class ServiceStatusTest {

    @Test
    void healthIsDownOnlyForStatesThatNeedARestart() {
        final ServiceStatus status = new ServiceStatus();
        final AtomicBoolean journalWritable = new AtomicBoolean(false);
        status.journalFailure(() -> journalWritable.get() ? null : "java.io.IOException: No space left on device");
        assertNull(status.unrecoverable(), "recovering is not a reason to restart, whatever the journal says");
        status.phase(ServiceStatus.Phase.READY);
        assertEquals("the journal cannot write: java.io.IOException: No space left on device", status.unrecoverable());
        journalWritable.set(true);
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
