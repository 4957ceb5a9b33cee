package io.orderentry.http;

import io.orderentry.auth.ApiKey;
import io.orderentry.auth.AuthConfig;
import io.orderentry.auth.KeyRing;
import io.orderentry.auth.Permission;
import io.orderentry.auth.RateLimits;
import io.orderentry.auth.Secrets;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.net.SocketAddress;
import java.time.Instant;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Who may do what at the edge (API.md, "Accounts and authentication"): the {@code Authorization: Bearer} key, its
 * permission and its rate limits, and the per-address limit of requests without a key. Shared by the event loops;
 * thread-safe. Each verticle asks through its own {@link Gate}, which keeps the last refusal for the caller to answer.
 *
 * <p>Order of the checks, so that each refusal costs the least and says the most: the header's shape (401
 * {@code UNAUTHENTICATED}), the key (401 {@code INVALID_API_KEY}, unknown and revoked alike), the key's request budget
 * and, for order commands, its order budget (429 {@code RATE_LIMITED}), then the permission (403
 * {@code PERMISSION_DENIED}). A request refused for its key also takes a token of its address, so that guessing keys
 * is limited like any unauthenticated traffic. Every answer to a request with a valid key carries
 * {@code RateLimit-Limit}, {@code RateLimit-Remaining} and {@code RateLimit-Reset} of the budget the request took from
 * last (the order budget for an order command).
 *
 * <p>Each {@link Gate} remembers the {@code Authorization} headers it recently admitted, with their key, so that a key
 * sent again costs one comparison of the header instead of its SHA-256 and the copies of its secret (see
 * {@link Gate#authenticate}); the budgets and the permission are checked on every request all the same.
 */
public final class AccessControl {

    /** What a request needs. */
    public enum Need {
        /** Read the key's account's orders: a {@code read} or {@code trade} key. */
        READ,
        /** Place, amend or cancel: a {@code trade} key, and a token of its order budget. */
        ORDER,
        /** The operations endpoints: an {@code admin} key. */
        ADMIN
    }

    /** The caller of every request while authentication is off ({@code ORDERS_AUTH=none}): no key, no account. */
    public static final ApiKey OPEN = new ApiKey(null, null, Permission.TRADE, Instant.EPOCH, null, new byte[32]);

    private static final String BEARER = "bearer ";
    /**
     * The rate-limit headers' names, and below the text of their small values, made once as ASCII bytes
     * ({@link HttpHeaders#createOptimized}): set on every answer to a key, such a header's hash is kept, and it is
     * checked and written out by copying bytes rather than character by character.
     */
    private static final CharSequence RATE_LIMIT_LIMIT = HttpHeaders.createOptimized("RateLimit-Limit");
    private static final CharSequence RATE_LIMIT_REMAINING = HttpHeaders.createOptimized("RateLimit-Remaining");
    private static final CharSequence RATE_LIMIT_RESET = HttpHeaders.createOptimized("RateLimit-Reset");
    /** Numbers whose text the rate-limit headers take from a table instead of making one per answer. */
    private static final int SMALL_NUMBERS = 4096;
    private static final CharSequence[] SMALL_NUMBER_TEXT = new CharSequence[SMALL_NUMBERS];

    static {
        for (int i = 0; i < SMALL_NUMBERS; i++) {
            SMALL_NUMBER_TEXT[i] = HttpHeaders.createOptimized(Integer.toString(i));
        }
    }

    private final AuthConfig config;
    private final KeyRing keys;
    private final RateLimits limits;
    private final AtomicLong unauthenticated = new AtomicLong();
    private final AtomicLong invalidKey = new AtomicLong();
    private final AtomicLong permissionDenied = new AtomicLong();
    private final AtomicLong accountMismatch = new AtomicLong();
    private final AtomicLong limitedRequests = new AtomicLong();
    private final AtomicLong limitedOrders = new AtomicLong();
    private final AtomicLong limitedAddresses = new AtomicLong();

    /** @param keys the key ring, or null when authentication is off */
    public AccessControl(final AuthConfig config, final KeyRing keys) {
        if (config.enabled() && keys == null) {
            throw new IllegalArgumentException("authentication is on but there is no key ring");
        }
        this.config = config;
        this.keys = keys;
        this.limits = config.rateLimits();
    }

    /** @return the configuration when it turns TLS on, else null */
    public AuthConfig tlsConfig() {
        return config.tls() ? config : null;
    }

    /** @return whether requests must carry a key */
    public boolean enabled() {
        return config.enabled();
    }

    /** @return whether {@code /metrics} and the detailed {@code /ready} need an admin key */
    public boolean adminOnlyOps() {
        return config.enabled() && config.adminOnlyOps();
    }

    public KeyRing keys() {
        return keys;
    }

    public RateLimits limits() {
        return limits;
    }

    /** @return refusals by code since start, for metrics */
    public long unauthenticated() {
        return unauthenticated.get();
    }

    public long invalidKeys() {
        return invalidKey.get();
    }

    public long permissionDenied() {
        return permissionDenied.get();
    }

    public long accountMismatches() {
        return accountMismatch.get();
    }

    /** @return 429s by budget since start, for metrics */
    public long limitedRequests() {
        return limitedRequests.get();
    }

    public long limitedOrders() {
        return limitedOrders.get();
    }

    public long limitedAddresses() {
        return limitedAddresses.get();
    }

    /** Counts an {@code ACCOUNT_MISMATCH} answered by the caller. */
    public void accountMismatch() {
        accountMismatch.incrementAndGet();
    }

    /**
     * @return whether the request carries a valid {@code admin} key; refuses nothing and takes no token (the detailed
     *         {@code /ready} body is shown to such requests, the bare status to others)
     */
    public boolean isAdmin(final HttpServerRequest request) {
        if (!config.enabled()) {
            return true;
        }
        final String secret = bearer(request.getHeader(HttpHeaders.AUTHORIZATION));
        final ApiKey key = secret == null ? null : keys.find(secret);
        return key != null && key.active() && key.permission() == Permission.ADMIN;
    }

    /**
     * Takes one more token of the key's order budget: for each order of a batch after its first, whose token the
     * request's own admission took ({@link Gate#admit}), so that a batch of twenty counts as twenty orders.
     *
     * @return null when the order may go on, else the 429 {@code RATE_LIMITED} to answer it with (counted)
     */
    public ApiError takeOrder(final ApiKey key) {
        if (!config.enabled() || key == OPEN) {
            return null;
        }
        final RateLimits.Verdict verdict = limits.order(key.keyId(), System.nanoTime());
        if (verdict.allowed()) {
            return null;
        }
        limitedOrders.incrementAndGet();
        return new ApiError(429, "RATE_LIMITED", "over this key's order rate limit; retry after "
                + verdict.retryAfterSeconds() + " s", null);
    }

    /** @return a gate for one event loop */
    public Gate gate() {
        return new Gate();
    }

    /** One event loop's way in; not thread-safe (one per verticle). */
    public final class Gate {

        /** Headers remembered per event loop, two per set (a power of two). */
        private static final int REMEMBERED = 4096;

        private ApiError refusal;
        private ApiKey refusedKey;
        private final String[] rememberedHeader = new String[REMEMBERED];
        private final ApiKey[] rememberedKey = new ApiKey[REMEMBERED];
        private Object rememberedVersion;

        private Gate() {
        }

        /**
         * Checks the request's key for {@code need}, and sets the rate-limit headers on its response.
         *
         * @return the caller's key ({@link #OPEN} while authentication is off), or null when the request is refused:
         *         then {@link #refusal()} says how to answer (its headers are already set on the response)
         */
        public ApiKey admit(final HttpServerRequest request, final Need need) {
            if (!config.enabled()) {
                refusal = null;
                refusedKey = null;
                return OPEN;
            }
            final String header = request.getHeader(HttpHeaders.AUTHORIZATION);
            final ApiKey remembered = authenticate(header);
            return admit(remembered == null ? bearer(header) : null, remembered, header == null
                    ? "this endpoint needs an API key: send 'Authorization: Bearer <secret>'"
                    : "the Authorization header is not 'Bearer <secret>'", request.remoteAddress(), request.response(),
                    need);
        }

        /**
         * Checks a key that came in a message rather than in a request's header (the stream's private channel),
         * exactly as {@link #admit(HttpServerRequest, Need)} checks a header's: the same refusals, counters and
         * budgets, without response headers.
         *
         * @param secret  the secret, or null when the client sent none (or only a malformed header)
         * @param missing the message of the 401 UNAUTHENTICATED answered when {@code secret} is null
         * @param remote  the client's address, whose budget a refused key takes a token of
         * @return the key ({@link #OPEN} while authentication is off), or null: see {@link #refusal()}
         */
        public ApiKey admitSecret(final String secret, final String missing, final SocketAddress remote,
                                  final Need need) {
            return admit(secret, null, missing, remote, null, need);
        }

        /**
         * Checks, for one more request, a key a stream session logged in with: that it is still valid (not revoked or
         * removed since), then its budgets and permission exactly as {@link #admit(HttpServerRequest, Need)} checks a
         * header's, without response headers.
         *
         * @return the key as the keys file now has it ({@link #OPEN} while authentication is off), or null: see
         *     {@link #refusal()}
         */
        public ApiKey admitKey(final ApiKey loggedIn, final SocketAddress remote, final Need need) {
            refusal = null;
            refusedKey = null;
            if (!config.enabled()) {
                return OPEN;
            }
            final ApiKey current = keys.byId(loggedIn.keyId());
            if (current == null || !current.active()) {
                invalidKey.incrementAndGet();
                refusedKey = current;
                refusal = new ApiError(401, "INVALID_API_KEY", "the API key this connection logged in with was revoked",
                        null);
                return null;
            }
            return admit(null, current, "", remote, null, need);
        }

        /**
         * @param secret the secret to check in full, or null (none sent, or {@code valid} is already known)
         * @param valid  the key {@link #authenticate} found for the request's header, or null
         */
        private ApiKey admit(final String secret, final ApiKey valid, final String missing, final SocketAddress remote,
                             final HttpServerResponse response, final Need need) {
            refusal = null;
            refusedKey = null;
            if (!config.enabled()) {
                return OPEN;
            }
            final long now = System.nanoTime();
            ApiKey key = valid;
            if (key == null) {
                if (secret == null) {
                    unauthenticated.incrementAndGet();
                    return refuseWithoutKey(remote, response, now, new ApiError(401, "UNAUTHENTICATED", missing, null),
                            "Bearer");
                }
                final ApiKey found = keys.find(secret);
                if (found == null || !found.active()) {
                    invalidKey.incrementAndGet();
                    refusedKey = found;
                    return refuseWithoutKey(remote, response, now, new ApiError(401, "INVALID_API_KEY", found == null
                            ? "the API key is not known" : "the API key was revoked", null),
                            "Bearer error=\"invalid_token\"");
                }
                key = found;
            }
            RateLimits.Verdict verdict = limits.request(key.keyId(), now);
            boolean orderBudget = false;
            if (!verdict.allowed()) {
                limitedRequests.incrementAndGet();
            } else if (need == Need.ORDER && key.permission().mayTrade()) {
                final RateLimits.Verdict orders = limits.order(key.keyId(), now);
                if (orders != RateLimits.UNLIMITED) {
                    verdict = orders;
                    orderBudget = true;
                }
                if (!orders.allowed()) {
                    limitedOrders.incrementAndGet();
                }
            }
            headers(response, verdict);
            if (!verdict.allowed()) {
                refusedKey = key;
                if (response != null) {
                    response.putHeader(HttpHeaders.RETRY_AFTER, Long.toString(verdict.retryAfterSeconds()));
                }
                refusal = new ApiError(429, "RATE_LIMITED", "over this key's " + (orderBudget ? "order" : "request")
                        + " rate limit; retry after " + verdict.retryAfterSeconds() + " s", null);
                return null;
            }
            final boolean allowed = switch (need) {
                case READ -> key.permission().mayRead();
                case ORDER -> key.permission().mayTrade();
                case ADMIN -> key.permission() == Permission.ADMIN;
            };
            if (!allowed) {
                permissionDenied.incrementAndGet();
                refusedKey = key;
                refusal = new ApiError(403, "PERMISSION_DENIED", "this key is '" + key.permission().wireName()
                        + "' and may not " + switch (need) {
                            case READ -> "read orders";
                            case ORDER -> "place, amend or cancel orders";
                            case ADMIN -> "use the operations endpoints (an admin key may)";
                        }, null);
                return null;
            }
            return key;
        }

        /**
         * Takes a token of the request's address, for a request that needs no key: with authentication on or off
         * ({@code ORDERS_AUTH=none} turns off the keys, not the per-address budget of the requests that never needed
         * one).
         *
         * @return true if it may go on; false when refused ({@link #refusal()} is a 429, its headers set)
         */
        public boolean admitAnonymous(final HttpServerRequest request) {
            refusal = null;
            refusedKey = null;
            final RateLimits.Verdict verdict = limits.unauthenticated(host(request.remoteAddress()), System.nanoTime());
            if (verdict.allowed()) {
                return true;
            }
            limitedAddresses.incrementAndGet();
            request.response().putHeader(HttpHeaders.RETRY_AFTER, Long.toString(verdict.retryAfterSeconds()));
            refusal = new ApiError(429, "RATE_LIMITED", "over the rate limit of requests without an API key from this"
                    + " address; retry after " + verdict.retryAfterSeconds() + " s", null);
            return false;
        }

        /**
         * The valid key whose secret an {@code Authorization} header carries: the key remembered for the same header
         * (below), else the header's secret checked in full ({@link #bearer}, {@link KeyRing#find}), and then
         * remembered. The caller still checks the key's budgets and permission.
         *
         * @return the key, or null when there is none: no header, not {@code Bearer <secret>}, an unknown or a revoked
         *         key (not remembered, so such a header is checked in full every time)
         */
        public ApiKey authenticate(final String header) {
            ApiKey key = remembered(header);
            if (key != null) {
                return key;
            }
            final String secret = bearer(header);
            if (secret == null) {
                return null;
            }
            key = keys.find(secret);
            if (key == null || !key.active()) {
                return null;
            }
            remember(header, key);
            return key;
        }

        /**
         * The key of an {@code Authorization} header this gate admitted before, while the key ring is unchanged.
         *
         * <p>Headers are remembered in a table of sets of two, the set chosen by the last characters of the header
         * (random characters of the secret), the older of the two giving way to a new one; an entry is used only if the
         * whole header equals the remembered one, compared in constant time ({@link Secrets#sameText}), so neither a hit
         * nor the comparison tells anything about another key's secret. Only valid keys are remembered, and a reload of
         * the keys (which is how a key is revoked) forgets them all, so the answer is always what {@link KeyRing#find}
         * would give.
         *
         * @return the remembered key, or null: then the header must be checked in full
         */
        private ApiKey remembered(final String header) {
            final Object version = keys.version();
            if (version != rememberedVersion) {
                java.util.Arrays.fill(rememberedHeader, null);
                java.util.Arrays.fill(rememberedKey, null);
                rememberedVersion = version;
                return null;
            }
            if (header == null) {
                return null;
            }
            final int slot = set(header);
            final String newer = rememberedHeader[slot];
            if (newer != null && Secrets.sameText(newer, header)) {
                return rememberedKey[slot];
            }
            final String older = rememberedHeader[slot + 1];
            return older != null && Secrets.sameText(older, header) ? rememberedKey[slot + 1] : null;
        }

        private void remember(final String header, final ApiKey key) {
            final int slot = set(header);
            rememberedHeader[slot + 1] = rememberedHeader[slot];
            rememberedKey[slot + 1] = rememberedKey[slot];
            rememberedHeader[slot] = header;
            rememberedKey[slot] = key;
        }

        /** @return the first slot of the header's set: its last four characters, mixed */
        private static int set(final String header) {
            final int n = header.length();
            int last = 0;
            for (int i = Math.max(0, n - 4); i < n; i++) {
                last = last << 8 | header.charAt(i) & 0xff;
            }
            return (last * 0x9E3779B9 >>> 32 - Integer.numberOfTrailingZeros(REMEMBERED)) & ~1;
        }

        /** @return how to answer the request the last {@link #admit} or {@link #admitAnonymous} refused */
        public ApiError refusal() {
            return refusal;
        }

        /** @return the key of the last refused request when one was found (revoked, over budget, no permission) */
        public String refusedKeyId() {
            return refusedKey == null ? null : refusedKey.keyId();
        }

        /** @param response the response to set headers on, or null when the answer is not an HTTP response */
        private ApiKey refuseWithoutKey(final SocketAddress remote, final HttpServerResponse response, final long now,
                                        final ApiError error, final String challenge) {
            final RateLimits.Verdict verdict = limits.unauthenticated(host(remote), now);
            if (!verdict.allowed()) {
                limitedAddresses.incrementAndGet();
                if (response != null) {
                    response.putHeader(HttpHeaders.RETRY_AFTER, Long.toString(verdict.retryAfterSeconds()));
                }
                refusal = new ApiError(429, "RATE_LIMITED", "too many requests without a valid API key from this"
                        + " address; retry after " + verdict.retryAfterSeconds() + " s", null);
                return null;
            }
            if (response != null) {
                response.putHeader("WWW-Authenticate", challenge);
            }
            refusal = error;
            return null;
        }
    }

    /**
     * @return the secret of an {@code Authorization: Bearer <secret>} header (scheme case-insensitive), or null when
     *         the header is absent or of another shape (public for the benchmark of the per-request work)
     */
    public static String bearer(final String header) {
        if (header == null || header.length() <= BEARER.length()
                || !header.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return null;
        }
        final String secret = header.substring(BEARER.length()).strip();
        if (secret.isEmpty() || secret.indexOf(' ') >= 0) {
            return null;
        }
        return secret;
    }

    private static void headers(final HttpServerResponse response, final RateLimits.Verdict verdict) {
        if (response != null) {
            // the map itself, which the event loop owns until the answer is written: the response's putHeader would
            // take the connection's lock once per header
            rateLimitHeaders(response.headers(), verdict);
        }
    }

    /**
     * Sets {@code RateLimit-Limit}, {@code RateLimit-Remaining} and {@code RateLimit-Reset} of {@code verdict} in
     * {@code headers}, or nothing for a budget that is off (public for the benchmark of the per-request work).
     */
    public static void rateLimitHeaders(final MultiMap headers, final RateLimits.Verdict verdict) {
        if (verdict == RateLimits.UNLIMITED) {
            return;
        }
        headers.set(RATE_LIMIT_LIMIT, decimal(verdict.limit()))
                .set(RATE_LIMIT_REMAINING, decimal(verdict.remaining()))
                .set(RATE_LIMIT_RESET, decimal(verdict.reset()));
    }

    /** @return {@code n} in decimal; the text of 0..{@value #SMALL_NUMBERS} - 1 (the default bursts) made only once */
    static CharSequence decimal(final long n) {
        return n >= 0 && n < SMALL_NUMBERS ? SMALL_NUMBER_TEXT[(int) n] : Long.toString(n);
    }

    private static String host(final SocketAddress address) {
        if (address == null) {
            return "unknown";
        }
        final String host = address.hostAddress();
        return host == null ? address.toString().toLowerCase(Locale.ROOT) : host;
    }
}
