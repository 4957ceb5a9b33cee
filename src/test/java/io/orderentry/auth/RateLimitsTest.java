package io.orderentry.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.orderentry.auth.RateLimits.Limit;
import io.orderentry.auth.RateLimits.Verdict;
import org.junit.jupiter.api.Test;

class RateLimitsTest {

    private static final long T0 = 5_000_000_000L;
    private static final long SECOND = 1_000_000_000L;
    private static final Limit OFF = new Limit(0, 1);

    @Test
    void shouldAllowTheBurstThenRefuseWithRetryAfterInWholeSeconds() {
        final RateLimits limits = new RateLimits(new Limit(1, 2), OFF, OFF);
        assertTrue(limits.request("k1", T0).allowed());
        assertTrue(limits.request("k1", T0).allowed());
        final Verdict refused = limits.request("k1", T0);
        assertFalse(refused.allowed());
        assertEquals(1, refused.retryAfterSeconds());
        assertEquals(0, refused.remaining());
    }

    @Test
    void shouldRoundRetryAfterUpAndNeverToZero() {
        final RateLimits limits = new RateLimits(new Limit(0.25, 1), OFF, OFF);
        assertTrue(limits.request("k1", T0).allowed());
        assertEquals(4, limits.request("k1", T0).retryAfterSeconds(), "one token per 4 s");
        assertEquals(1, limits.request("k1", T0 + 3 * SECOND + 1).retryAfterSeconds(), "just under 1 s: 1, not 0");
        assertTrue(limits.request("k1", T0 + 4 * SECOND).allowed());
    }

    @Test
    void shouldGiveTheBudgetsFiguresForTheRateLimitHeaders() {
        final RateLimits limits = new RateLimits(new Limit(10, 20), OFF, OFF);
        final Verdict first = limits.request("k1", T0);
        assertEquals(20, first.limit(), "RateLimit-Limit is the burst");
        assertEquals(19, first.remaining());
        assertEquals(1, first.reset(), "one token short: full again within 100 ms, shown as 1 s");
        Verdict last = first;
        for (int i = 0; i < 19; i++) {
            last = limits.request("k1", T0);
        }
        assertTrue(last.allowed());
        assertEquals(0, last.remaining());
        assertEquals(2, last.reset(), "20 tokens at 10/s");
        final Verdict refused = limits.request("k1", T0);
        assertEquals(20, refused.limit());
        assertEquals(0, refused.remaining());
        assertEquals(2, refused.reset());
    }

    @Test
    void shouldAnswerATakeFromAFullBucketAsFromAnyOtherWithoutANewVerdict() {
        final RateLimits limits = new RateLimits(new Limit(0.25, 3), new Limit(1000, 2000), OFF);
        final Verdict first = limits.request("k1", T0);
        assertEquals(3, first.limit());
        assertEquals(2, first.remaining());
        assertEquals(4, first.reset(), "one token short at one token per 4 s");
        assertSame(first, limits.request("k2", T0), "every take from a full bucket gets the same verdict");
        final Verdict second = limits.request("k1", T0 + SECOND);
        assertEquals(1, second.remaining());
        assertEquals(7, second.reset(), "1.75 tokens short at one token per 4 s");
        assertSame(first, limits.request("k1", T0 + 100 * SECOND), "full again");
        final Verdict order = limits.order("k1", T0);
        assertEquals(1999, order.remaining());
        assertEquals(1, order.reset());
    }

    @Test
    void shouldRefillOverTime() {
        final RateLimits limits = new RateLimits(new Limit(2, 2), OFF, OFF);
        limits.request("k1", T0);
        limits.request("k1", T0);
        assertFalse(limits.request("k1", T0).allowed());
        assertFalse(limits.request("k1", T0 + SECOND / 4).allowed());
        final Verdict later = limits.request("k1", T0 + SECOND / 2);
        assertTrue(later.allowed());
        assertEquals(0, later.remaining());
        assertEquals(1, limits.request("k1", T0 + 10 * SECOND).remaining(), "full again after a pause: 2 less 1");
    }

    @Test
    void shouldTreatZeroPerSecondAsNoLimitAtAll() {
        final RateLimits limits = new RateLimits(OFF, OFF, OFF);
        for (int i = 0; i < 100_000; i++) {
            assertSame(RateLimits.UNLIMITED, limits.request("k1", T0));
            assertSame(RateLimits.UNLIMITED, limits.order("k1", T0));
            assertSame(RateLimits.UNLIMITED, limits.unauthenticated("10.0.0.1", T0));
        }
        assertEquals(0, limits.addressesTracked(), "no bucket is kept for a budget that is off");
        assertFalse(OFF.enabled());
    }

    @Test
    void shouldKeepEachKeysAndEachAddresssBudgetsApart() {
        final RateLimits limits = new RateLimits(new Limit(1, 1), new Limit(1, 1), new Limit(1, 1));
        assertTrue(limits.request("k1", T0).allowed());
        assertFalse(limits.request("k1", T0).allowed());
        assertTrue(limits.request("k2", T0).allowed(), "another key has its own bucket");
        assertTrue(limits.order("k1", T0).allowed(), "the order budget is apart from the request budget");
        assertFalse(limits.order("k1", T0).allowed());
        assertTrue(limits.order("k2", T0).allowed());
        assertTrue(limits.unauthenticated("10.0.0.1", T0).allowed());
        assertFalse(limits.unauthenticated("10.0.0.1", T0).allowed());
        assertTrue(limits.unauthenticated("10.0.0.2", T0).allowed());
        assertTrue(limits.unauthenticated("k1", T0).allowed(), "addresses and key ids never share a bucket");
    }

    @Test
    void shouldDropOnlyTheBucketsThatAreFullAgainWhenSwept() {
        final RateLimits limits = new RateLimits(new Limit(1, 2), new Limit(1, 2), new Limit(1, 2));
        limits.unauthenticated("10.0.0.1", T0);
        limits.unauthenticated("10.0.0.2", T0 + 5 * SECOND);
        limits.unauthenticated("10.0.0.2", T0 + 5 * SECOND);
        assertEquals(2, limits.addressesTracked());
        limits.sweep(T0 + 6 * SECOND);
        assertEquals(1, limits.addressesTracked(), "10.0.0.1 is full again; 10.0.0.2 still has one token to regain");
        limits.sweep(T0 + 60 * SECOND);
        assertEquals(0, limits.addressesTracked());
        final Verdict fresh = limits.unauthenticated("10.0.0.1", T0 + 60 * SECOND);
        assertEquals(1, fresh.remaining(), "a dropped bucket comes back full: dropping it forgave nothing");
    }
}
