package io.orderentry.http.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.orderentry.testing.ApiClient.Answer;
import io.orderentry.testing.ApiClient;
import io.orderentry.testing.Metrics;
import io.orderentry.testing.RunningService;
import io.orderentry.testing.StreamClient;
import io.vertx.core.Vertx;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Thousands of random orders and cancels from several threads; a stream client subscribed from the
 * start applies its snapshots and updates, and must end with exactly the REST book, which must equal
 * a reference book built from the API answers alone. Sequences must have no gaps.
 */
class StreamFollowsRandomOrdersTest {

    private static final String[] SYMBOLS = {"BTCUSD", "ETHUSD"};
    private static final int THREADS = 4;
    private static final int COMMANDS_PER_THREAD = 1_000;

    @TempDir
    Path dir;

    private final Map<String, BigDecimal> reference = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> tradeCounts = new ConcurrentHashMap<>();
    private final Map<String, BigDecimal> volumes = new ConcurrentHashMap<>();
    private final AtomicLong lastSequence = new AtomicLong();

    @Test
    void clientApplyingSnapshotAndUpdatesEndsWithTheRestBookAfterRandomOrders() throws Exception {
        final Vertx clients = Vertx.vertx();
        try (RunningService service = RunningService.start(dir, Map.of());
             StreamClient stream = StreamClient.connect(clients, service.port())) {
            for (final String symbol : SYMBOLS) {
                for (final String channel : new String[] {"book", "trades", "ticker"}) {
                    stream.subscribe(channel, symbol);
                    stream.awaitType("snapshot");
                }
            }
            final ExecutorService pool = Executors.newFixedThreadPool(THREADS);
            final List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                final int seed = t;
                done.add(pool.submit(() -> trade(service.client(), new Random(seed))));
            }
            for (final Future<?> each : done) {
                each.get();
            }
            pool.shutdown();

            final ApiClient api = service.client();
            awaitQuiescence(api);
            try (StreamClient late = StreamClient.connect(clients, service.port())) {
                for (final String symbol : SYMBOLS) {
                    late.subscribe("book", symbol);
                    final JsonNode snapshot = late.awaitType("snapshot");
                    final long finalSequence = snapshot.get("sequence").asLong();
                    final JsonNode rest = awaitRestBook(api, stream, symbol, finalSequence);
                    for (final String side : new String[] {"BUY", "SELL"}) {
                        final Map<BigDecimal, BigDecimal> restSide = levels(rest.get(side.equals("BUY") ? "bids" : "asks"));
                        final Map<BigDecimal, BigDecimal> lateSide = levels(snapshot.get(side.equals("BUY") ? "bids" : "asks"));
                        assertEquals(restSide, normalized(stream.book(symbol, side)), symbol + " " + side + ": stream vs REST");
                        assertEquals(restSide, lateSide, symbol + " " + side + ": late snapshot vs REST");
                        assertEquals(referenceSide(symbol, side), restSide, symbol + " " + side + ": REST vs API answers");
                    }
                    assertTickerAndTrades(api, stream, symbol, rest);
                }
            }
            assertEquals(List.of(), stream.gaps(), "sequences have no gaps");
            assertEquals(List.of(), stream.checksumMismatches(), "every book checksum matches the client's own book");
            assertTrue(stream.checksumsChecked() > 10, "book messages were checked: " + stream.checksumsChecked());
            assertTrue(tradeCounts.values().stream().mapToLong(AtomicLong::get).sum() > 500, "the orders traded");
        } finally {
            clients.close().toCompletionStage().toCompletableFuture().join();
        }
    }

    private void trade(final ApiClient api, final Random random) {
        final List<Long> placed = new ArrayList<>();
        for (int i = 0; i < COMMANDS_PER_THREAD; i++) {
            if (!placed.isEmpty() && random.nextInt(100) < 15) {
                final Answer answer = api.delete("/api/v1/orders/" + placed.get(random.nextInt(placed.size())));
                if (answer.status() == 200) {
                    canceled(answer.json());
                } else {
                    assertEquals("ORDER_NOT_OPEN", answer.errorCode(), answer.body());
                }
                continue;
            }
            final String symbol = SYMBOLS[random.nextInt(SYMBOLS.length)];
            final boolean buy = random.nextBoolean();
            final String quantity = new BigDecimal(1 + random.nextInt(500)).movePointLeft(symbol.equals("BTCUSD") ? 4 : 3).toPlainString();
            final int kind = random.nextInt(100);
            final String body;
            if (kind < 5) {
                body = ApiClient.market("acct-" + random.nextInt(10), symbol, buy ? "BUY" : "SELL", quantity);
            } else {
                final String price = new BigDecimal((buy ? 9_900 : 10_000) + random.nextInt(150)).movePointLeft(2).toPlainString();
                final String extra = kind < 15 ? "\"timeInForce\":\"IOC\"" : kind < 20 ? "\"timeInForce\":\"FOK\""
                        : kind < 25 ? "\"postOnly\":true" : null;
                body = ApiClient.limit("acct-" + random.nextInt(10), null, symbol, buy ? "BUY" : "SELL", price, quantity, extra);
            }
            final Answer answer = api.post("/api/v1/orders", body);
            assertEquals(201, answer.status(), answer.body());
            placed(answer.json());
            placed.add(answer.json().get("orderId").asLong());
        }
    }

    private void placed(final JsonNode order) {
        final String symbol = order.get("symbol").asText();
        final String side = order.get("side").asText();
        BigDecimal takerFilled = BigDecimal.ZERO;
        for (final JsonNode fill : order.get("fills")) {
            if ("TAKER".equals(fill.get("liquidity").asText())) {
                final BigDecimal quantity = new BigDecimal(fill.get("quantity").asText());
                add(symbol, "BUY".equals(side) ? "SELL" : "BUY", fill.get("price").asText(), quantity.negate());
                takerFilled = takerFilled.add(quantity);
                tradeCounts.computeIfAbsent(symbol, k -> new AtomicLong()).incrementAndGet();
                volumes.merge(symbol, quantity, BigDecimal::add);
            }
        }
        final boolean rests = "LIMIT".equals(order.get("type").asText()) && "GTC".equals(order.get("timeInForce").asText())
                && !"REJECTED".equals(order.get("status").asText());
        if (rests) {
            add(symbol, side, order.get("price").asText(), new BigDecimal(order.get("quantity").asText()).subtract(takerFilled));
        }
        lastSequence.accumulateAndGet(order.get("sequence").asLong(), Math::max);
    }

    private void canceled(final JsonNode order) {
        add(order.get("symbol").asText(), order.get("side").asText(), order.get("price").asText(),
                new BigDecimal(order.get("filledQuantity").asText()).subtract(new BigDecimal(order.get("quantity").asText())));
        lastSequence.accumulateAndGet(order.get("sequence").asLong(), Math::max);
    }

    private void add(final String symbol, final String side, final String price, final BigDecimal quantity) {
        reference.merge(symbol + ":" + side + ":" + new BigDecimal(price).stripTrailingZeros().toPlainString(), quantity,
                BigDecimal::add);
    }

    private Map<BigDecimal, BigDecimal> referenceSide(final String symbol, final String side) {
        final Map<BigDecimal, BigDecimal> levels = new TreeMap<>();
        reference.forEach((key, quantity) -> {
            final String[] parts = key.split(":");
            if (parts[0].equals(symbol) && parts[1].equals(side) && quantity.signum() != 0) {
                assertTrue(quantity.signum() > 0, key + " went negative: " + quantity);
                levels.put(new BigDecimal(parts[2]), quantity.stripTrailingZeros());
            }
        });
        return levels;
    }

    /** Waits until the consumer has applied the last event any answer mentioned. */
    private void awaitQuiescence(final ApiClient api) {
        final long target = lastSequence.get();
        awaitCondition(() -> Metrics.value(api, "orders_marketdata_last_event_sequence") >= target,
                "market data reaches event " + target);
    }

    private static JsonNode awaitRestBook(final ApiClient api, final StreamClient stream, final String symbol,
                                          final long sequence) {
        final JsonNode[] book = new JsonNode[1];
        awaitCondition(() -> {
            book[0] = api.get("/api/v1/orderbook/" + symbol + "?depth=1000").json();
            return book[0].get("sequence").asLong() == sequence && stream.sequence("book", symbol) == sequence;
        }, symbol + " REST book and stream at sequence " + sequence);
        return book[0];
    }

    private void assertTickerAndTrades(final ApiClient api, final StreamClient stream, final String symbol,
                                       final JsonNode rest) {
        final JsonNode ticker = stream.ticker(symbol);
        assertEquals(rest.get("bids").get(0), ticker.get("bestBid"), symbol + " best bid");
        assertEquals(rest.get("asks").get(0), ticker.get("bestAsk"), symbol + " best ask");
        assertEquals(0, volumes.get(symbol).compareTo(new BigDecimal(ticker.get("volume24h").asText())), symbol + " volume");

        final long trades = tradeCounts.get(symbol).get();
        final List<JsonNode> streamed = stream.trades(symbol);
        assertEquals(trades, streamed.size(), symbol + ": every trade streamed once");
        final JsonNode restTrades = api.get("/api/v1/trades/" + symbol + "?limit=1000").json();
        assertEquals(Math.min(trades, 1000), restTrades.size());
        for (int i = 0; i < restTrades.size(); i++) {
            assertEquals(restTrades.get(i), streamed.get(i), symbol + " trade " + i + " newest first");
        }
        assertEquals(streamed.get(0), ticker.get("lastTrade"));
    }

    private static Map<BigDecimal, BigDecimal> levels(final JsonNode array) {
        final Map<BigDecimal, BigDecimal> levels = new TreeMap<>();
        array.forEach(level -> levels.put(new BigDecimal(level.get(0).asText()).stripTrailingZeros(),
                new BigDecimal(level.get(1).asText()).stripTrailingZeros()));
        return levels;
    }

    private static Map<BigDecimal, BigDecimal> normalized(final Map<BigDecimal, BigDecimal> side) {
        final Map<BigDecimal, BigDecimal> levels = new TreeMap<>();
        side.forEach((price, quantity) -> levels.put(price.stripTrailingZeros(), quantity.stripTrailingZeros()));
        return levels;
    }

    private static void awaitCondition(final java.util.function.BooleanSupplier condition, final String what) {
        final long deadline = System.nanoTime() + StreamClient.PATIENCE.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("gave up waiting: " + what);
            }
            try {
                Thread.sleep(10);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }
}
