package io.orderentry.testing;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * Random order traffic from a few client threads: limit orders around a mid price on BTCUSD and ETHUSD
 * (some post-only, IOC or FOK, some with a self-trade prevention mode, a few priced outside the 10% price band),
 * market orders, cancels and amends (a new quantity or price) of the client's own orders, and now and then a
 * cancel-all of one of its accounts. It keeps every
 * answer and counts the ones that were not the expected success, so tests can say "every order got 201".
 * Client {@code c} places orders for the accounts {@code load-c-0..3} ({@link #accounts}); against a service that asks
 * for API keys each request carries its account's key ({@link AccountKeys}), and a cancel the key of the account that
 * placed the order.
 */
public final class MixedOrderLoad implements AutoCloseable {

    private static final int ACCOUNTS_PER_CLIENT = 4;

    private final Function<String, ApiClient> clientOf;
    private final ExecutorService clients;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Map<Long, JsonNode> placed = new ConcurrentHashMap<>();
    private final AtomicLong unexpected = new AtomicLong();
    private final ConcurrentLinkedQueue<String> unexpectedAnswers = new ConcurrentLinkedQueue<>();
    private final AtomicLong cancels = new AtomicLong();
    private final AtomicLong amends = new AtomicLong();
    private final AtomicLong cancelAlls = new AtomicLong();

    /**
     * Starts {@code threads} clients at once.
     *
     * @param pauseMillis pause of each client between requests, to keep the volume modest
     */
    public MixedOrderLoad(final ApiClient api, final int threads, final long pauseMillis) {
        this(api, threads, pauseMillis, AccountKeys.NONE);
    }

    /** As {@link #MixedOrderLoad(ApiClient, int, long)}, each account's requests with its key from {@code keys}. */
    public MixedOrderLoad(final ApiClient api, final int threads, final long pauseMillis, final AccountKeys keys) {
        this.clientOf = keys.clients(api);
        this.clients = Executors.newFixedThreadPool(threads);
        for (int c = 0; c < threads; c++) {
            final int client = c;
            clients.submit(() -> run(client, pauseMillis));
        }
    }

    /** @return the accounts {@code threads} clients place orders for */
    public static List<String> accounts(final int threads) {
        final List<String> accounts = new ArrayList<>();
        for (int c = 0; c < threads; c++) {
            for (int a = 0; a < ACCOUNTS_PER_CLIENT; a++) {
                accounts.add(account(c, a));
            }
        }
        return accounts;
    }

    private static String account(final int client, final int index) {
        return "load-" + client + "-" + index;
    }

    /** Waits until at least {@code count} orders were placed or {@code seconds} passed; returns the count. */
    public int awaitPlaced(final int count, final int seconds) throws InterruptedException {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (placed.size() < count && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        return placed.size();
    }

    /** Stops the clients and waits for their last requests. */
    public void stop() throws InterruptedException {
        running.set(false);
        clients.shutdown();
        if (!clients.awaitTermination(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("load clients did not stop");
        }
    }

    /** @return the answer of every order placed with 201, by order id */
    public Map<Long, JsonNode> placed() {
        return placed;
    }

    /** @return placements answered with anything but 201, and cancels with anything but 200 or 409 */
    public long unexpectedAnswers() {
        return unexpected.get();
    }

    /** @return up to ten of those answers, for failure messages */
    public List<String> someUnexpectedAnswers() {
        return new ArrayList<>(unexpectedAnswers).subList(0, Math.min(10, unexpectedAnswers.size()));
    }

    /** @return cancels answered 200 */
    public long cancels() {
        return cancels.get();
    }

    /** @return amends answered 200 */
    public long amends() {
        return amends.get();
    }

    /** @return cancel-alls answered 200 */
    public long cancelAlls() {
        return cancelAlls.get();
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }

    private void run(final int client, final long pauseMillis) {
        final Random random = new Random(31L * client + 7);
        final List<long[]> mine = new ArrayList<>();   // {order id, account index}
        int n = 0;
        while (running.get()) {
            try {
                final int roll = random.nextInt(100);
                if (!mine.isEmpty() && roll < 12) {
                    final long[] order = mine.remove(random.nextInt(mine.size()));
                    cancel(clientOf.apply(account(client, (int) order[1])), order[0]);
                } else if (!mine.isEmpty() && roll < 22) {
                    final long[] order = mine.get(random.nextInt(mine.size()));
                    amend(clientOf.apply(account(client, (int) order[1])), order[0], random);
                } else if (roll < 23) {
                    final int accountIndex = random.nextInt(ACCOUNTS_PER_CLIENT);
                    cancelAll(clientOf.apply(account(client, accountIndex)), account(client, accountIndex));
                    mine.removeIf(order -> order[1] == accountIndex);
                } else {
                    place(client, n++, random, mine);
                }
                if (pauseMillis > 0) {
                    Thread.sleep(pauseMillis);
                }
            } catch (final UncheckedIOException processGone) {
                return;
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private void place(final int client, final int n, final Random random, final List<long[]> mine) {
        final boolean btc = random.nextInt(3) > 0;
        final String symbol = btc ? "BTCUSD" : "ETHUSD";
        final String side = random.nextBoolean() ? "BUY" : "SELL";
        final int accountIndex = random.nextInt(ACCOUNTS_PER_CLIENT);
        final String account = account(client, accountIndex);
        final String quantity = btc ? "0.0" + (1 + random.nextInt(9)) + (random.nextInt(10)) : (1 + random.nextInt(5))
                + "." + random.nextInt(10) + "00";
        final int kind = random.nextInt(100);
        final String body;
        if (kind < 7) {
            body = ApiClient.market(account, symbol, side, quantity);
        } else {
            final int base = btc ? 50_000 : 3_000;
            final int offset = side.equals("BUY") ? -8 + random.nextInt(10) : -2 + random.nextInt(10);
            final String price = (base + offset) + "." + (random.nextBoolean() ? "00" : "50");
            final String extra = kind < 12 ? "\"timeInForce\":\"IOC\"" : kind < 15 ? "\"timeInForce\":\"FOK\""
                    : kind < 22 ? "\"postOnly\":true"
                    : kind < 37 ? "\"selfTradePrevention\":\"" + STP_MODES[random.nextInt(STP_MODES.length)] + "\""
                    : null;
            final String priced = kind >= 98 ? (side.equals("BUY") ? base * 12 / 10 : base * 8 / 10) + ".00" : price;
            body = ApiClient.limit(account, "c" + client + "-" + n, symbol, side, priced, quantity, extra);
        }
        final ApiClient.Answer answer = clientOf.apply(account).post("/api/v1/orders", body);
        if (answer.status() != 201) {
            unexpected(answer);
            return;
        }
        final long id = answer.json().get("orderId").asLong();
        placed.put(id, answer.json());
        final String status = answer.json().get("status").asText();
        if (status.equals("NEW") || status.equals("PARTIALLY_FILLED")) {
            mine.add(new long[] {id, accountIndex});
        }
    }

    private static final String[] STP_MODES = {"EXPIRE_TAKER", "EXPIRE_MAKER", "EXPIRE_BOTH", "NONE"};

    /** A new total quantity or a new price near the touch; an order that filled meanwhile is 409 or 422. */
    private void amend(final ApiClient api, final long orderId, final Random random) {
        final JsonNode placedOrder = placed.get(orderId);
        final boolean btc = placedOrder.get("symbol").asText().equals("BTCUSD");
        final String body;
        if (random.nextBoolean()) {
            body = "{\"quantity\":\"" + (btc ? "0.0" + (1 + random.nextInt(9)) : (1 + random.nextInt(5)) + ".000") + "\"}";
        } else {
            final int base = btc ? 50_000 : 3_000;
            final boolean buy = placedOrder.get("side").asText().equals("BUY");
            body = "{\"price\":\"" + (base + (buy ? -8 + random.nextInt(10) : -2 + random.nextInt(10))) + ".00\"}";
        }
        final ApiClient.Answer answer = api.patch("/api/v1/orders/" + orderId, body);
        if (answer.status() == 200) {
            amends.incrementAndGet();
        } else if (answer.status() != 409 && !"INVALID_QUANTITY".equals(answer.errorCode())) {
            unexpected(answer);
        }
    }

    private void cancelAll(final ApiClient api, final String account) {
        final ApiClient.Answer answer = api.delete("/api/v1/orders?accountId=" + account);
        if (answer.status() == 200) {
            cancelAlls.incrementAndGet();
        } else {
            unexpected(answer);
        }
    }

    private void cancel(final ApiClient api, final long orderId) {
        final ApiClient.Answer answer = api.delete("/api/v1/orders/" + orderId);
        if (answer.status() == 200) {
            cancels.incrementAndGet();
        } else if (answer.status() != 409) {
            unexpected(answer);
        }
    }

    private void unexpected(final ApiClient.Answer answer) {
        unexpected.incrementAndGet();
        unexpectedAnswers.add(answer.status() + " " + answer.body());
    }
}
