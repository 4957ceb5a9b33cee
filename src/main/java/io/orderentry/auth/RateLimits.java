package io.orderentry.auth;

import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The request budgets: per API key, one for every request and one for new orders; per remote address, one for the
 * requests that carry no valid key (market data, the symbols, failed authentications). A limit of 0 per second
 * turns that budget off.
 *
 * <p>Buckets are created on a key's or an address's first request. Address buckets that are full again are dropped
 * by {@link #sweep} (called once a minute), so a scan from many addresses does not hold memory. Thread-safe; called on
 * the event loops.
 */
public final class RateLimits {

    /**
     * One budget's verdict on a request.
     *
     * @param allowed   whether the request may go on
     * @param limit     the budget's burst, for {@code RateLimit-Limit}
     * @param remaining tokens left, for {@code RateLimit-Remaining}
     * @param reset     seconds until the budget is full again, for {@code RateLimit-Reset}
     * @param retryAfterSeconds when refused, whole seconds until a request would be taken, for {@code Retry-After}
     */
    public record Verdict(boolean allowed, long limit, long remaining, long reset, long retryAfterSeconds) {
    }

    /** Budgets of one kind. */
    public record Limit(double perSecond, long burst) {
        /** @return whether this budget is on */
        public boolean enabled() {
            return perSecond > 0;
        }
    }

    /** The verdict of a budget that is off: allowed, and no headers to show. */
    public static final Verdict UNLIMITED = new Verdict(true, 0, 0, 0, 0);

    private final Limit requests;
    private final Limit orders;
    private final Limit address;
    private final Map<String, TokenBucket> requestBuckets = new ConcurrentHashMap<>();
    private final Map<String, TokenBucket> orderBuckets = new ConcurrentHashMap<>();
    private final Map<String, TokenBucket> addressBuckets = new ConcurrentHashMap<>();
    private final Verdict requestFromFull;
    private final Verdict orderFromFull;
    private final Verdict addressFromFull;

    public RateLimits(final Limit requests, final Limit orders, final Limit address) {
        this.requests = requests;
        this.orders = orders;
        this.address = address;
        this.requestFromFull = fromFull(requests);
        this.orderFromFull = fromFull(orders);
        this.addressFromFull = fromFull(address);
    }

    /** Takes one of the key's request tokens. */
    public Verdict request(final String keyId, final long nowNanos) {
        return take(requests, requestBuckets, keyId, nowNanos, requestFromFull);
    }

    /** Takes one of the key's order tokens (a place, amend or cancel; after {@link #request} allowed it). */
    public Verdict order(final String keyId, final long nowNanos) {
        return take(orders, orderBuckets, keyId, nowNanos, orderFromFull);
    }

    /** Takes one of the address's tokens, for a request without a valid key. */
    public Verdict unauthenticated(final String host, final long nowNanos) {
        return take(address, addressBuckets, host, nowNanos, addressFromFull);
    }

    /** Drops the buckets that are full (nothing to remember); once a minute. */
    public void sweep(final long nowNanos) {
        for (final Map<String, TokenBucket> buckets : java.util.List.of(requestBuckets, orderBuckets, addressBuckets)) {
            for (final Iterator<TokenBucket> it = buckets.values().iterator(); it.hasNext(); ) {
                if (it.next().full(nowNanos)) {
                    it.remove();
                }
            }
        }
    }

    /** @return address buckets held now, for metrics */
    public int addressesTracked() {
        return addressBuckets.size();
    }

    public Limit requests() {
        return requests;
    }

    public Limit orders() {
        return orders;
    }

    public Limit address() {
        return address;
    }

    /**
     * Takes a token of {@code who}'s bucket of {@code limit}, under the bucket's lock held once.
     *
     * @param fromFull the verdict of a take from a full bucket ({@link #fromFull}), answered without a new one
     */
    private static Verdict take(final Limit limit, final Map<String, TokenBucket> buckets, final String who,
                                final long nowNanos, final Verdict fromFull) {
        if (!limit.enabled()) {
            return UNLIMITED;
        }
        TokenBucket bucket = buckets.get(who);
        if (bucket == null) {
            bucket = buckets.computeIfAbsent(who, ignored -> new TokenBucket(limit.perSecond(), limit.burst(), nowNanos));
        }
        final long left;
        final long reset;
        synchronized (bucket) {   // the bucket's own lock: its calls below nest in it at no cost
            left = bucket.take(nowNanos);
            if (left == limit.burst() - 1) {
                return fromFull;
            }
            reset = bucket.secondsUntilFull(nowNanos);
        }
        if (left >= 0) {
            return new Verdict(true, limit.burst(), left, reset, 0);
        }
        return new Verdict(false, limit.burst(), 0, reset, Math.max(1, (long) Math.ceil(-left / 1e9)));
    }

    /**
     * The verdict of a take that leaves {@code burst - 1} whole tokens, made once: a bucket holds at most
     * {@code burst}, so such a take found it full and left exactly {@code burst - 1}, one token short of full (what
     * {@link TokenBucket#secondsUntilFull} says of that). A client inside its budget finds its bucket full again at
     * every request, so this is the answer to nearly all of them, and costs no object each time.
     */
    private static Verdict fromFull(final Limit limit) {
        if (!limit.enabled()) {
            return UNLIMITED;
        }
        final TokenBucket full = new TokenBucket(limit.perSecond(), limit.burst(), 0);
        final long left = full.take(0);
        return new Verdict(true, limit.burst(), left, full.secondsUntilFull(0), 0);
    }
}
