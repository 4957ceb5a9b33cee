package io.orderentry.account;

import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cancel-on-disconnect: {@code POST /api/v1/cancel-all-after}. An account arms it with a timeout and keeps refreshing
 * it; if a refresh does not come in time, every open order of the account is canceled by a cancel-all command published
 * through the input ring like a client's (journaled, executed by the matcher, recorded in the audit trail with cause
 * CANCEL_ALL_AFTER). The engine has no clock or timer; this is the only place that decides when.
 *
 * <p>This is the single node's switch; a cluster's is kept in the replicated log instead, one per account for the
 * whole cluster ({@code io.orderentry.cluster.ClusterSwitches}).
 *
 * <p>The deadlines are held in memory only: a restart disarms every switch (README, "Order operations"), as the
 * clients' refreshes re-arm them. A deadline is checked every {@value #CHECK_MILLIS} ms, so a switch fires at most
 * that late. When the input ring is full the cancel-all is retried at the next check.
 *
 * <p>Threads: {@link #arm} on any thread (the HTTP event loops); the checks on the switch's own daemon thread.
 */
public final class DeadMansSwitch implements CancelAllAfter, AutoCloseable {

    /** How often deadlines are checked. */
    public static final long CHECK_MILLIS = 100;
    /** The longest timeout an account may arm. */
    public static final int MAX_TIMEOUT_SECONDS = 3600;

    private static final Logger LOG = LoggerFactory.getLogger(DeadMansSwitch.class);

    /** Publishes a cancel-all of every open order of an account; false when the input ring is full. */
    @FunctionalInterface
    public interface CancelAll {
        boolean publish(String accountId, String keyId);
    }

    /** One armed switch: when it fires (by the monotonic clock), and the key that armed it (for the audit trail). */
    private record Armed(long deadlineNanos, String keyId) {
    }

    private final Map<String, Armed> armed = new ConcurrentHashMap<>();
    private final CancelAll cancelAll;
    private final LongSupplier nanoTime;
    private final ScheduledExecutorService checker;
    private final AtomicLong fired = new AtomicLong();

    /** A switch with its own checking thread. */
    public DeadMansSwitch(final CancelAll cancelAll) {
        this(cancelAll, System::nanoTime, true);
    }

    /**
     * @param nanoTime the monotonic clock
     * @param schedule false for tests, which call {@link #check} themselves
     */
    DeadMansSwitch(final CancelAll cancelAll, final LongSupplier nanoTime, final boolean schedule) {
        this.cancelAll = cancelAll;
        this.nanoTime = nanoTime;
        if (schedule) {
            checker = Executors.newSingleThreadScheduledExecutor(runnable -> {
                final Thread thread = new Thread(runnable, "oe-dead-mans-switch");
                thread.setDaemon(true);
                return thread;
            });
            checker.scheduleWithFixedDelay(this::checkSafely, CHECK_MILLIS, CHECK_MILLIS, TimeUnit.MILLISECONDS);
        } else {
            checker = null;
        }
    }

    /**
     * Arms, re-arms or (with 0) disarms the account's switch.
     *
     * @param timeoutSeconds 1 to {@value #MAX_TIMEOUT_SECONDS} from now, or 0 to disarm
     * @param keyId          the API key that armed it, or null
     * @return when it fires (wall clock), or null when disarmed
     */
    public Instant arm(final String accountId, final int timeoutSeconds, final String keyId) {
        if (timeoutSeconds < 0 || timeoutSeconds > MAX_TIMEOUT_SECONDS) {
            throw new IllegalArgumentException("timeoutSeconds must be 0 to " + MAX_TIMEOUT_SECONDS + ": "
                    + timeoutSeconds);
        }
        if (timeoutSeconds == 0) {
            armed.remove(accountId);
            return null;
        }
        final Instant now = Instant.now();
        armed.put(accountId, new Armed(nanoTime.getAsLong() + TimeUnit.SECONDS.toNanos(timeoutSeconds), keyId));
        return now.plusSeconds(timeoutSeconds);
    }

    /** Arms at once: the switch lives in this process; the outcome is never a failure. */
    @Override
    public void arm(final String accountId, final int timeoutSeconds, final String keyId, final Outcome outcome) {
        final Instant triggerAt = arm(accountId, timeoutSeconds, keyId);
        outcome.armed(triggerAt == null ? 0 : triggerAt.getEpochSecond() * 1_000_000L + triggerAt.getNano() / 1_000);
    }

    @Override
    public int armedCount() {
        return armed.size();
    }

    @Override
    public long firedCount() {
        return fired.get();
    }

    /** Fires every switch whose deadline has passed. */
    void check() {
        final long now = nanoTime.getAsLong();
        for (final Map.Entry<String, Armed> entry : armed.entrySet()) {
            final Armed switchOf = entry.getValue();
            if (now - switchOf.deadlineNanos() < 0) {
                continue;
            }
            final String accountId = entry.getKey();
            // only the deadline seen: a refresh that came meanwhile wins and the switch stays armed
            if (!armed.remove(accountId, switchOf)) {
                continue;
            }
            if (cancelAll.publish(accountId, switchOf.keyId())) {
                fired.incrementAndGet();
                LOG.info("dead man's switch of account {} fired: its open orders are being canceled", accountId);
            } else {
                armed.putIfAbsent(accountId, switchOf);   // the ring is full: the next check tries again
            }
        }
    }

    private void checkSafely() {
        try {
            check();
        } catch (final RuntimeException e) {
            LOG.error("checking the dead man's switches failed; checking again in {} ms", CHECK_MILLIS, e);
        }
    }

    /** Stops checking: no switch fires after this (a stopping service takes no more commands). */
    @Override
    public void close() {
        if (checker != null) {
            checker.shutdownNow();
        }
    }
}
