package io.orderentry.ops;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The lifecycle phase of the service and the parts {@code /ready} reports. The phase is set by the
 * startup and shutdown code on the main thread; event loops read it to refuse order traffic while the
 * service is not {@link Phase#READY}.
 */
public final class ServiceStatus {

    /** Where the service is in its life. */
    public enum Phase {
        /** Replaying the journal; orders are refused with 503. */
        RECOVERING,
        /** Accepting orders. */
        READY,
        /** Shutting down; orders are refused with 503. */
        STOPPING,
        /** A stage failed; orders are refused with 503 until restart. */
        FAILED
    }

    private volatile Phase phase = Phase.RECOVERING;
    private volatile String failure;
    private volatile String auditFailure;
    private volatile String auditLost;
    private final List<Supplier<HealthComponent>> components = new CopyOnWriteArrayList<>();
    private final AtomicInteger waitingRequests = new AtomicInteger();
    private final AtomicLong answersTimedOut = new AtomicLong();
    private final AtomicLong lateAnswers = new AtomicLong();

    /** @return the current phase */
    public Phase phase() {
        return phase;
    }

    /** Moves to a new phase; FAILED is final. */
    public void phase(final Phase next) {
        if (phase != Phase.FAILED) {
            phase = next;
        }
    }

    /** Moves to FAILED for good, keeping the reason for {@code /ready}. */
    public void fail(final String reason) {
        failure = reason;
        phase = Phase.FAILED;
    }

    /** @return why the service failed, or null */
    public String failure() {
        return failure;
    }

    /** Adds a part to {@code /ready}; its supplier is called on an event loop and must not block. */
    public void addComponent(final Supplier<HealthComponent> component) {
        components.add(component);
    }

    /** Counts a request published into the input ring and now waiting for the engine's answer. */
    public void requestWaiting() {
        waitingRequests.incrementAndGet();
    }

    /** Counts a waiting request that was answered. */
    public void requestAnswered() {
        waitingRequests.decrementAndGet();
    }

    /** Cluster mode: counts a request answered 503 OUTCOME_UNKNOWN because its command did not come back in time. */
    public void answerTimedOut() {
        answersTimedOut.incrementAndGet();
    }

    /** Cluster mode: counts an engine answer that came after its request had been answered 503 OUTCOME_UNKNOWN. */
    public void lateAnswer() {
        lateAnswers.incrementAndGet();
    }

    /** @return requests answered 503 OUTCOME_UNKNOWN since start */
    public long answersTimedOut() {
        return answersTimedOut.get();
    }

    /** @return engine answers dropped because their request had timed out, since start */
    public long lateAnswers() {
        return lateAnswers.get();
    }

    /** @return requests published and not yet answered, across all event loops; shutdown waits for 0 */
    public int waitingRequests() {
        return waitingRequests.get();
    }

    /** @return every part's state now */
    public List<HealthComponent> components() {
        return components.stream().map(Supplier::get).toList();
    }

    /**
     * Marks the audit trail as unable to write: order entry answers 503 {@code AUDIT_UNAVAILABLE} until
     * {@link #auditResumed} (reads still work), and {@code /ready} reports it. Called on the audit thread; the first
     * reason stays.
     *
     * @param resumable false if the trail cannot write again before a restart: {@code /health} then says DOWN
     */
    public void auditFailed(final String reason, final boolean resumable) {
        if (auditFailure == null) {
            auditFailure = reason;
        }
        if (!resumable) {
            auditLost = reason;
        }
    }

    /** The audit trail writes again: order entry takes orders again. Called on the audit thread. */
    public void auditResumed() {
        if (auditLost == null) {
            auditFailure = null;
        }
    }

    /** @return why the audit trail cannot write, or null while it can; read on the event loops */
    public String auditFailure() {
        return auditFailure;
    }

    /**
     * @return what {@code /ready} answers: true (200) once the phase is {@link Phase#READY} and every part order entry
     *         depends on is up; calls each part's supplier, so an event loop or the scrape, never a stage thread
     */
    public boolean ready() {
        if (phase != Phase.READY) {
            return false;
        }
        for (final Supplier<HealthComponent> component : components) {
            if (component.get().holdsBackReadiness()) {
                return false;
            }
        }
        return true;
    }

    /**
     * @return why this process can no longer take orders and will not recover without a restart, or null while it
     *         can or may: a failed stage (FAILED), an audit trail that lost records and cannot go on. {@code /health}
     *         answers DOWN with it, so that an orchestrator restarts the process; a journal or audit trail that cannot
     *         write for now (each retries by itself), a database that is down, or a service that is still recovering
     *         or stopping, is not such a reason.
     */
    public String unrecoverable() {
        if (phase == Phase.FAILED) {
            return failure;
        }
        return auditLost == null ? null : "the audit trail cannot go on before a restart: " + auditLost;
    }
}
