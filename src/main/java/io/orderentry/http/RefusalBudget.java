package io.orderentry.http;

import java.util.concurrent.TimeUnit;

/**
 * How many edge refusals the audit trail records one by one: a token bucket per client address and one for all of
 * them, so that one address flooding bad requests spends only its own share and the refusals of every other address
 * are still recorded one by one, while the total (the audit disk) stays bounded.
 *
 * <ul>
 *   <li>In all: {@code perSecond} a second, a burst of five times that ({@code ORDERS_AUDIT_REFUSALS_PER_SECOND}).</li>
 *   <li>Per address: a tenth of that (at least 1) a second, a burst of five times that: 20 a second and 100 at once
 *       by default. An address is the client's IPv4 address, or its IPv6 /64 prefix (one host commonly holds a whole
 *       /64, so counting IPv6 addresses one by one would let a single host take every share); the port is ignored.</li>
 * </ul>
 *
 * <p>Memory is fixed: the addresses live in a table of {@value #SETS} sets of {@value #WAYS} entries, chosen by the
 * address's hash; an address not in its set takes the place of the entry seen longest ago, so a flooder (seen all
 * the time) keeps its spent bucket and an evicted address, which was idle, comes back with a full one. An attacker
 * with many prefixes can evict and so get fresh per-address buckets, but never more than the total.
 *
 * <p>What is refused a token is counted, per address and in all, until {@link #drainSuppressed} reports it, once a
 * second, for the {@code REFUSALS_NOT_RECORDED} summary record. Thread-safe: every method takes the instance's lock
 * (refusals only; orders never come here); called on the event loops and the summary's timer.
 */
public final class RefusalBudget {

    /** Sets in the address table; a power of two. */
    static final int SETS = 256;
    /** Entries per set. */
    static final int WAYS = 4;
    /** The per-address rate is the total's divided by this. */
    static final int ADDRESS_SHARE_DIVISOR = 10;
    private static final int BURST_SECONDS = 5;

    /** What was suppressed since the last {@link #drainSuppressed}. */
    public record Suppressed(long count, long since, int addresses, String topAddress, long topCount) {
    }

    private final long perSecond;
    private final long perAddressPerSecond;
    private final long burst;
    private final long addressBurst;

    private double tokens;
    private long refillNanos;

    private final String[] addresses = new String[SETS * WAYS];
    private final double[] addressTokens = new double[SETS * WAYS];
    private final long[] addressRefillNanos = new long[SETS * WAYS];
    private final long[] addressSuppressed = new long[SETS * WAYS];

    private long suppressed;
    private long suppressedSinceNanos;
    /** Addresses with suppressed refusals whose entries were evicted since the last drain. */
    private int evictedSuppressing;

    /**
     * @param perSecond refusals recorded one by one a second in all; at least 1
     * @param nowNanos  the current {@link System#nanoTime()}
     */
    public RefusalBudget(final long perSecond, final long nowNanos) {
        if (perSecond < 1) {
            throw new IllegalArgumentException("perSecond must be >= 1");
        }
        this.perSecond = perSecond;
        this.perAddressPerSecond = Math.max(1, perSecond / ADDRESS_SHARE_DIVISOR);
        this.burst = BURST_SECONDS * perSecond;
        this.addressBurst = BURST_SECONDS * perAddressPerSecond;
        this.tokens = burst;
        this.refillNanos = nowNanos;
    }

    /** @return refusals recorded one by one a second from one address */
    public long perAddressPerSecond() {
        return perAddressPerSecond;
    }

    /** @return refusals recorded one by one a second in all */
    public long perSecond() {
        return perSecond;
    }

