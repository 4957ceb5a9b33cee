package io.orderentry.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.orderentry.testing.ApiClient.Answer;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Concurrent clients placing crossing orders near one price, remembering every order that was
 * answered 2xx, for tests that stop the service under load and then check nothing answered was lost.
 * Client {@code c} places the orders of account {@code acct-c} ({@link #accounts}); against a service that asks for API
 * keys it sends that account's key ({@link AccountKeys}).
 */
public final class OrderLoad implements AutoCloseable {

    private final Map<Long, JsonNode> answered = new ConcurrentHashMap<>();
    private final Map<String, Long> byClientOrderId = new ConcurrentHashMap<>();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final ExecutorService clients;

    private OrderLoad(final ApiClient api, final int clientCount, final AccountKeys keys) {
        clients = Executors.newFixedThreadPool(clientCount);
        final java.util.function.Function<String, ApiClient> clientOf = keys.clients(api);
        for (int c = 0; c < clientCount; c++) {
            final int client = c;
            final ApiClient mine = clientOf.apply(account(client));
            clients.submit(() -> placeUntilStopped(mine, client));
        }
    }

    /** Starts {@code clientCount} clients against {@code api}, a service with {@code ORDERS_AUTH=none}. */
    public static OrderLoad start(final ApiClient api, final int clientCount) {
        return new OrderLoad(api, clientCount, AccountKeys.NONE);
    }

    /** Starts {@code clientCount} clients against {@code api}, each sending its account's key from {@code keys}. */
    public static OrderLoad start(final ApiClient api, final int clientCount, final AccountKeys keys) {
        return new OrderLoad(api, clientCount, keys);
    }

    /** @return the accounts {@code clientCount} clients place orders for, one each */
    public static List<String> accounts(final int clientCount) {
        return java.util.stream.IntStream.range(0, clientCount).mapToObj(OrderLoad::account).toList();
    }

    private static String account(final int client) {
        return "acct-" + client;
    }

    /** Waits until at least {@code count} orders were answered, or 30 s passed. */
    public void awaitAnswered(final int count) throws InterruptedException {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (answered.size() < count && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
    }

    /** @return the answered orders by id, as answered */
    public Map<Long, JsonNode> answered() {
        return answered;
    }

    /** @return order id by clientOrderId, for the answered orders that carried one */
    public Map<String, Long> byClientOrderId() {
        return byClientOrderId;
    }

    /** Stops the clients and waits for them. */
    @Override
    public void close() throws InterruptedException {
        running.set(false);
        clients.shutdown();
        assertTrue(clients.awaitTermination(60, TimeUnit.SECONDS), "load clients did not stop");
    }

    /** Asserts {@code now} is the order answered as {@code before}, or the same order having traded since. */
    public static void assertSameOrSuccessor(final JsonNode before, final JsonNode now) {
        final String id = before.get("orderId").asText();
        for (final String field : new String[] {"clientOrderId", "accountId", "symbol", "side", "type", "timeInForce",
                "price", "quantity", "createdAt"}) {
            assertEquals(before.get(field), now.get(field), field + " of order " + id);
        }
        final String status = before.get("status").asText();
        if (status.equals("NEW") || status.equals("PARTIALLY_FILLED")) {
            assertTrue(now.get("filledQuantity").decimalValue().compareTo(before.get("filledQuantity").decimalValue()) >= 0);
            for (int i = 0; i < before.get("fills").size(); i++) {
                assertEquals(before.get("fills").get(i), now.get("fills").get(i), "fill " + i + " of order " + id);
            }
        } else {
            for (final String field : new String[] {"status", "filledQuantity", "remainingQuantity", "averagePrice",
                    "rejectReason", "fills", "sequence"}) {
                assertEquals(before.get(field), now.get(field), field + " of final order " + id);
            }
        }
    }

    /** @return a POST body that repeats an answered LIMIT order exactly */
    public static String retryBody(final JsonNode order) {
        return ApiClient.limit(order.get("accountId").asText(), order.get("clientOrderId").asText(),
                order.get("symbol").asText(), order.get("side").asText(), order.get("price").asText(),
                order.get("quantity").asText(), null);
    }

    private void placeUntilStopped(final ApiClient api, final int client) {
        final Random random = new Random(client);
        int n = 0;
        while (running.get()) {
            final String clientOrderId = "k" + client + "-" + n++;
            final String side = random.nextBoolean() ? "BUY" : "SELL";
            final boolean market = random.nextInt(10) == 0;
            final String quantity = "0.0" + (1 + random.nextInt(9));
            final String body = market
                    ? ApiClient.market(account(client), "BTCUSD", side, quantity)
                    : ApiClient.limit(account(client), clientOrderId, "BTCUSD", side,
                    (side.equals("BUY") ? 49_990 + random.nextInt(15) : 49_995 + random.nextInt(15)) + ".00",
                    quantity, null);
            try {
                final Answer answer = api.post("/api/v1/orders", body);
                if (answer.status() == 201) {
                    final long id = answer.json().get("orderId").asLong();
                    answered.put(id, answer.json());
                    if (!market) {
                        byClientOrderId.put(clientOrderId, id);
                    }
                }
            } catch (final UncheckedIOException stopped) {
                return;
            }
        }
    }
}
