package io.orderentry.pipeline;

import io.orderentry.engine.CommandResult;
import io.orderentry.engine.OrderStatus;
import io.orderentry.engine.RejectReason;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Counters written only by the matcher thread and read by any thread (metrics, readiness). Writes
 * use lazySet: a reader may see a value a few microseconds old, never a torn one.
 */
public final class MatcherMetrics {

    private static final int COMMANDS = 0;
    private static final int SERVICE_NANOS = 1;
    private static final int MAX_SERVICE_NANOS = 2;
    private static final int TRADES = 3;
    private static final int RESULTS = 4;
    private static final int STATUSES = RESULTS + CommandResult.values().length;
    private static final int REASONS = STATUSES + OrderStatus.values().length;
    private static final int FUNDINGS = REASONS + RejectReason.values().length;

    private final AtomicLongArray values = new AtomicLongArray(FUNDINGS + CommandResult.values().length);

    /** Called on the matcher thread after each executed command. */
    void recordCommand(final long serviceNanos) {
        values.lazySet(COMMANDS, values.get(COMMANDS) + 1);
        values.lazySet(SERVICE_NANOS, values.get(SERVICE_NANOS) + serviceNanos);
        if (serviceNanos > values.get(MAX_SERVICE_NANOS)) {
            values.lazySet(MAX_SERVICE_NANOS, serviceNanos);
        }
    }

    /** Called on the matcher thread (or the recovery thread) once per command. */
    void recordResult(final CommandResult result) {
        final int index = RESULTS + result.ordinal();
        values.lazySet(index, values.get(index) + 1);
    }

    /** Called on the matcher thread once per trade. */
    void recordTrade() {
        values.lazySet(TRADES, values.get(TRADES) + 1);
    }

    /** Called on the matcher thread for each order state reported at the end of a command. */
    void recordStatus(final OrderStatus status) {
        final int index = STATUSES + status.ordinal();
        values.lazySet(index, values.get(index) + 1);
    }

    /** Called on the matcher thread for each order state reported with a reason other than NONE. */
    void recordReason(final RejectReason reason) {
        final int index = REASONS + reason.ordinal();
        values.lazySet(index, values.get(index) + 1);
    }

    /** Called on the matcher thread once per funding command, with its result. */
    void recordFunding(final CommandResult result) {
        final int index = FUNDINGS + result.ordinal();
        values.lazySet(index, values.get(index) + 1);
    }

    /**
     * @return how many order states were reported with this reason (REJECTED, EXPIRED or CANCELED by the engine, e.g.
     *         INSUFFICIENT_BALANCE), replayed ones included
     */
    public long reasons(final RejectReason reason) {
        return values.get(REASONS + reason.ordinal());
    }

    /** @return how many fundings ended with the given result, replayed ones included */
    public long fundings(final CommandResult result) {
        return values.get(FUNDINGS + result.ordinal());
    }

    /** @return trades executed since start, replayed ones included */
    public long trades() {
        return values.get(TRADES);
    }

    /** @return how many commands left an order in the given status, replayed ones included */
    public long statuses(final OrderStatus status) {
        return values.get(STATUSES + status.ordinal());
    }

    /** @return commands executed live (not replayed) since start */
    public long commands() {
        return values.get(COMMANDS);
    }

    /** @return total matcher service time of live commands, in nanoseconds */
    public long serviceNanos() {
        return values.get(SERVICE_NANOS);
    }

    /** @return the longest single command service time seen, in nanoseconds */
    public long maxServiceNanos() {
        return values.get(MAX_SERVICE_NANOS);
    }

    /** @return how many commands ended with the given result, replayed ones included */
    public long results(final CommandResult result) {
        return values.get(RESULTS + result.ordinal());
    }
}
