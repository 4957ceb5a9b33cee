package io.orderentry.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.orderentry.testing.RunningService;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What one client can hold of the HTTP server: connections, idle sockets, oversized or broken requests. */
class HttpLimitsTest {

    @TempDir
    Path dir;

    @Test
    void connectionsOverTheMaximumAreClosedUnansweredAndCountedAndOneMoreFitsOnceOneCloses() throws Exception {
        try (RunningService service = RunningService.start(dir, Map.of("ORDERS_HTTP_MAX_CONNECTIONS", "101",
                "ORDERS_WS_MAX_CONNECTIONS", "1"))) {
            final List<Socket> held = new ArrayList<>();
            for (int i = 0; i < 101; i++) {
                final Socket socket = connect(service);
                assertEquals(200, status(exchange(socket, get("/health"))), "connection " + (i + 1) + " fits");
                held.add(socket);
            }
            try (Socket over = connect(service)) {
                final String answer = exchangeOrClosed(over, get("/health"));
                assertEquals("", answer, "the 102nd connection is closed unanswered");
            }
            final Socket first = held.remove(0);
            first.close();
            String answer = "";
            for (int attempt = 0; attempt < 100 && answer.isEmpty(); attempt++) {
                Thread.sleep(50);   // until the server has seen the close
                try (Socket again = connect(service)) {
                    answer = exchangeOrClosed(again, get("/metrics"));
                }
            }
            assertEquals(200, status(answer), "a connection fits again once one closed");
            final java.util.regex.Matcher refused = java.util.regex.Pattern
                    .compile("(?m)^orders_http_connections_refused_total ([0-9.]+)").matcher(answer);
            assertTrue(refused.find(), answer);
            assertTrue(Double.parseDouble(refused.group(1)) >= 1, "the refused one is counted: " + refused.group());
            for (final Socket socket : held) {
                socket.close();
            }
        }
    }

    @Test
    void connectionsThatNeverSendAnythingCountTowardsTheMaximumFromAccept() throws Exception {
        try (RunningService service = RunningService.start(dir, Map.of("ORDERS_HTTP_MAX_CONNECTIONS", "101",
                "ORDERS_WS_MAX_CONNECTIONS", "1"))) {
            final List<Socket> silent = new ArrayList<>();
            for (int i = 0; i < 101; i++) {
                silent.add(connect(service));   // never sends a byte
            }
            String answer = "unanswered yet";
            for (int attempt = 0; attempt < 100 && !answer.isEmpty(); attempt++) {
                Thread.sleep(50);   // until the server has accepted all of them
                try (Socket over = connect(service)) {
                    answer = exchangeOrClosed(over, get("/health"));
                }
            }
            assertEquals("", answer, "with 101 silent sockets open, the 102nd connection is closed unanswered");
            silent.remove(0).close();
            answer = "";
            for (int attempt = 0; attempt < 100 && answer.isEmpty(); attempt++) {
                Thread.sleep(50);   // until the server has seen the close
                try (Socket again = connect(service)) {
                    answer = exchangeOrClosed(again, get("/health"));
                }
            }
            assertEquals(200, status(answer), "a connection fits again once a silent one closed");
            for (final Socket socket : silent) {
                socket.close();
            }
        }
    }

    @Test
    void anIdleConnectionIsClosedAfterTheIdleTimeout() throws Exception {
        try (RunningService service = RunningService.start(dir, Map.of("ORDERS_HTTP_IDLE_TIMEOUT_SECONDS", "1"));
             Socket idle = connect(service)) {
            idle.setSoTimeout(30_000);
            assertEquals(-1, idle.getInputStream().read(), "the server closes a connection that sends nothing");
        }
    }

