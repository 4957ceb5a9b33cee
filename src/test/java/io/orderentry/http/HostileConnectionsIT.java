package io.orderentry.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.orderentry.testing.ApiClient;
import io.orderentry.testing.ServiceProcess;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What hostile or merely careless clients can make the real jar hold: a connection per request through every kind of
 * answer, stream opens and drops, one address taking every slot, a trickled request head or body. Each test drives
 * several times the configured bound through short-lived connections and then checks that the service still answers
 * and that its open-connection gauge is back where it started.
 */
class HostileConnectionsIT {

    private static final int MAX_CONNECTIONS = 150;
    private static final int MAX_STREAMS = 40;

    @TempDir
    Path dir;

    private ServiceProcess start(final Map<String, String> extra) {
        final Map<String, String> env = new HashMap<>(Map.of("ORDERS_AUTH", "keys", "ORDERS_AUTH_KEYS_FILE",
                dir.resolve("keys").toString(), "ORDERS_HTTP_MAX_CONNECTIONS", Integer.toString(MAX_CONNECTIONS),
                "ORDERS_WS_MAX_CONNECTIONS", Integer.toString(MAX_STREAMS)));
        env.putAll(extra);
        return ServiceProcess.start(dir, env, "service");
    }

    @Test
    void connectionsPerRequestThroughEveryKindOfAnswerGiveTheirSlotsBackAtThreeTimesTheCap() throws Exception {
        final String secret = ServiceProcess.createKey(dir.resolve("keys"), "acct-1");
        try (ServiceProcess service = start(Map.of())) {
            final ApiClient api = new ApiClient(service.port(), secret);
            // the baseline: this client's own keep-alive connection, and the readiness probe's while it lingers
            final double baseline = openConnections(api);
            final double refusedBefore = api.metric("orders_http_connections_refused_total");
            final String order = ApiClient.limit("acct-1", null, "BTCUSD", "BUY", "100.00", "0.001", null);
            for (int i = 0; i < 3 * MAX_CONNECTIONS; i++) {
                final int kind = i % 6;
                switch (kind) {
                    case 0 -> assertEquals(401, status(oneShot(service, post("/api/v1/orders", "{}", null))));
                    case 1 -> assertEquals(400, status(oneShot(service, post("/api/v1/orders", "{not json", secret))));
                    case 2 -> assertEquals(201, status(oneShot(service, post("/api/v1/orders", order, secret))));
                    case 3 -> assertEquals(200, status(oneShot(service, get("/api/v1/symbols"))));
                    case 4 -> streamOpenedAndClosed(service, true);
                    default -> streamOpenedAndClosed(service, false);
                }
            }
            awaitTrue(() -> openConnections(api) <= baseline, "the gauge returns to its baseline of " + baseline);
            assertEquals(0, api.metric("orders_ws_clients"), "no stream slot is held");
            assertEquals(refusedBefore, api.metric("orders_http_connections_refused_total"),
                    "no connection was closed at accept");
            assertEquals(200, status(oneShot(service, get("/health"))));
            assertEquals(201, status(oneShot(service, post("/api/v1/orders", order, secret))));
        }
    }

    @Test
    void oneAddressCannotTakeEveryConnectionNorEveryStream() throws Exception {
        try (ServiceProcess service = start(Map.of("ORDERS_HTTP_MAX_CONNECTIONS_PER_ADDRESS", "20",
                "ORDERS_WS_MAX_CONNECTIONS_PER_ADDRESS", "5"))) {
            final InetAddress attacker = InetAddress.getByName("127.0.0.2");
            final InetAddress other = InetAddress.getByName("127.0.0.3");
            final List<Socket> held = new ArrayList<>();
            try {
                for (int i = 0; i < 5; i++) {
                    final Socket stream = connect(service, attacker);
                    assertTrue(exchange(stream, upgrade()).startsWith("HTTP/1.1 101"), "stream " + (i + 1) + " fits");
                    held.add(stream);
                }
                try (Socket sixth = connect(service, attacker)) {
                    final String answer = exchange(sixth, upgrade());
                    assertEquals(503, status(answer), answer);
                    assertTrue(answer.contains("TOO_MANY_CONNECTIONS"), answer);
                }
                try (Socket elsewhere = connect(service, other)) {
                    assertTrue(exchange(elsewhere, upgrade()).startsWith("HTTP/1.1 101"),
                            "another address still gets a stream");
                }
                for (int i = 5; i < 20; i++) {
                    held.add(connect(service, attacker));   // silent sockets
                }
                final Socket last = held.get(held.size() - 1);
                assertEquals(200, status(exchange(last, get("/health"))), "the 20th connection of the address fits");
                final String[] got = new String[1];
                final ApiClient probe = service.client();
                awaitTrue(() -> (got[0] = closedUnanswered(service, attacker)) == null,
                        () -> "the 21st connection of the address is closed, but it got " + got[0] + "; the service"
                                + " counts " + openConnections(probe) + " open connections and refused "
                                + probe.metric("orders_http_connections_refused_address_total") + " for their address");
                try (Socket elsewhere = connect(service, other)) {
                    assertEquals(200, status(exchange(elsewhere, get("/health"))), "another address is still served");
                }
            } finally {
                for (final Socket socket : held) {
                    socket.close();
                }
            }
            final ApiClient api = service.client();
            awaitTrue(() -> openConnections(api) <= 2, "every slot comes back (left: this client's and the readiness"
                    + " probe's keep-alive connections)");
            assertTrue(api.metric("orders_http_connections_refused_address_total") >= 1,
                    "the refusal is counted by its reason");
        }
    }

