package io.orderentry.bench.auth;

import io.orderentry.auth.ApiKey;
import io.orderentry.auth.AuthConfig;
import io.orderentry.auth.KeyRing;
import io.orderentry.auth.Permission;
import io.orderentry.auth.RateLimits;
import io.orderentry.auth.Secrets;
import io.orderentry.http.AccessControl;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpHeaders;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What authentication costs an order request on its event loop, piece by piece, in nanoseconds per request: the
 * {@code Authorization} header's secret ({@link AccessControl#bearer}), the key ({@link KeyRing#find}: the key id out
 * of the secret, one map lookup, the secret's SHA-256 and {@code MessageDigest.isEqual} against the stored hash), a
 * header the event loop's gate admitted before ({@link AccessControl.Gate#authenticate}: one constant-time comparison
 * of the header with the remembered one), the key's two budgets ({@link RateLimits#request} and
 * {@link RateLimits#order}: a map lookup and a synchronized token bucket each), and the whole check of an order with its
 * three {@code RateLimit-*} answer headers: {@code admitInFull} as every request did it before the gate remembered
 * headers (the secret's copies and its SHA-256 each time, a new text per header value), {@code admit} as it does now
 * (a remembered header; {@link AccessControl#rateLimitHeaders}: names and the values of the default budgets made once
 * as ASCII bytes).
 *
 * <p>Requests cycle through {@code keys} keys (64: what the load scripts spread their orders over). The budgets have
 * the default bursts but refill so fast that they never bind, so every request takes the path of an admitted order;
 * the arithmetic of a token bucket does not depend on its rate. The {@code TwoThreads} variants run on two threads sharing the keys, as the
 * service's two event loops do, each with its own gate; they take the keys in the same order, so they contend for the
 * same bucket's lock more often than two event loops taking requests of random keys would.
 *
 * <pre>bench/auth.sh [JMH arguments]</pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Benchmark)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class AuthBenchmark {

    /** One event loop's view: its gate, which key comes next, and the response headers it fills. */
    @State(Scope.Thread)
    public static class Loop {
        int next;
        final MultiMap headers = HttpHeaders.headers();
        AccessControl.Gate gate;

        /** A gate of the shared access control that has admitted every key once, as after the first requests. */
        @Setup(Level.Trial)
        public void setUp(final AuthBenchmark bench) {
            gate = bench.access.gate();
            for (final String header : bench.authorization) {
                if (gate.authenticate(header) == null) {
                    throw new IllegalStateException("every key is valid");
                }
            }
        }
    }

    /** The verdict of the default order budget on an order of a key well inside it. */
    private static final RateLimits.Verdict ORDER_VERDICT = new RateLimits.Verdict(true, 2000, 1999, 1, 0);

    @Param({"64"})
    public int keys;

    private String[] authorization;
    private String[] secrets;
    private String[] keyIds;
    private KeyRing ring;
    private RateLimits limits;
    private AccessControl access;

    /** Makes the keys as {@code keys create} does (random ids and secrets, SHA-256 stored) and warms their buckets. */
    @Setup(Level.Trial)
    public void setUp() {
        authorization = new String[keys];
        secrets = new String[keys];
        keyIds = new String[keys];
        final Map<String, ApiKey> ring = new HashMap<>();
        for (int i = 0; i < keys; i++) {
            final String keyId = Secrets.newKeyId();
            final String secret = Secrets.newSecret(keyId);
            ring.put(keyId, new ApiKey(keyId, "bench-" + i, Permission.TRADE, Instant.now(), null,
                    Secrets.hash(secret)));
            keyIds[i] = keyId;
            secrets[i] = secret;
            authorization[i] = "Bearer " + secret;
        }
        this.ring = new KeyRing(ring);
        // the default bursts (so the header values are what they are in the service), refilled so fast they never run out
        final RateLimits.Limit requests = new RateLimits.Limit(1e12, 4000);
        final RateLimits.Limit orders = new RateLimits.Limit(1e12, 2000);
        access = new AccessControl(new AuthConfig(true, Path.of("keys"), false, requests, orders, orders, null, null),
                this.ring);
        limits = access.limits();
        for (final String keyId : keyIds) {
            limits.request(keyId, System.nanoTime());
            limits.order(keyId, System.nanoTime());
        }
    }

    /** The secret out of the header. */
    @Benchmark
    public String bearer(final Loop loop) {
        return AccessControl.bearer(authorization[next(loop)]);
    }

    /** SHA-256 of a secret alone, the largest part of {@link #find}. */
    @Benchmark
    public byte[] sha256(final Loop loop) {
        return Secrets.hash(secrets[next(loop)]);
    }

    /** The key of a secret: its id, the map, the hash and the constant-time comparison. */
    @Benchmark
    public ApiKey find(final Loop loop) {
        return ring.find(secrets[next(loop)]);
    }

    /** The key's request budget, then its order budget. */
    @Benchmark
    public RateLimits.Verdict limits(final Loop loop) {
        final int i = next(loop);
        final long now = System.nanoTime();
        limits.request(keyIds[i], now);
        return limits.order(keyIds[i], now);
    }

    /** The three rate-limit headers of an admitted order, as the service sets them on its answer. */
    @Benchmark
    public MultiMap headers(final Loop loop) {
        AccessControl.rateLimitHeaders(loop.headers, ORDER_VERDICT);
        return loop.headers;
    }

    /** A header the gate admitted before: the remembered key, after one comparison of the header. */
    @Benchmark
    public ApiKey authenticate(final Loop loop) {
        return loop.gate.authenticate(authorization[next(loop)]);
    }

    /** The whole check of an order as it was before the gate remembered headers. */
    @Benchmark
    public ApiKey admitInFull(final Loop loop) {
        final long now = System.nanoTime();
        final ApiKey key = ring.find(AccessControl.bearer(authorization[next(loop)]));
        final RateLimits.Verdict verdict = budgets(key, now);
        loop.headers.set("RateLimit-Limit", Long.toString(verdict.limit()));
        loop.headers.set("RateLimit-Remaining", Long.toString(verdict.remaining()));
        loop.headers.set("RateLimit-Reset", Long.toString(verdict.reset()));
        return key;
    }

    /** The whole check of an order as the gate does it now. */
    @Benchmark
    public ApiKey admit(final Loop loop) {
        return admitRemembered(loop);
    }

    /** {@link #admitInFull} on two threads at once. */
    @Benchmark
    @Threads(2)
    public ApiKey admitInFullTwoThreads(final Loop loop) {
        return admitInFull(loop);
    }

    /** {@link #admit} on two threads at once. */
    @Benchmark
    @Threads(2)
    public ApiKey admitTwoThreads(final Loop loop) {
        return admitRemembered(loop);
    }

    private ApiKey admitRemembered(final Loop loop) {
        final long now = System.nanoTime();
        final ApiKey key = loop.gate.authenticate(authorization[next(loop)]);
        AccessControl.rateLimitHeaders(loop.headers, budgets(key, now));
        return key;
    }

    private RateLimits.Verdict budgets(final ApiKey key, final long now) {
        if (key == null || !key.active()) {
            throw new IllegalStateException("every key is valid");
        }
        final RateLimits.Verdict verdict = limits.request(key.keyId(), now);
        return verdict.allowed() && key.permission().mayTrade() ? limits.order(key.keyId(), now) : verdict;
    }

    private int next(final Loop loop) {
        final int i = loop.next;
        loop.next = i + 1 == keys ? 0 : i + 1;
        return i;
    }
}