    @Test
    void anOrderWhoseBodyTricklesPastTheTimeoutIsAnswered408AndItsConnectionClosed() throws Exception {
        try (RunningService service = RunningService.start(dir, Map.of("ORDERS_HTTP_BODY_TIMEOUT_SECONDS", "1"));
             Socket slow = connect(service)) {
            slow.setSoTimeout(15_000);
            slow.getOutputStream().write(("POST /api/v1/orders HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 200\r\n\r\n{\"accountId\":").getBytes(StandardCharsets.US_ASCII));
            final String answer = exchangeOrClosed(slow, "");
            assertEquals(408, status(answer), answer);
            final JsonNode body = new ObjectMapper().readTree(answer.substring(answer.indexOf("\r\n\r\n") + 4));
            assertEquals("REQUEST_TIMEOUT", body.get("error").get("code").asText(), answer);
            assertEquals(-1, slow.getInputStream().read(), "the connection is closed");
            assertEquals(200, service.client().get("/health").status(), "others are served meanwhile");
        }
    }

    @Test
    void oversizedHeadersLongRequestLinesAndBrokenRequestsAreAnsweredInTheErrorShapeAndClosed() throws Exception {
        try (RunningService service = RunningService.start(dir, Map.of())) {
            final String bigHeader = "GET /health HTTP/1.1\r\nHost: x\r\nX-Big: " + "a".repeat(10_000) + "\r\n\r\n";
            final String longLine = "GET /" + "a".repeat(10_000) + " HTTP/1.1\r\nHost: x\r\n\r\n";
            final String broken = "GET /health HTTP/1.1\r\nHost: x\r\nContent-Length: lots\r\n\r\n";
            final Object[][] cases = {{bigHeader, 431, "HEADERS_TOO_LARGE"}, {longLine, 414, "URI_TOO_LONG"},
                {broken, 400, "INVALID_HTTP"}};
            for (final Object[] c : cases) {
                try (Socket socket = connect(service)) {
                    final String answer = exchange(socket, (String) c[0]);
                    assertEquals(c[1], status(answer), answer);
                    final JsonNode body = new ObjectMapper().readTree(answer.substring(answer.indexOf("\r\n\r\n") + 4));
                    assertEquals(c[2], body.get("error").get("code").asText(), answer);
                    assertEquals(-1, socket.getInputStream().read(), "the connection is closed after the answer");
                }
            }
        }
    }

    private static Socket connect(final RunningService service) throws IOException {
        final Socket socket = new Socket("127.0.0.1", service.port());
        socket.setSoTimeout(10_000);
        return socket;
    }

    private static String get(final String path) {
        return "GET " + path + " HTTP/1.1\r\nHost: x\r\n\r\n";
    }

    /** Sends a request and reads one answer (headers and a Content-Length body). */
    private static String exchange(final Socket socket, final String request) throws IOException {
        socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
        final InputStream in = socket.getInputStream();
        final StringBuilder text = new StringBuilder();
        int length = -1;
        while (true) {
            final int b = in.read();
            if (b < 0) {
                return text.toString();
            }
            text.append((char) b);
            if (length < 0 && text.toString().endsWith("\r\n\r\n")) {
                final java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?i)content-length: *(\\d+)")
                        .matcher(text);
                length = m.find() ? Integer.parseInt(m.group(1)) : 0;
                final byte[] body = in.readNBytes(length);
                text.append(new String(body, StandardCharsets.UTF_8));
                return text.toString();
            }
        }
    }

    /** {@link #exchange}, or "" when the server closed the connection without answering. */
    private static String exchangeOrClosed(final Socket socket, final String request) throws IOException {
        try {
            return exchange(socket, request);
        } catch (final SocketException reset) {
            return "";
        } catch (final SocketTimeoutException noAnswer) {
            throw new AssertionError("neither an answer nor a close within 10 s", noAnswer);
        }
    }

    private static int status(final String answer) {
        return answer.matches("(?s)HTTP/1\\.[01] .*") ? Integer.parseInt(answer.substring(9, 12)) : -1;
    }
}
