package io.orderentry.http.stream;

import static io.orderentry.testing.ApiClient.limit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.orderentry.testing.ApiClient.Answer;
import io.orderentry.testing.ApiClient;
import io.orderentry.testing.ServiceProcess;
import io.orderentry.testing.StreamClient;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The private {@code orders} channel of the real jar with authentication on (ORDERS_AUTH=keys), keys made by the
 * keys CLI as an operator would: an account's resting order filled by another account's order reaches its owner
 * without polling, each account sees only its own orders, a bad key is answered with its code and the connection
 * closed, and the upgrade's Authorization header works as well as the message's apiKey.
 */
class OrderStreamIT {

    @TempDir
    static Path dir;
    private static ServiceProcess service;
    private static final Vertx CLIENTS = Vertx.vertx();
    private static String aliceTrade;
    private static String aliceRead;
    private static String bobTrade;
    private static String admin;

    @BeforeAll
    static void start() {
        final Path keys = dir.resolve("keys");
        aliceTrade = ServiceProcess.createKey(keys, "alice");
        aliceRead = ServiceProcess.createKey(keys, "alice", "--read-only");
        bobTrade = ServiceProcess.createKey(keys, "bob");
        admin = ServiceProcess.createKey(keys, "ops", "--admin");
        service = ServiceProcess.start(dir, Map.of("ORDERS_AUTH", "keys", "ORDERS_AUTH_KEYS_FILE", keys.toString()),
                "service");
    }

    @AfterAll
    static void stop() {
        if (service != null) {
            service.close();
        }
        CLIENTS.close().toCompletionStage().toCompletableFuture().join();
    }

    @Test
    void aRestingOrderFilledByAnotherAccountReachesItsOwnerAsAcceptedThenFillsAndTheTakerSeesOnlyItsOwn() {
        final ApiClient alice = new ApiClient(service.port(), aliceTrade);
        final ApiClient bob = new ApiClient(service.port(), bobTrade);
        try (StreamClient a = StreamClient.connect(CLIENTS, service.port());
             StreamClient b = StreamClient.connect(CLIENTS, service.port())) {
            a.subscribeOrders(aliceRead);       // a read key may follow its account
            final JsonNode snapshot = a.awaitOrders("snapshot");
            assertEquals("alice", snapshot.get("accountId").asText());
            final long start = snapshot.get("sequence").asLong();
            b.subscribeOrders(bobTrade);
            b.awaitOrders("snapshot");

            final long resting = place(alice, limit("alice", "rest-1", "ETHUSD", "SELL", "3000.00", "1", null));
            place(bob, limit("bob", null, "ETHUSD", "BUY", "3000.00", "0.4", null));
            place(bob, limit("bob", null, "ETHUSD", "BUY", "3001.00", "0.6", "\"timeInForce\":\"IOC\""));

            final JsonNode accepted = a.awaitOrders("update");
            assertEquals(start + 1, accepted.get("sequence").asLong());
            assertEquals("ACCEPTED", accepted.get("event").asText());
            assertEquals(resting, StreamClient.orderOf(accepted).get("orderId").asLong());
            assertEquals("NEW", StreamClient.orderOf(accepted).get("status").asText());
            final JsonNode first = a.awaitOrders("update");
            assertEquals(start + 2, first.get("sequence").asLong());
            assertMakerFill(first, "0.400", "PARTIALLY_FILLED", "0.400");
            final JsonNode second = a.awaitOrders("update");
            assertEquals(start + 3, second.get("sequence").asLong());
            assertMakerFill(second, "0.600", "FILLED", "1.000");
            assertEquals(alice.get("/api/v1/orders/" + resting).json(), StreamClient.orderOf(second),
                    "the last update is the order as REST answers it");
            assertEquals(List.of(), a.gaps());

            for (int k = 0; k < 4; k++) {
                b.awaitOrders("update");
            }
            final List<JsonNode> bobs = b.messages().stream()
                    .filter(m -> "orders".equals(m.path("channel").asText()) && m.has("event")).toList();
            assertEquals(List.of("ACCEPTED", "FILL", "ACCEPTED", "FILL"),
                    bobs.stream().map(m -> m.get("event").asText()).toList());
            assertTrue(bobs.stream().allMatch(m -> "bob".equals(StreamClient.orderOf(m).get("accountId").asText())
                    && "bob".equals(m.get("accountId").asText())), "bob sees only his own orders: " + bobs);
            assertTrue(bobs.stream().filter(m -> m.has("fill"))
                    .allMatch(m -> "TAKER".equals(m.get("fill").get("liquidity").asText())));
            assertEquals(List.of(), b.gaps());
        }
    }

