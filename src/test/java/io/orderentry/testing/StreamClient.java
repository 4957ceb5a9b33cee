package io.orderentry.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.http.WebSocketConnectOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;

/**
 * A WebSocket client of {@code /api/v1/stream} for tests. It keeps every message, and like a real
 * client applies book snapshots and updates per symbol, collects trades and the latest ticker, follows the open
 * orders of the private {@code orders} channel, and notes any gap in a channel's sequence. Messages arrive on a
 * Vert.x event loop; the test thread reads through the synchronized accessors.
 */
public final class StreamClient implements AutoCloseable {

    /** How long a test waits for a message before it fails instead of hanging. */
    public static final Duration PATIENCE = Duration.ofSeconds(30);
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final WebSocketClient client;
    private final WebSocket socket;
    private final List<JsonNode> messages = new ArrayList<>();
    private final Map<String, Long> sequences = new HashMap<>();
    private final Map<String, TreeMap<BigDecimal, BigDecimal>> books = new HashMap<>();
    private final Map<String, List<JsonNode>> trades = new HashMap<>();
    private final Map<String, JsonNode> tickers = new HashMap<>();
    private final Map<String, TreeMap<Long, JsonNode>> openOrders = new HashMap<>();
    private final List<String> gaps = new ArrayList<>();
    private final List<String> checksumMismatches = new ArrayList<>();
    private int checksums;
    private int cursor;
    private boolean closed;
    private Short closeStatus;

    private StreamClient(final WebSocketClient client, final WebSocket socket) {
        this.client = client;
        this.socket = socket;
        socket.textMessageHandler(this::received);
        socket.closeHandler(ignored -> closed());
    }

    /** Connects to the service's stream; fails if the upgrade is refused. */
    public static StreamClient connect(final Vertx vertx, final int port) {
        return connect(vertx.createWebSocketClient(), port);
    }

    /**
     * Connects offering permessage-deflate, as browsers do; Vert.x's client then inflates compressed messages,
     * keeping its window between them (the extension's default).
     */
    public static StreamClient connectCompressed(final Vertx vertx, final int port) {
        return connect(vertx.createWebSocketClient(new WebSocketClientOptions().setTryUsePerMessageCompression(true)),
                port);
    }

    /** Connects with extra headers on the upgrade request (an {@code Authorization: Bearer} key, say). */
    public static StreamClient connect(final Vertx vertx, final int port, final Map<String, String> headers) {
        final WebSocketConnectOptions options = new WebSocketConnectOptions().setHost("127.0.0.1").setPort(port)
                .setURI("/api/v1/stream");
        headers.forEach(options::addHeader);
        final WebSocketClient client = vertx.createWebSocketClient();
        return new StreamClient(client, await(client.connect(options)));
    }

    private static StreamClient connect(final WebSocketClient client, final int port) {
        return new StreamClient(client, await(client.connect(port, "127.0.0.1", "/api/v1/stream")));
    }

    /** @return every message received so far, in order */
    public synchronized List<JsonNode> messages() {
        return new ArrayList<>(messages);
    }

    /** @return the failure of a connection attempt that should be refused */
    public static Throwable refusedConnection(final Vertx vertx, final int port) {
        final WebSocketClient client = vertx.createWebSocketClient();
        try {
            client.connect(port, "127.0.0.1", "/api/v1/stream").toCompletionStage().toCompletableFuture()
                    .get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
            throw new AssertionError("the connection was accepted");
        } catch (final ExecutionException e) {
            return e.getCause();
        } catch (final InterruptedException | TimeoutException e) {
            throw new IllegalStateException(e);
        } finally {
            client.close();
        }
    }

    /** Stops reading from the connection, so that the server's writes back up behind it; see {@link #resume}. */
    public void pause() {
        socket.pause();
    }

    /** Reads again after {@link #pause}. */
    public void resume() {
        socket.resume();
    }

    /**
     * Connects with a small receive buffer, so that a {@link #pause}d client backs the server's writes up after a few
     * KiB rather than after the kernel's autotuned megabytes.
     */
    public static StreamClient connectWithSmallReceiveBuffer(final Vertx vertx, final int port) {
        return connect(vertx.createWebSocketClient(new WebSocketClientOptions().setReceiveBufferSize(4096)), port);
    }

