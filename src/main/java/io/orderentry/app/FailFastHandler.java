package io.orderentry.app;

import com.lmax.disruptor.ExceptionHandler;
import io.orderentry.ops.ServiceStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place exceptions from ring stages go. An exception in a stage is a bug: the stage's state
 * can no longer be trusted, so the service stops accepting (503) and the process exits. The journal
 * holds every acknowledged command, so a restart rebuilds a consistent state.
 */
final class FailFastHandler<T> implements ExceptionHandler<T> {

    private static final Logger LOG = LoggerFactory.getLogger(FailFastHandler.class);

    private final String ring;
    private final ServiceStatus status;
    private final Runnable stopProcess;

    FailFastHandler(final String ring, final ServiceStatus status, final Runnable stopProcess) {
        this.ring = ring;
        this.status = status;
        this.stopProcess = stopProcess;
    }

    @Override
    public void handleEventException(final Throwable ex, final long sequence, final T event) {
        LOG.error("stage on the {} ring failed at ring sequence {} ({}); refusing orders and stopping", ring,
                sequence, event, ex);
        status.fail(ring + " ring stage failed at sequence " + sequence + ": " + ex);
        stopProcess.run();
        throw new IllegalStateException("stopping the " + ring + " ring after a failure", ex);
    }

    @Override
    public void handleOnStartException(final Throwable ex) {
        LOG.error("a stage on the {} ring failed to start", ring, ex);
        status.fail(ring + " ring stage failed to start: " + ex);
        stopProcess.run();
    }

    @Override
    public void handleOnShutdownException(final Throwable ex) {
        LOG.error("a stage on the {} ring failed while shutting down", ring, ex);
    }
}
