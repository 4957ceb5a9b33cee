package io.orderentry.http.stream;

import static io.orderentry.testing.ApiClient.limit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.orderentry.auth.Secrets;
import io.orderentry.testing.ApiClient;
import io.orderentry.testing.RawWebSocket;
import io.orderentry.testing.ServiceProcess;
import io.orderentry.testing.StreamClient;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a stream client may send, against the real jar with keys on (ORDERS_AUTH=keys), as a hostile client would
 * send it: a flood of subscribes is refused and then closed (1008) while orders are still answered, a repeated
 * subscribe sends no second snapshot, a frame over the size bound and a deflate bomb are closed (1009) without the
 * bomb being inflated, and an orders stream whose key is revoked is closed (1008).
 */
class StreamInputIT {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    /** The defaults of order-entry.properties the tests count on. */
    private static final int BURST = 40;
    private static final int MAX_MESSAGE_BYTES = 4096;

    @TempDir
    static Path dir;
    private static Path keys;
    private static ServiceProcess service;
    private static final Vertx CLIENTS = Vertx.vertx();
    private static String trader;
    private static String reader;

    @BeforeAll
    static void start() {
        keys = dir.resolve("keys");
        trader = ServiceProcess.createKey(keys, "trader");
        reader = ServiceProcess.createKey(keys, "reader", "--read-only");
        service = ServiceProcess.start(dir, Map.of("ORDERS_AUTH", "keys", "ORDERS_AUTH_KEYS_FILE", keys.toString()),
                "service");
        final ApiClient api = new ApiClient(service.port(), trader);
        for (int i = 0; i < 20; i++) {
            assertEquals(201, api.post("/api/v1/orders",
                    limit("trader", null, "BTCUSD", "SELL", (100 + i) + ".00", "0.1000", null)).status());
        }
    }

    @AfterAll
    static void stop() {
        if (service != null) {
            service.close();
        }
        CLIENTS.close().toCompletionStage().toCompletableFuture().join();
    }