    public void send(final String text) {
        await(socket.writeTextMessage(text));
    }

    public void subscribe(final String channel, final String symbol) {
        send("{\"op\":\"subscribe\",\"channel\":\"" + channel + "\",\"symbol\":\"" + symbol + "\"}");
    }

    public void unsubscribe(final String channel, final String symbol) {
        send("{\"op\":\"unsubscribe\",\"channel\":\"" + channel + "\",\"symbol\":\"" + symbol + "\"}");
    }

    /** Subscribes to the private orders channel with an API key in the message, or with none when null. */
    public void subscribeOrders(final String apiKey) {
        send(apiKey == null ? "{\"op\":\"subscribe\",\"channel\":\"orders\"}"
                : "{\"op\":\"subscribe\",\"channel\":\"orders\",\"apiKey\":\"" + apiKey + "\"}");
    }

    /** Subscribes to the private orders channel of an account, as with authentication off. */
    public void subscribeOrdersOf(final String accountId) {
        send("{\"op\":\"subscribe\",\"channel\":\"orders\",\"accountId\":\"" + accountId + "\"}");
    }

    public void unsubscribeOrders() {
        send("{\"op\":\"unsubscribe\",\"channel\":\"orders\"}");
    }

    /** @return the next message of the orders channel of the given type ("snapshot" or "update") */
    public JsonNode awaitOrders(final String type) {
        return await(m -> "orders".equals(m.path("channel").asText()) && type.equals(kind(m)));
    }

    /**
     * @return a message's kind: its {@code type}, except for an update of the orders channel, which is the order
     *         object plus {@code event} (its {@code type} is the order's): {@code update}
     */
    public static String kind(final JsonNode m) {
        return "orders".equals(m.path("channel").asText()) && m.has("event") ? "update" : m.path("type").asText();
    }

    /**
     * @return the account's open orders as this client follows them from the orders channel (its snapshot, then each
     *         update's order replacing the earlier state, a final one leaving), by order id
     */
    public synchronized Map<Long, JsonNode> openOrders(final String accountId) {
        return new TreeMap<>(openOrders.getOrDefault(accountId, new TreeMap<>()));
    }

