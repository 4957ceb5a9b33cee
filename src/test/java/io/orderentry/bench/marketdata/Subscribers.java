package io.orderentry.bench.marketdata;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketClientOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * {@code count} WebSocket stream clients, each subscribed to book, trades and ticker of every
 * symbol, counting the messages and bytes they read (as fast as the loopback delivers) without
 * decoding them, so that the clients, which share the machine, cost as little as they can.
 *
 * <p>Threads: sockets run on the subscribers' own Vert.x instance; the methods block the caller.
 */
final class Subscribers {

    private static final String[] SYMBOLS = {"BTCUSD", "ETHUSD"};
    private static final String[] CHANNELS = {"book", "trades", "ticker"};

    private final WebSocketClient client;
    private final String host;
    private final int port;
    private final List<WebSocket> sockets = new ArrayList<>();
    private final LongAdder messages = new LongAdder();
    private final LongAdder bytes = new LongAdder();

    Subscribers(final Vertx vertx, final String host, final int port) {
        this.client = vertx.createWebSocketClient(new WebSocketClientOptions().setMaxConnections(100_000));
        this.host = host;
        this.port = port;
    }

    /** Connects {@code count} clients, subscribes each to every channel and waits for all snapshots. */
    void connect(final int count) throws Exception {
        final long before = messages.sum();
        for (int i = 0; i < count; i++) {
            final WebSocket socket = await(client.connect(port, host, "/api/v1/stream"));
            socket.frameHandler(frame -> {
                bytes.add(frame.binaryData().length());
                if (frame.isFinal()) {
                    messages.increment();
                }
            });
            for (final String symbol : SYMBOLS) {
                for (final String channel : CHANNELS) {
                    socket.writeTextMessage("{\"op\":\"subscribe\",\"channel\":\"" + channel + "\",\"symbol\":\""
                            + symbol + "\"}");
                }
            }
            sockets.add(socket);
        }
        final long snapshots = (long) count * SYMBOLS.length * CHANNELS.length;
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (messages.sum() - before < snapshots) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("subscribers got " + (messages.sum() - before) + " of " + snapshots
                        + " snapshots in 60 s");
            }
            TimeUnit.MILLISECONDS.sleep(10);
        }
    }

    /** Closes every client. */
    void disconnect() throws Exception {
        for (final WebSocket socket : sockets) {
            await(socket.close());
        }
        sockets.clear();
    }

    long messages() {
        return messages.sum();
    }

    long bytes() {
        return bytes.sum();
    }

    private static <T> T await(final Future<T> future) throws Exception {
        return future.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
}