    @Test
    void aRequestHeadTrickledOneByteAtATimeIsCutOffAtTheHeaderDeadline() throws Exception {
        try (ServiceProcess service = start(Map.of("ORDERS_HTTP_HEADER_TIMEOUT_SECONDS", "2",
                "ORDERS_HTTP_IDLE_TIMEOUT_SECONDS", "60"))) {
            final long start = System.nanoTime();
            boolean closed = false;
            try (Socket slow = connect(service, InetAddress.getLoopbackAddress())) {
                final OutputStream out = slow.getOutputStream();
                final byte[] head = "GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: ".getBytes(StandardCharsets.US_ASCII);
                out.write(head);
                for (int i = 0; i < 60 && !closed; i++) {
                    Thread.sleep(500);
                    try {
                        out.write('a');
                        out.flush();
                        slow.setSoTimeout(1);
                        closed = slow.getInputStream().read() == -1;
                    } catch (final SocketTimeoutException stillOpen) {
                        closed = false;
                    } catch (final SocketException reset) {
                        closed = true;
                    }
                }
            }
            assertTrue(closed, "the connection was closed while its head was still arriving");
            assertTrue(System.nanoTime() - start < 20_000_000_000L, "long before the 60 s idle timeout");
            assertTrue(service.client().metric("orders_http_header_timeouts_total") >= 1, "counted");
        }
    }

