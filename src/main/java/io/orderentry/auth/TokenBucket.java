package io.orderentry.auth;

/**
 * A token bucket: holds at most {@code burst} tokens, refilled at {@code perSecond}; a request takes one. Time is
 * passed in (nanoseconds, any origin), so tests drive it. Thread-safe: the event loops of one key share a bucket, and
 * the lock is held for a few arithmetic operations. The lock is the bucket's monitor: a caller that holds it across
 * several calls sees them as one step.
 */
public final class TokenBucket {

    private final double perSecond;
    private final long burst;
    private double tokens;
    private long refilledAt;

    /** A full bucket as of {@code nowNanos}. */
    public TokenBucket(final double perSecond, final long burst, final long nowNanos) {
        if (perSecond <= 0 || burst < 1) {
            throw new IllegalArgumentException("a bucket needs a positive rate and a burst of at least 1");
        }
        this.perSecond = perSecond;
        this.burst = burst;
        this.tokens = burst;
        this.refilledAt = nowNanos;
    }

    /**
     * Takes a token if one is there.
     *
     * @return the tokens left after taking one (0 or more), or, when none was there, minus the nanoseconds until one
     *         will be (at least -1)
     */
    public synchronized long take(final long nowNanos) {
        refill(nowNanos);
        if (tokens >= 1) {
            tokens -= 1;
            return (long) tokens;
        }
        return -Math.max(1, (long) Math.ceil((1 - tokens) / perSecond * 1e9));
    }

    /** @return the whole tokens in the bucket now */
    public synchronized long remaining(final long nowNanos) {
        refill(nowNanos);
        return (long) tokens;
    }

    /** @return whole seconds until the bucket is full again (0 when it is) */
    public synchronized long secondsUntilFull(final long nowNanos) {
        refill(nowNanos);
        return (long) Math.ceil((burst - tokens) / perSecond);
    }

    /** @return whether the bucket is full as of {@code nowNanos} (a full bucket of an idle client can be dropped) */
    public synchronized boolean full(final long nowNanos) {
        refill(nowNanos);
        return tokens >= burst;
    }

    public long burst() {
        return burst;
    }

    public double perSecond() {
        return perSecond;
    }

    private void refill(final long nowNanos) {
        final long elapsed = nowNanos - refilledAt;
        if (elapsed > 0) {
            tokens = Math.min(burst, tokens + elapsed * perSecond / 1e9);
            refilledAt = nowNanos;
        }
    }
}
