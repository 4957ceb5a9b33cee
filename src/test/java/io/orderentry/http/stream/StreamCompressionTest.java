package io.orderentry.http.stream;

import io.orderentry.config.ConfigException;
import static io.orderentry.testing.ApiClient.limit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.orderentry.testing.ApiClient.Answer;
import io.orderentry.testing.ApiClient;
import io.orderentry.testing.RunningService;
import io.orderentry.testing.StreamClient;
import io.vertx.core.Vertx;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.zip.Inflater;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * permessage-deflate on the stream: a client that offers it gets each update compressed (RSV1 set) and decodes
 * the same messages a plain client gets; snapshots go uncompressed; clients that do not offer it, or limit the
 * server's window, get plain frames. Read at the frame level by a client on a raw socket, so that the test sees
 * what is on the wire, and through Vert.x's own client, which inflates as browsers do.
 */
class StreamCompressionTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final int LEVELS = 20;

    @TempDir
    Path dir;
    private final Vertx clients = Vertx.vertx();
    private RunningService service;
    private ApiClient api;

    @BeforeEach
    void start() {
        startWith(Map.of());
    }

    private void startWith(final Map<String, String> env) {
        service = RunningService.start(dir.resolve("run-" + System.nanoTime()), env);
        api = service.client();
        for (int i = 0; i < LEVELS; i++) {
            place(limit("maker", null, "BTCUSD", "SELL", (100 + i) + ".00", "0.1000", null));
        }
    }

    @AfterEach
    void stop() {
        service.close();
        clients.close().toCompletionStage().toCompletableFuture().join();
    }

    @Test
    void clientThatNegotiatedDeflateGetsUpdatesCompressedThatInflateToWhatAPlainClientGets() throws Exception {
        try (StreamClient plain = StreamClient.connect(clients, service.port());
             StreamClient inflating = StreamClient.connectCompressed(clients, service.port());
             RawStream raw = RawStream.open(service.port(), "permessage-deflate; client_max_window_bits")) {
            assertTrue(raw.acceptedExtensions().contains("permessage-deflate"), raw.acceptedExtensions());
            for (final String channel : List.of("book", "trades", "ticker")) {
                plain.subscribe(channel, "BTCUSD");
                inflating.subscribe(channel, "BTCUSD");
                raw.subscribe(channel, "BTCUSD");
            }
            final List<Message> snapshots = List.of(raw.nextMessage(), raw.nextMessage(), raw.nextMessage());
            for (final Message snapshot : snapshots) {
                assertEquals("snapshot", snapshot.json().get("type").asText());
                assertFalse(snapshot.compressed(), "snapshots go uncompressed: " + snapshot.text());
            }

            place(limit("taker", null, "BTCUSD", "BUY", (100 + LEVELS - 1) + ".00", "2.0000", null));
            final List<Message> updates = new ArrayList<>();
            for (int traded = 0; traded < LEVELS; ) {
                final Message trades = raw.nextUpdate("trades");
                assertTrue(trades.compressed(), "a trades update is sent compressed: " + trades.text());
                traded += trades.json().get("trades").size();
                updates.add(trades);
            }
            updates.add(raw.nextUpdate("book"));
            for (final Message update : updates) {
                assertEquals(update.json(), received(plain, update), "inflates to what the plain client got");
                assertEquals(update.json(), received(inflating, update), "Vert.x's inflating client reads it too");
            }
            assertEquals(2, api.metric("orders_ws_clients_deflate"), "the raw and the inflating client");
            assertEquals(List.of(), inflating.gaps());
            assertEquals(List.of(), inflating.checksumMismatches());
            assertTrue(inflating.checksumsChecked() >= 2, "the book snapshot and its update were checked");
        }
    }

    @Test
    void clientsThatDoNotOfferDeflateOrLimitTheServerWindowGetPlainUpdates() throws Exception {
        try (RawStream none = RawStream.open(service.port(), null);
             RawStream limited = RawStream.open(service.port(), "permessage-deflate; server_max_window_bits=10");
             RawStream compressed = RawStream.open(service.port(), "permessage-deflate")) {
            for (final RawStream raw : List.of(none, limited, compressed)) {
                raw.subscribe("trades", "BTCUSD");
                assertEquals("snapshot", raw.nextMessage().json().get("type").asText());
            }
            place(limit("taker", null, "BTCUSD", "BUY", (100 + LEVELS - 1) + ".00", "2.0000", null));
            final Message expected = compressed.nextUpdate("trades");
            assertTrue(expected.compressed(), "the same update is compressed for a client that negotiated it");
            for (final RawStream raw : List.of(none, limited)) {
                final Message update = raw.nextUpdate("trades");
                assertFalse(update.compressed(), "offered " + raw.offered + ", accepted " + raw.acceptedExtensions());
                assertEquals(expected.text(), update.text());
            }
        }
    }

    @Test
    void withDeflateOffTheExtensionIsNotAcceptedAndUpdatesArePlain() throws Exception {
        service.close();
        startWith(Map.of("ORDERS_WS_DEFLATE", "false"));
        try (RawStream raw = RawStream.open(service.port(), "permessage-deflate; client_max_window_bits")) {
            assertEquals("", raw.acceptedExtensions(), "no Sec-WebSocket-Extensions in the answer");
            raw.subscribe("trades", "BTCUSD");
            assertEquals("snapshot", raw.nextMessage().json().get("type").asText());
            place(limit("taker", null, "BTCUSD", "BUY", (100 + LEVELS - 1) + ".00", "2.0000", null));
            final Message update = raw.nextUpdate("trades");
            assertFalse(update.compressed(), update.text());
            assertEquals(0, api.metric("orders_ws_clients_deflate"));
        }
    }

    @Test
    void deflateSettingOtherThanTrueOrFalseIsRefusedAtStart() {
        final io.orderentry.config.ConfigException refused = org.junit.jupiter.api.Assertions.assertThrows(
                io.orderentry.config.ConfigException.class,
                () -> io.orderentry.app.ConfigLoader.load(Map.of("ORDERS_WS_DEFLATE", "yes")));
        assertTrue(refused.getMessage().contains("ORDERS_WS_DEFLATE"), refused.getMessage());
    }

    /** @return the message of the same type, channel and sequence that a client received; waits for it */
    private static JsonNode received(final StreamClient client, final Message message) throws InterruptedException {
        final JsonNode json = message.json();
        final long deadline = System.nanoTime() + StreamClient.PATIENCE.toNanos();
        while (System.nanoTime() < deadline) {
            for (final JsonNode m : client.messages()) {
                if (json.get("type").equals(m.get("type")) && json.get("channel").equals(m.get("channel"))
                        && json.get("sequence").equals(m.get("sequence"))) {
                    return m;
                }
            }
            Thread.sleep(10);
        }
        throw new AssertionError("the client did not get " + json);
    }

    private void place(final String body) {
        final Answer answer = api.post("/api/v1/orders", body);
        assertEquals(201, answer.status(), answer.body());
    }

    /** One text message as it came: whether it was compressed (RSV1), and its text after inflating. */
    private record Message(boolean compressed, String text) {
        JsonNode json() {
            try {
                return MAPPER.readTree(text);
            } catch (final IOException e) {
                throw new AssertionError("not JSON: " + text, e);
            }
        }
    }

    /**
     * A stream client on a blocking socket that sees the frames: it offers the extensions given, reassembles
     * fragmented messages and inflates compressed ones as RFC 7692 says, keeping its window between messages (the
     * extension's default), as a browser does.
     */
    private static final class RawStream implements AutoCloseable {
        private final Socket socket;
        private final DataInputStream in;
        private final OutputStream out;
        private final String offered;
        private final Inflater inflater = new Inflater(true);
        private String accepted = "";
        private final List<Message> unclaimed = new ArrayList<>();

        private RawStream(final Socket socket, final String offered) throws IOException {
            this.socket = socket;
            this.in = new DataInputStream(socket.getInputStream());
            this.out = socket.getOutputStream();
            this.offered = offered;
        }

        static RawStream open(final int port, final String extensions) throws IOException {
            final Socket socket = new Socket("127.0.0.1", port);
            socket.setSoTimeout((int) StreamClient.PATIENCE.toMillis());
            final RawStream stream = new RawStream(socket, extensions);
            final byte[] key = new byte[16];
            new Random().nextBytes(key);
            stream.out.write(("GET /api/v1/stream HTTP/1.1\r\nHost: 127.0.0.1:" + port
                    + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: "
                    + Base64.getEncoder().encodeToString(key) + "\r\n"
                    + (extensions == null ? "" : "Sec-WebSocket-Extensions: " + extensions + "\r\n") + "\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            final StringBuilder response = new StringBuilder();
            while (!response.toString().endsWith("\r\n\r\n")) {
                response.append((char) stream.in.readUnsignedByte());
            }
            assertTrue(response.toString().startsWith("HTTP/1.1 101"), response.toString());
            for (final String line : response.toString().split("\r\n")) {
                if (line.toLowerCase(java.util.Locale.ROOT).startsWith("sec-websocket-extensions:")) {
                    stream.accepted = line.substring(line.indexOf(':') + 1).trim();
                }
            }
            return stream;
        }

        String acceptedExtensions() {
            return accepted;
        }

        void subscribe(final String channel, final String symbol) throws IOException {
            final byte[] payload = ("{\"op\":\"subscribe\",\"channel\":\"" + channel + "\",\"symbol\":\"" + symbol
                    + "\"}").getBytes(StandardCharsets.UTF_8);
            final byte[] mask = {1, 2, 3, 4};
            final ByteArrayOutputStream frame = new ByteArrayOutputStream();
            frame.write(0x81);
            frame.write(0x80 | payload.length);
            frame.write(mask);
            for (int i = 0; i < payload.length; i++) {
                frame.write(payload[i] ^ mask[i % 4]);
            }
            out.write(frame.toByteArray());
        }

        /**
         * @return the first update of a channel not returned before, read or already read (messages of other
         *     channels are kept for later calls); fails after {@link StreamClient#PATIENCE}
         */
        Message nextUpdate(final String channel) throws Exception {
            final long deadline = System.nanoTime() + StreamClient.PATIENCE.toNanos();
            for (int i = 0; ; i++) {
                if (i == unclaimed.size()) {
                    assertTrue(System.nanoTime() < deadline, "no " + channel + " update; got " + unclaimed);
                    unclaimed.add(nextMessage());
                }
                final JsonNode json = unclaimed.get(i).json();
                if ("update".equals(json.path("type").asText()) && channel.equals(json.path("channel").asText())) {
                    return unclaimed.remove(i);
                }
            }
        }

        /** @return the next text message, reassembled and inflated; a heartbeat is skipped */
        Message nextMessage() throws Exception {
            while (true) {
                boolean compressed = false;
                final ByteArrayOutputStream payload = new ByteArrayOutputStream();
                boolean first = true;
                while (true) {
                    final int head = in.readUnsignedByte();
                    int length = in.readUnsignedByte();
                    assertEquals(0, length & 0x80, "server frames are not masked");
                    if (length == 126) {
                        length = in.readUnsignedShort();
                    } else if (length == 127) {
                        length = (int) in.readLong();
                    }
                    final byte[] bytes = in.readNBytes(length);
                    final int opcode = head & 0x0F;
                    if (opcode >= 0x8) {
                        assertTrue(opcode != 0x8, "the server closed the stream");
                        continue;
                    }
                    if (first) {
                        assertEquals(0x1, opcode, "a message starts with a text frame");
                        compressed = (head & 0x40) != 0;
                        first = false;
                    } else {
                        assertEquals(0x0, opcode, "then continuation frames");
                        assertEquals(0, head & 0x40, "RSV1 only on a message's first frame");
                    }
                    payload.write(bytes);
                    if ((head & 0x80) != 0) {
                        break;
                    }
                }
                final byte[] text = compressed ? PerMessageDeflateTest.inflate(inflater, payload.toByteArray())
                        : payload.toByteArray();
                final Message message = new Message(compressed, new String(text, StandardCharsets.UTF_8));
                if (!"heartbeat".equals(message.json().path("type").asText())) {
                    return message;
                }
            }
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