    @Test
    void aBodyThatNeverArrivesIsAnswered408OnEveryRouteNotOnlyOnPlace() throws Exception {
        final String secret = ServiceProcess.createKey(dir.resolve("keys"), "acct-1");
        try (ServiceProcess service = start(Map.of("ORDERS_HTTP_BODY_TIMEOUT_SECONDS", "1"))) {
            for (final String head : List.of("PATCH /api/v1/orders/1 HTTP/1.1", "POST /api/v1/cancel-all-after HTTP/1.1",
                    "POST /api/v1/orders HTTP/1.1", "POST /admin/snapshot HTTP/1.1")) {
                try (Socket socket = connect(service, InetAddress.getLoopbackAddress())) {
                    socket.setSoTimeout(15_000);
                    final OutputStream out = socket.getOutputStream();
                    out.write((head + "\r\nHost: x\r\nAuthorization: Bearer " + secret
                            + "\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
                            .getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                    final String answer = readAll(socket.getInputStream());
                    assertEquals(408, status(answer), head + ": " + answer);
                    assertTrue(answer.contains("REQUEST_TIMEOUT"), answer);
                }
            }
        }
    }

    @Test
    void anonymousStreamsLeaveRoomForStreamsWithAKey() throws Exception {
        final String secret = ServiceProcess.createKey(dir.resolve("keys"), "acct-1");
        try (ServiceProcess service = start(Map.of("ORDERS_WS_ANONYMOUS_PERCENT", "10",
                "ORDERS_WS_MAX_CONNECTIONS_PER_ADDRESS", "40"))) {
            final List<Socket> held = new ArrayList<>();
            try {
                for (int i = 0; i < 4; i++) {
                    final Socket stream = connect(service, InetAddress.getLoopbackAddress());
                    assertTrue(exchange(stream, upgrade()).startsWith("HTTP/1.1 101"));
                    held.add(stream);
                }
                try (Socket fifth = connect(service, InetAddress.getLoopbackAddress())) {
                    final String answer = exchange(fifth, upgrade());
                    assertEquals(503, status(answer), answer);
                }
                try (Socket keyed = connect(service, InetAddress.getLoopbackAddress())) {
                    final String answer = exchange(keyed, upgrade().replace("\r\n\r\n",
                            "\r\nAuthorization: Bearer " + secret + "\r\n\r\n"));
                    assertTrue(answer.startsWith("HTTP/1.1 101"), "a stream with a key still fits: " + answer);
                }
            } finally {
                for (final Socket socket : held) {
                    socket.close();
                }
            }
        }
    }

    private static double openConnections(final ApiClient api) {
        return api.metric("orders_http_connections_open");
    }

    private static void awaitTrue(final BooleanSupplier condition, final String what) throws InterruptedException {
        awaitTrue(condition, () -> what);
    }

    private static void awaitTrue(final BooleanSupplier condition, final Supplier<String> what)
            throws InterruptedException {
        for (int attempt = 0; attempt < 200; attempt++) {
            if (condition.getAsBoolean()) {
                return;
            }
            Thread.sleep(50);
        }
        assertTrue(condition.getAsBoolean(), what);
    }

    /** Opens a WebSocket on a connection of its own; half close with a close frame, half just drop the socket. */
    private static void streamOpenedAndClosed(final ServiceProcess service, final boolean closeFrame) throws IOException {
        try (Socket socket = connect(service, InetAddress.getLoopbackAddress())) {
            final String answer = exchange(socket, upgrade());
            assertTrue(answer.startsWith("HTTP/1.1 101"), answer);
            final OutputStream out = socket.getOutputStream();
            out.write(maskedText("{\"op\":\"subscribe\",\"channel\":\"book\",\"symbol\":\"BTCUSD\"}"));
            if (closeFrame) {
                out.write(new byte[] {(byte) 0x88, (byte) 0x82, 1, 2, 3, 4, 0x03 ^ 1, (byte) (0xE8 ^ 2)});
            }
            out.flush();
        }
    }

    private static byte[] maskedText(final String text) {
        final byte[] payload = text.getBytes(StandardCharsets.UTF_8);
        final byte[] frame = new byte[6 + payload.length];
        frame[0] = (byte) 0x81;
        frame[1] = (byte) (0x80 | payload.length);
        final byte[] mask = {5, 6, 7, 8};
        System.arraycopy(mask, 0, frame, 2, 4);
        for (int i = 0; i < payload.length; i++) {
            frame[6 + i] = (byte) (payload[i] ^ mask[i % 4]);
        }
        return frame;
    }

    /** @return null when a connection from {@code from} is closed unanswered, else what it got instead */
    private static String closedUnanswered(final ServiceProcess service, final InetAddress from) {
        try (Socket socket = connect(service, from)) {
            socket.setSoTimeout(5_000);
            socket.getOutputStream().write(get("/health").getBytes(StandardCharsets.US_ASCII));
            final byte[] answer = new byte[64];
            final int read = socket.getInputStream().read(answer);
            return read == -1 ? null : "an answer: " + new String(answer, 0, read, StandardCharsets.US_ASCII);
        } catch (final SocketException reset) {
            return null;
        } catch (final IOException other) {
            return other.toString();
        }
    }

    private static Socket connect(final ServiceProcess service, final InetAddress from) throws IOException {
        final Socket socket = new Socket();
        socket.bind(new InetSocketAddress(from, 0));
        socket.connect(new InetSocketAddress("127.0.0.1", service.port()), 5_000);
        return socket;
    }

    /** Sends one request on a connection of its own, reads the whole answer, closes. */
    private static String oneShot(final ServiceProcess service, final String request) throws IOException {
        try (Socket socket = connect(service, InetAddress.getLoopbackAddress())) {
            return exchange(socket, request);
        }
    }

    /** Sends a request and reads one answer: its head, and its body by Content-Length. */
    private static String exchange(final Socket socket, final String request) throws IOException {
        socket.setSoTimeout(10_000);
        socket.getOutputStream().write(request.getBytes(StandardCharsets.UTF_8));
        socket.getOutputStream().flush();
        final InputStream in = socket.getInputStream();
        final StringBuilder head = new StringBuilder();
        int b;
        while ((b = in.read()) != -1) {
            head.append((char) b);
            if (head.length() >= 4 && head.substring(head.length() - 4).equals("\r\n\r\n")) {
                break;
            }
        }
        final Matcher length = Pattern.compile("(?i)content-length: *(\\d+)").matcher(head);
        if (length.find()) {
            final byte[] body = in.readNBytes(Integer.parseInt(length.group(1)));
            head.append(new String(body, StandardCharsets.UTF_8));
        }
        return head.toString();
    }

    private static String readAll(final InputStream in) throws IOException {
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }

    private static int status(final String answer) {
        assertTrue(answer.startsWith("HTTP/1.1 "), "an HTTP answer: '" + answer + "'");
        return Integer.parseInt(answer.substring(9, 12));
    }

    private static String get(final String path) {
        return "GET " + path + " HTTP/1.1\r\nHost: x\r\n\r\n";
    }

    private static String upgrade() {
        return "GET /api/v1/stream HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";
    }

    private static String post(final String path, final String body, final String secret) {
        final byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        return "POST " + path + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                + (secret == null ? "" : "Authorization: Bearer " + secret + "\r\n")
                + "Content-Length: " + bytes.length + "\r\n\r\n" + body;
    }
}