    @Test
    void aBadKeyIsAnsweredWithItsCodeAndTheConnectionIsClosed() {
        assertRefused(s -> s.subscribeOrders("oe_not-a-key"), "INVALID_API_KEY");
        assertRefused(s -> s.subscribeOrders(null), "UNAUTHENTICATED");
        assertRefused(s -> s.subscribeOrders(admin), "PERMISSION_DENIED");
        assertRefused(s -> s.send("{\"op\":\"subscribe\",\"channel\":\"orders\",\"apiKey\":\"" + aliceRead
                + "\",\"accountId\":\"bob\"}"), "ACCOUNT_MISMATCH");
        awaitAudited("subscribe orders on /api/v1/stream: the API key is not known");
    }

    @Test
    void theAuthorizationHeaderOfTheUpgradeAuthenticatesTheSubscriptionAndMarketDataNeedsNoKey() {
        try (StreamClient stream = StreamClient.connect(CLIENTS, service.port(),
                Map.of("Authorization", "Bearer " + bobTrade))) {
            stream.subscribeOrders(null);
            assertEquals("bob", stream.awaitOrders("snapshot").get("accountId").asText());
        }
        try (StreamClient stream = StreamClient.connect(CLIENTS, service.port(),
                Map.of("Authorization", "Bearer oe_unknown"))) {
            stream.subscribe("book", "BTCUSD");
            assertEquals("book", stream.awaitType("snapshot").get("channel").asText(), "market data stays public");
            stream.subscribeOrders(null);
            assertEquals("INVALID_API_KEY", stream.awaitType("error").get("error").get("code").asText());
            assertEquals(StreamSession.REFUSED, stream.awaitClosed());
        }
    }

    /** Waits until a record of the audit trail contains {@code text}: failed authentications are audited. */
    private static void awaitAudited(final String text) {
        final long deadline = System.nanoTime() + StreamClient.PATIENCE.toNanos();
        while (true) {
            try (Stream<Path> files = Files.walk(dir.resolve("audit"))) {
                for (final Path file : files.filter(Files::isRegularFile).toList()) {
                    if (Files.readString(file).contains(text)) {
                        return;
                    }
                }
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("no audit record contains '" + text + "'");
                }
                Thread.sleep(50);
            } catch (final IOException e) {
                throw new UncheckedIOException(e);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    private static void assertRefused(final Consumer<StreamClient> subscribe, final String code) {
        try (StreamClient stream = StreamClient.connect(CLIENTS, service.port())) {
            subscribe.accept(stream);
            final JsonNode error = stream.awaitType("error");
            assertEquals(code, error.get("error").get("code").asText(), error.toString());
            assertEquals(StreamSession.REFUSED, stream.awaitClosed(), code + " closes the connection");
        }
    }

    private static void assertMakerFill(final JsonNode update, final String quantity, final String status,
                                        final String filled) {
        assertEquals("FILL", update.get("event").asText(), update.toString());
        assertEquals("MAKER", update.get("fill").get("liquidity").asText());
        assertEquals("3000.00", update.get("fill").get("price").asText());
        assertEquals(quantity, update.get("fill").get("quantity").asText());
        assertTrue(update.get("fill").get("tradeId").asLong() > 0);
        assertEquals(status, StreamClient.orderOf(update).get("status").asText());
        assertEquals(filled, StreamClient.orderOf(update).get("filledQuantity").asText());
    }

    private static long place(final ApiClient client, final String body) {
        final Answer answer = client.post("/api/v1/orders", body);
        assertEquals(201, answer.status(), answer.body());
        return answer.json().get("orderId").asLong();
    }
}