    @Test
    void aSubscribeFloodIsRefusedThenClosedWith1008WhileAnOrderIsStillAnswered() throws Exception {
        try (RawWebSocket flood = RawWebSocket.open(service.port(), null)) {
            final CompletableFuture<Integer> closed = CompletableFuture.supplyAsync(() -> {
                try {
                    return flood.awaitClose();
                } catch (final IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            try {
                for (int i = 0; i < 5_000 && !closed.isDone(); i++) {
                    flood.sendText("{\"op\":\"" + (i % 2 == 0 ? "subscribe" : "unsubscribe")
                            + "\",\"channel\":\"book\",\"symbol\":\"BTCUSD\"}");
                    if (i == 1000) {
                        final ApiClient.Answer placed = new ApiClient(service.port(), trader).post("/api/v1/orders",
                                limit("trader", null, "BTCUSD", "BUY", "1.00", "0.1000", null));
                        assertEquals(201, placed.status(), placed.body());
                    }
                }
            } catch (final IOException closedMeanwhile) {
                // the server closed the connection while the flood was still being written: what the test wants
            }
            assertEquals(1008, closed.get(StreamClient.PATIENCE.toSeconds(), TimeUnit.SECONDS));
            final List<JsonNode> answers = parse(flood.texts());
            final long rateLimited = answers.stream().filter(m -> "RATE_LIMITED".equals(errorCode(m))).count();
            final long snapshots = answers.stream().filter(m -> "snapshot".equals(m.path("type").asText())).count();
            assertTrue(rateLimited >= 1, "a refused message is answered RATE_LIMITED: " + answers.size());
            assertTrue(snapshots <= BURST + 20, "no more snapshots than the budget allows: " + snapshots);
        }
        assertEquals(201, new ApiClient(service.port(), trader).post("/api/v1/orders",
                limit("trader", null, "BTCUSD", "BUY", "1.00", "0.1000", null)).status());
    }

    @Test
    void aRepeatedSubscribeIsAnsweredAlreadySubscribedAndSendsNoSecondSnapshot() {
        try (StreamClient stream = StreamClient.connect(CLIENTS, service.port())) {
            stream.subscribe("book", "BTCUSD");
            stream.awaitType("snapshot");
            stream.subscribe("book", "BTCUSD");
            final JsonNode again = stream.await(m -> "error".equals(m.path("type").asText()));
            assertEquals("ALREADY_SUBSCRIBED", errorCode(again));
            stream.subscribeOrders(trader);
            stream.awaitOrders("snapshot");
            stream.subscribeOrders(trader);
            final JsonNode ordersAgain = stream.awaitType("error");
            assertEquals("ALREADY_SUBSCRIBED", errorCode(ordersAgain), ordersAgain.toString());
            stream.subscribe("ticker", "BTCUSD");
            stream.await(m -> "ticker".equals(m.path("channel").asText()));
            for (final String channel : List.of("book", "orders", "ticker")) {
                assertEquals(1, stream.messages().stream().filter(m -> "snapshot".equals(m.path("type").asText())
                        && channel.equals(m.path("channel").asText())).count(), channel + ": " + stream.messages());
            }
        }
    }

    @Test
    void aFrameOverTheMessageBoundIsClosedWith1009() throws Exception {
        try (RawWebSocket raw = RawWebSocket.open(service.port(), null)) {
            final byte[] big = new byte[2 * MAX_MESSAGE_BYTES];
            Arrays.fill(big, (byte) ' ');
            big[0] = '{';
            big[big.length - 1] = '}';
            raw.sendFrame(0x1, false, true, big);
            assertEquals(1009, raw.awaitClose());
        }
        assertEquals(200, new ApiClient(service.port()).get("/health").status());
    }

    @Test
    void aDeflateBombIsClosedWith1009WithoutBeingInflatedWhole() throws Exception {
        try (RawWebSocket raw = RawWebSocket.open(service.port(), "permessage-deflate")) {
            assertTrue(raw.acceptedExtensions().startsWith("permessage-deflate"), raw.acceptedExtensions());
            final byte[] bomb = RawWebSocket.deflate(new byte[64 << 20]);     // 64 MB of zeros, ~64 KB deflated
            final int fragment = MAX_MESSAGE_BYTES - 16;
            assertTrue(bomb.length > 8 * fragment, "the bomb spans several frames: " + bomb.length);
            try {
                for (int offset = 0; offset < bomb.length; offset += fragment) {
                    final boolean first = offset == 0;
                    final boolean last = offset + fragment >= bomb.length;
                    raw.sendFrame(first ? 0x1 : 0x0, first, last,
                            Arrays.copyOfRange(bomb, offset, Math.min(bomb.length, offset + fragment)));
                }
            } catch (final IOException closedMeanwhile) {
                // the server closed the connection on the first frame: what the test wants
            }
            assertEquals(1009, raw.awaitClose());
            assertTrue(raw.closeReason().contains("inflated"), raw.closeReason());
        }
        assertEquals(201, new ApiClient(service.port(), trader).post("/api/v1/orders",
                limit("trader", null, "BTCUSD", "BUY", "1.00", "0.1000", null)).status());
    }

    @Test
    void aCompressedSubscribeWithinTheBoundsIsAnsweredAsAPlainOne() throws Exception {
        try (RawWebSocket raw = RawWebSocket.open(service.port(), "permessage-deflate")) {
            final byte[] subscribe = "{\"op\":\"subscribe\",\"channel\":\"ticker\",\"symbol\":\"ETHUSD\"}"
                    .getBytes(StandardCharsets.UTF_8);
            raw.sendFrame(0x1, true, true, RawWebSocket.deflate(subscribe));
            raw.sendFrame(0x1, true, true, RawWebSocket.deflate(subscribe));
            raw.sendFrame(0x8, false, true, new byte[] {0x03, (byte) 0xE8});
            assertEquals(1000, raw.awaitClose());
            final List<JsonNode> answers = parse(raw.texts());
            assertEquals("snapshot", answers.get(0).path("type").asText(), answers.toString());
            assertEquals("ALREADY_SUBSCRIBED", errorCode(answers.get(1)), answers.toString());
        }
    }

    @Test
    void anOrdersStreamWhoseKeyIsRevokedIsClosedWith1008() {
        try (StreamClient stream = StreamClient.connect(CLIENTS, service.port())) {
            stream.subscribeOrders(reader);
            stream.awaitOrders("snapshot");
            ServiceProcess.revokeKey(keys, Secrets.keyIdOf(reader));
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (!stream.isClosed() && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertTrue(stream.isClosed(), "the stream of a revoked key is still open 5 s after the revocation");
            assertEquals(1008, stream.awaitClosed());
            assertTrue(stream.messages().stream().anyMatch(m -> "INVALID_API_KEY".equals(errorCode(m))),
                    stream.messages().toString());
        }
    }

    private static String errorCode(final JsonNode message) {
        return message.path("error").path("code").asText();
    }

    private static List<JsonNode> parse(final List<String> texts) throws IOException {
        final List<JsonNode> parsed = new java.util.ArrayList<>();
        for (final String text : texts) {
            final JsonNode message = MAPPER.readTree(text);
            if (!"heartbeat".equals(message.path("type").asText())) {
                parsed.add(message);
            }
        }
        return parsed;
    }
}
