package io.orderentry.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TokenBucketTest {

    private static final long T0 = 1_000_000_000_000L;
    private static final long MS = 1_000_000L;
    private static final long SECOND = 1_000_000_000L;

    @Test
    void shouldTakeTheBurstAtOnceThenRefuseWithTheTimeUntilTheNextToken() {
        final TokenBucket bucket = new TokenBucket(10, 3, T0);
        assertEquals(2, bucket.take(T0));
        assertEquals(1, bucket.take(T0));
        assertEquals(0, bucket.take(T0));
        assertEquals(-100 * MS, bucket.take(T0), "one token per 100 ms at 10/s");
        assertEquals(-40 * MS, bucket.take(T0 + 60 * MS), "a refusal takes nothing: 40 ms to go");
        assertEquals(0, bucket.take(T0 + 100 * MS));
    }

    @Test
    void shouldRefillAtItsRateAndNeverBeyondItsBurst() {
        final TokenBucket bucket = new TokenBucket(4, 8, T0);
        for (int i = 0; i < 8; i++) {
            bucket.take(T0);
        }
        assertEquals(0, bucket.remaining(T0));
        assertEquals(2, bucket.remaining(T0 + SECOND / 2));
        assertEquals(4, bucket.remaining(T0 + SECOND));
        assertEquals(8, bucket.remaining(T0 + 3600 * SECOND), "an idle hour fills the bucket, no more");
        assertTrue(bucket.full(T0 + 3600 * SECOND));
    }

    @Test
    void shouldNotRefillWhenTimeGoesBackwards() {
        final TokenBucket bucket = new TokenBucket(1, 1, T0);
        assertEquals(0, bucket.take(T0));
        assertTrue(bucket.take(T0 - 10 * SECOND) < 0, "an older reading of another thread adds nothing");
        assertEquals(0, bucket.take(T0 + SECOND));
    }

    @Test
    void shouldSayHowManyWholeSecondsUntilItIsFull() {
        final TokenBucket bucket = new TokenBucket(2, 10, T0);
        assertEquals(0, bucket.secondsUntilFull(T0));
        for (int i = 0; i < 10; i++) {
            bucket.take(T0);
        }
        assertEquals(5, bucket.secondsUntilFull(T0));
        assertEquals(3, bucket.secondsUntilFull(T0 + 2 * SECOND + 1), "2.5 s to go, rounded up");
        assertFalse(bucket.full(T0 + 4 * SECOND));
        assertTrue(bucket.full(T0 + 5 * SECOND));
    }

    @Test
    void shouldRefuseABucketWithoutARateOrABurst() {
        assertThrows(IllegalArgumentException.class, () -> new TokenBucket(0, 1, T0));
        assertThrows(IllegalArgumentException.class, () -> new TokenBucket(-1, 1, T0));
        assertThrows(IllegalArgumentException.class, () -> new TokenBucket(1, 0, T0));
    }
}
