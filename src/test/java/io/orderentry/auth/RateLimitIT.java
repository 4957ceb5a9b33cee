package io.orderentry.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.orderentry.testing.ApiClient;
import io.orderentry.testing.ApiClient.Answer;
import io.orderentry.testing.ServiceProcess;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rate limits against the real jar: one key held over its order budget is answered 429 with the headers while another
 * key's orders all go through, a refused order never reaches the engine, and requests without a key are limited per
 * address.
 */
class RateLimitIT {

    private static final String ORDER = "{\"symbol\":\"BTCUSD\",\"side\":\"BUY\",\"type\":\"LIMIT\",\"price\":\"100.00\","
            + "\"quantity\":\"0.5\"}";

    @TempDir
    Path dir;

    @Test
    void aKeyOverItsOrderBudgetGets429WithHeadersWhileAnotherKeyIsUnaffectedAndNothingRefusedIsPlaced()
            throws Exception {
        final Path keys = dir.resolve("keys");
        final String flooder = ServiceProcess.createKey(keys, "flooder");
        final String calm = ServiceProcess.createKey(keys, "calm");
        try (ServiceProcess service = ServiceProcess.start(dir, Map.of("ORDERS_AUTH", "keys",
                "ORDERS_AUTH_KEYS_FILE", keys.toString(), "ORDERS_RATE_LIMIT_ORDERS_PER_SECOND", "20",
                "ORDERS_RATE_LIMIT_ORDERS_BURST", "20"), "limits")) {
            final ApiClient flood = service.client().withKey(flooder);
            final ApiClient other = service.client().withKey(calm);
            final AtomicInteger created = new AtomicInteger();
            final AtomicInteger limited = new AtomicInteger();
            final AtomicInteger otherCreated = new AtomicInteger();
            final ExecutorService threads = Executors.newFixedThreadPool(4);
            try {
                final List<Future<?>> senders = new java.util.ArrayList<>();
                for (int t = 0; t < 3; t++) {
                    senders.add(threads.submit(() -> {
                        for (int i = 0; i < 100; i++) {
                            final Answer answer = flood.post("/api/v1/orders", ORDER);
                            if (answer.status() == 201) {
                                created.incrementAndGet();
                            } else {
                                assertEquals(429, answer.status(), answer.body());
                                assertEquals("RATE_LIMITED", answer.errorCode());
                                final long retryAfter = Long.parseLong(answer.header("Retry-After"));
                                assertTrue(retryAfter >= 1, "Retry-After " + retryAfter);
                                assertEquals("20", answer.header("RateLimit-Limit"));
                                assertEquals("0", answer.header("RateLimit-Remaining"));
                                assertNotNull(answer.header("RateLimit-Reset"));
                                limited.incrementAndGet();
                            }
                        }
                        return null;
                    }));
                }
                senders.add(threads.submit(() -> {
                    for (int i = 0; i < 15; i++) {
                        final Answer answer = other.post("/api/v1/orders", ORDER);
                        assertEquals(201, answer.status(), "the other key was limited: " + answer.body());
                        otherCreated.incrementAndGet();
                        Thread.sleep(60);
                    }
                    return null;
                }));
                for (final Future<?> sender : senders) {
                    sender.get();
                }
            } finally {
                threads.shutdownNow();
            }
            assertTrue(limited.get() > 100, "the flooding key was limited " + limited.get() + " times of 300");
            assertEquals(15, otherCreated.get());
            assertEquals(created.get() + otherCreated.get(), placed(service),
                    "every order the engine placed was answered 201; none refused with 429 reached it");
            assertTrue(metric(service, "orders_rate_limited_total{budget=\"orders\"}") >= limited.get());
            final StringBuilder trail = new StringBuilder();
            try (java.util.stream.Stream<Path> files = java.nio.file.Files.list(dir.resolve("audit"))) {
                for (final Path file : files.filter(java.nio.file.Files::isRegularFile).toList()) {
                    trail.append(java.nio.file.Files.readString(file));
                }
            }
            assertTrue(trail.indexOf("\"PLACE\"") >= 0, "the placed orders are audited");
            assertEquals(-1, trail.indexOf("RATE_LIMITED"), "no 429 went through the input ring, not even for the audit");
        }
    }

    @Test
    void requestsWithoutAKeyAreLimitedPerAddressAndHealthIsNot() {
        final Path keys = dir.resolve("keys");
        ServiceProcess.createKey(keys, "someone");
        try (ServiceProcess service = ServiceProcess.start(dir, Map.of("ORDERS_AUTH", "keys",
                "ORDERS_AUTH_KEYS_FILE", keys.toString(), "ORDERS_RATE_LIMIT_ADDRESS_PER_SECOND", "1",
                "ORDERS_RATE_LIMIT_ADDRESS_BURST", "5"), "address")) {
            spendTheAddressBudget(service, "");
            final Answer guess = service.client().withKey("nobody").get("/api/v1/orders");
            assertEquals(429, guess.status(), "a key guess from a limited address is limited too: " + guess.body());
            assertEquals(200, service.client().get("/health").status());
            assertEquals(200, service.client().get("/ready").status());
        }
    }

    @Test
    void withAuthenticationOffRequestsAreStillLimitedPerAddressAndOrdersAreNot() {
        try (ServiceProcess service = ServiceProcess.start(dir, Map.of("ORDERS_AUTH", "none",
                "ORDERS_RATE_LIMIT_ADDRESS_PER_SECOND", "1", "ORDERS_RATE_LIMIT_ADDRESS_BURST", "5"), "none")) {
            spendTheAddressBudget(service, " with ORDERS_AUTH=none");
            awaitOneToken();   // an open /metrics spends the same address budget (README, "What one client can hold")
            assertTrue(metric(service, "orders_rate_limited_total{budget=\"address\"}") >= 3);
            final Answer placed = service.client().post("/api/v1/orders", ApiClient.limit("acct-1", "none-1",
                    "BTCUSD", "BUY", "50000.00", "0.1", null));
            assertEquals(201, placed.status(), "order endpoints take no address token (README, \"Accounts and API"
                    + " keys\"): " + placed.body());
            assertEquals(200, service.client().get("/health").status());
        }
    }

    /**
     * Sends 10 reads without a key against an address budget of 5 (+1 a second): 5 to 7 pass, and the last is refused
     * 429 RATE_LIMITED with Retry-After.
     */
    private static void spendTheAddressBudget(final ServiceProcess service, final String setting) {
        int ok = 0;
        Answer last = null;
        for (int i = 0; i < 10; i++) {
            last = service.client().get("/api/v1/orderbook/BTCUSD");
            if (last.status() == 200) {
                ok++;
            }
        }
        assertTrue(ok >= 5 && ok <= 7, ok + " of 10 passed a budget of 5 (+1/s)" + setting);
        assertEquals(429, last.status(), last.body());
        assertEquals("RATE_LIMITED", last.errorCode());
        assertNotNull(last.header("Retry-After"));
    }

    /** Waits out more than one token's refill of a budget of 1 a second. */
    private static void awaitOneToken() {
        try {
            Thread.sleep(1_500);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static double placed(final ServiceProcess service) {
        return metric(service, "orders_commands_total{result=\"PLACED\"}");
    }

    private static double metric(final ServiceProcess service, final String series) {
        for (final String line : service.client().get("/metrics").body().split("\n")) {
            if (line.startsWith(series + " ")) {
                return Double.parseDouble(line.substring(series.length() + 1).trim());
            }
        }
        return 0;
    }
}