    /**
     * Takes a token of the address's bucket and of the total; when either has none, counts the refusal as suppressed.
     *
     * @param remoteAddress the client's {@code host:port} ({@code [v6]:port}), or null when unknown (one shared entry)
     * @return true if the refusal may be recorded one by one
     */
    public synchronized boolean take(final String remoteAddress, final long nowNanos) {
        tokens = Math.min(burst, tokens + (nowNanos - refillNanos) * perSecond / 1e9);
        refillNanos = nowNanos;
        final int entry = entry(addressKey(remoteAddress), nowNanos);
        addressTokens[entry] = Math.min(addressBurst,
                addressTokens[entry] + (nowNanos - addressRefillNanos[entry]) * perAddressPerSecond / 1e9);
        addressRefillNanos[entry] = nowNanos;
        if (addressTokens[entry] >= 1 && tokens >= 1) {
            addressTokens[entry] -= 1;
            tokens -= 1;
            return true;
        }
        if (suppressed == 0) {
            suppressedSinceNanos = nowNanos;
        }
        suppressed++;
        addressSuppressed[entry]++;
        return false;
    }

    /**
     * Reports and forgets what was suppressed since the last call: the count, since when, how many addresses, and
     * the address with the most (among those still in the table).
     *
     * @return null when nothing was suppressed
     */
    public synchronized Suppressed drainSuppressed() {
        if (suppressed == 0) {
            return null;
        }
        int count = evictedSuppressing;
        int top = -1;
        for (int i = 0; i < addresses.length; i++) {
            if (addressSuppressed[i] > 0) {
                count++;
                if (top < 0 || addressSuppressed[i] > addressSuppressed[top]) {
                    top = i;
                }
            }
        }
        final Suppressed result = new Suppressed(suppressed, suppressedSinceNanos, count,
                top < 0 ? null : addresses[top], top < 0 ? 0 : addressSuppressed[top]);
        java.util.Arrays.fill(addressSuppressed, 0);
        suppressed = 0;
        evictedSuppressing = 0;
        return result;
    }

    /** Gives back a drained count that could not be recorded, so that the next summary includes it. */
    public synchronized void restore(final Suppressed drained) {
        if (suppressed == 0 || drained.since() - suppressedSinceNanos < 0) {
            suppressedSinceNanos = drained.since();
        }
        suppressed += drained.count();
        evictedSuppressing += drained.addresses();
    }

    /** @return the table entry of {@code key}, taking the place of the entry of its set seen longest ago if absent */
    private int entry(final String key, final long nowNanos) {
        final int set = (spread(key.hashCode()) & (SETS - 1)) * WAYS;
        int oldest = set;
        for (int i = set; i < set + WAYS; i++) {
            if (key.equals(addresses[i])) {
                return i;
            }
            if (addresses[i] == null) {
                oldest = i;
                break;
            }
            if (addressRefillNanos[i] - addressRefillNanos[oldest] < 0) {
                oldest = i;
            }
        }
        if (addressSuppressed[oldest] > 0) {
            evictedSuppressing++;
        }
        addresses[oldest] = key;
        addressTokens[oldest] = addressBurst;
        addressRefillNanos[oldest] = nowNanos;
        addressSuppressed[oldest] = 0;
        return oldest;
    }

    private static int spread(final int hash) {
        final int h = hash * 0x9E3779B9;
        return h ^ (h >>> 16);
    }

    /**
     * @param remoteAddress {@code host:port} or {@code [v6]:port}, or null
     * @return the budget's key, the {@link ClientAddress} the connection bounds count by too: the IPv4 address, the
     *         IPv6 /64 prefix as {@code xxxx:xxxx:xxxx:xxxx::/64}; "" when unknown
     */
    static String addressKey(final String remoteAddress) {
        final ClientAddress address = ClientAddress.ofRemote(remoteAddress);
        return address == ClientAddress.UNKNOWN ? "" : address.toString();
    }

    /** @return {@code seconds} since {@code sinceNanos}, at least 1 */
    public static long secondsSince(final long sinceNanos, final long nowNanos) {
        return Math.max(1, TimeUnit.NANOSECONDS.toSeconds(nowNanos - sinceNanos));
    }
}