    /** @return the next message after the last one returned that matches; fails after {@link #PATIENCE} */
    public synchronized JsonNode await(final Predicate<JsonNode> wanted) {
        final long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (true) {
            while (cursor < messages.size()) {
                final JsonNode message = messages.get(cursor++);
                if (wanted.test(message)) {
                    return message;
                }
            }
            final long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError("no matching stream message in " + PATIENCE + "; last: "
                        + (messages.isEmpty() ? "none" : messages.get(messages.size() - 1)));
            }
            try {
                TimeUnit.NANOSECONDS.timedWait(this, left);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    /**
     * @return the order-entry result echoing {@code id} ({@code {"op":"result","id":...}}), whenever it came: answers
     *     may come in another order than their requests, and other messages between them
     */
    public synchronized JsonNode awaitResult(final String id) {
        final long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (true) {
            for (final JsonNode message : messages) {
                if ("result".equals(message.path("op").asText()) && id.equals(message.path("id").asText())) {
                    return message;
                }
            }
            final long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError("no result for " + id + " in " + PATIENCE + "; last: "
                        + (messages.isEmpty() ? "none" : messages.get(messages.size() - 1)));
            }
            try {
                TimeUnit.NANOSECONDS.timedWait(this, left);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    /** @return how many order-entry results echoing {@code id} arrived so far */
    public synchronized int results(final String id) {
        int count = 0;
        for (final JsonNode message : messages) {
            if ("result".equals(message.path("op").asText()) && id.equals(message.path("id").asText())) {
                count++;
            }
        }
        return count;
    }

    /** @return the next message of a type, e.g. "error" */
    public JsonNode awaitType(final String type) {
        return await(m -> type.equals(m.path("type").asText()));
    }

    /** @return the last sequence applied on a channel of a symbol, or -1 before its snapshot */
    public synchronized long sequence(final String channel, final String symbol) {
        return sequences.getOrDefault(channel + ":" + symbol, -1L);
    }

    /** @return one side of the applied book, price to quantity */
    public synchronized Map<BigDecimal, BigDecimal> book(final String symbol, final String side) {
        return new TreeMap<>(books.getOrDefault(symbol + ":" + side, new TreeMap<>()));
    }

    /** @return the trades from the snapshot and the updates since, newest first */
    public synchronized List<JsonNode> trades(final String symbol) {
        return new ArrayList<>(trades.getOrDefault(symbol, List.of()));
    }

    /** @return the latest ticker message, or null */
    public synchronized JsonNode ticker(final String symbol) {
        return tickers.get(symbol);
    }

    /** @return descriptions of every sequence gap seen */
    public synchronized List<String> gaps() {
        return new ArrayList<>(gaps);
    }

    /**
     * @return every book message whose {@code checksum} differs from the one of this client's own copy of the book
     *         after applying it (docs/marketdata.md, "Book checksum")
     */
    public synchronized List<String> checksumMismatches() {
        return new ArrayList<>(checksumMismatches);
    }

    /** @return book messages whose checksum this client checked */
    public synchronized int checksumsChecked() {
        return checksums;
    }

    /**
     * The documented checksum of this client's copy of a book: the ten best asks (lowest first), then the ten best
     * bids (highest first), price then quantity as the API wrote them, without the point and leading zeros,
     * concatenated; CRC32 of the ASCII bytes.
     */
    public synchronized long checksum(final String symbol) {
        final StringBuilder text = new StringBuilder();
        appendLevels(text, books.getOrDefault(symbol + ":SELL", new TreeMap<>()));
        appendLevels(text, books.getOrDefault(symbol + ":BUY", new TreeMap<>()).descendingMap());
        final CRC32 crc = new CRC32();
        crc.update(text.toString().getBytes(StandardCharsets.US_ASCII));
        return crc.getValue();
    }

    private static void appendLevels(final StringBuilder text, final java.util.NavigableMap<BigDecimal, BigDecimal> side) {
        int n = 0;
        for (final Map.Entry<BigDecimal, BigDecimal> level : side.entrySet()) {
            if (n++ == 10) {
                return;
            }
            text.append(digits(level.getKey())).append(digits(level.getValue()));
        }
    }

    /** A decimal as the API wrote it (BigDecimal keeps the scale it was parsed with), without point and leading zeros. */
    private static String digits(final BigDecimal value) {
        final String plain = value.toPlainString().replace(".", "");
        int i = 0;
        while (i < plain.length() && plain.charAt(i) == '0') {
            i++;
        }
        return plain.substring(i);
    }

    public synchronized int messageCount() {
        return messages.size();
    }

    public synchronized boolean isClosed() {
        return closed;
    }

    @Override
    public void close() {
        if (!isClosed()) {
            await(socket.close());
        }
        await(client.close());
    }

    private synchronized void received(final String text) {
        final JsonNode message;
        try {
            message = MAPPER.readTree(text);
        } catch (final IOException e) {
            throw new UncheckedIOException("the stream sent something that is not JSON: " + text, e);
        }
        messages.add(message);
        apply(message);
        notifyAll();
    }

    private synchronized void closed() {
        closed = true;
        closeStatus = socket.closeStatusCode();
        notifyAll();
    }

    /** @return the close status the server sent; fails after {@link #PATIENCE} if the connection stays open */
    public synchronized short awaitClosed() {
        final long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (!closed) {
            final long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError("the connection is still open after " + PATIENCE);
            }
            try {
                TimeUnit.NANOSECONDS.timedWait(this, left);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        return closeStatus == null ? -1 : closeStatus;
    }

    private void apply(final JsonNode m) {
        final String type = kind(m);
        if (!"snapshot".equals(type) && !"update".equals(type) && !"balance".equals(type)) {
            return;
        }
        final String channel = m.get("channel").asText();
        final String symbol = "orders".equals(channel) ? m.get("accountId").asText() : m.get("symbol").asText();
        final String key = channel + ":" + symbol;
        final long sequence = m.get("sequence").asLong();
        if (!"snapshot".equals(type) && sequences.getOrDefault(key, -1L) + 1 != sequence) {
            gaps.add(key + ": " + sequence + " after " + sequences.get(key));
        }
        sequences.put(key, sequence);
        if ("balance".equals(type)) {
            return;   // a balance's change takes the orders channel's next sequence and changes no order
        }
        switch (channel) {
            case "orders" -> applyOrders(m, symbol, "snapshot".equals(type));
            case "book" -> {
                applyBook(m, symbol, "snapshot".equals(type));
                checksums++;
                if (!m.has("checksum") || m.get("checksum").asLong() != checksum(symbol)) {
                    checksumMismatches.add(key + " " + type + " " + sequence + ": checksum " + m.get("checksum")
                            + ", this client's book gives " + checksum(symbol));
                }
            }
            case "trades" -> applyTrades(m, symbol, "snapshot".equals(type));
            case "ticker" -> tickers.put(symbol, m);
            default -> gaps.add("unknown channel " + channel);
        }
    }

    private void applyBook(final JsonNode m, final String symbol, final boolean snapshot) {
        final TreeMap<BigDecimal, BigDecimal> bids = books.computeIfAbsent(symbol + ":BUY", k -> new TreeMap<>());
        final TreeMap<BigDecimal, BigDecimal> asks = books.computeIfAbsent(symbol + ":SELL", k -> new TreeMap<>());
        if (snapshot) {
            bids.clear();
            asks.clear();
            m.get("bids").forEach(level -> bids.put(new BigDecimal(level.get(0).asText()), new BigDecimal(level.get(1).asText())));
            m.get("asks").forEach(level -> asks.put(new BigDecimal(level.get(0).asText()), new BigDecimal(level.get(1).asText())));
            return;
        }
        for (final JsonNode change : m.get("changes")) {
            final TreeMap<BigDecimal, BigDecimal> side = "BUY".equals(change.get(0).asText()) ? bids : asks;
            final BigDecimal price = new BigDecimal(change.get(1).asText());
            if ("0".equals(change.get(2).asText())) {
                side.remove(price);
            } else {
                side.put(price, new BigDecimal(change.get(2).asText()));
            }
        }
    }

    /**
     * @return the order object of the REST answers that a private {@code orders} update carries: the update without
     *         its own members ({@code channel}, {@code event}, {@code fill}), with {@code engineSequence}
     *         back under its REST name {@code sequence}
     */
    public static JsonNode orderOf(final JsonNode update) {
        final com.fasterxml.jackson.databind.node.ObjectNode order = update.deepCopy();
        order.remove(java.util.List.of("channel", "event", "fill", "sequence"));
        order.set("sequence", update.get("engineSequence"));
        order.remove("engineSequence");
        return order;
    }

    private void applyOrders(final JsonNode m, final String accountId, final boolean snapshot) {
        final TreeMap<Long, JsonNode> open = openOrders.computeIfAbsent(accountId, k -> new TreeMap<>());
        if (snapshot) {
            open.clear();
            m.get("orders").forEach(order -> open.put(order.get("orderId").asLong(), order));
            return;
        }
        final JsonNode order = orderOf(m);
        final String status = order.get("status").asText();
        if ("NEW".equals(status) || "PARTIALLY_FILLED".equals(status)) {
            open.put(order.get("orderId").asLong(), order);
        } else {
            open.remove(order.get("orderId").asLong());
        }
    }

    private void applyTrades(final JsonNode m, final String symbol, final boolean snapshot) {
        final List<JsonNode> newestFirst = trades.computeIfAbsent(symbol, k -> new ArrayList<>());
        if (snapshot) {
            newestFirst.clear();
            m.get("trades").forEach(newestFirst::add);
            return;
        }
        for (final JsonNode trade : m.get("trades")) {
            newestFirst.add(0, trade);
        }
    }

    private static <T> T await(final Future<T> future) {
        try {
            return future.toCompletionStage().toCompletableFuture().get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        } catch (final ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (final TimeoutException e) {
            throw new IllegalStateException("no answer in " + PATIENCE, e);
        }
    }
}
