package io.orderentry.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.orderentry.testing.ApiClient;
import io.orderentry.testing.ApiClient.Answer;
import io.orderentry.testing.ServiceProcess;
import io.orderentry.testing.TestCertificate;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * HTTPS and WSS from the real jar with {@code ORDERS_TLS_CERT} and {@code ORDERS_TLS_KEY}: a certificate made at test
 * time by {@code openssl} (skipped with a message where there is none), a client trusting only that certificate, and
 * an API key made by {@code keys create}. Also the start refused when only one of the two settings is given.
 */
class TlsIT {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void ordersAndTheMarketDataStreamGoOverTlsAndPlainHttpOnThatPortGetsNoHttpAnswer() throws Exception {
        final TestCertificate certificate = TestCertificate.create(dir);
        assumeTrue(certificate != null, "needs the openssl binary to make a certificate at test time"
                + " (Debian: apt-get install openssl)");
        final Path keys = dir.resolve("keys");
        final String secret = ServiceProcess.createKey(keys, "acct-tls");
        final SSLContext tls = certificate.trustingContext();
        try (ServiceProcess service = ServiceProcess.launch(dir, Map.of("ORDERS_AUTH", "keys",
                "ORDERS_AUTH_KEYS_FILE", keys.toString(), "ORDERS_TLS_CERT", certificate.cert().toString(),
                "ORDERS_TLS_KEY", certificate.key().toString()), "service")) {
            service.awaitReady(Duration.ofSeconds(60), HttpClient.newBuilder().sslContext(tls)
                    .connectTimeout(Duration.ofSeconds(1)).build(), "https");

            final ApiClient api = ApiClient.https(service.port(), tls, secret);
            final Answer placed = api.post("/api/v1/orders", ApiClient.limit("acct-tls", "tls-1", "BTCUSD", "BUY",
                    "50000.00", "0.5", null));
            assertEquals(201, placed.status(), placed.body());
            assertEquals("NEW", placed.json().get("status").asText(), placed.body());
            assertEquals(401, ApiClient.https(service.port(), tls, null).post("/api/v1/orders",
                    ApiClient.limit("acct-tls", "tls-2", "BTCUSD", "BUY", "50000.00", "0.5", null)).status(),
                    "TLS does not replace the key");

            final PlainReply plain = plainHttp(service.port());
            assertFalse(plain.received().startsWith("HTTP/"),
                    "a plain-HTTP request to the TLS port got an HTTP answer: " + plain.received());
            assertTrue(plain.closed(), "the server closes a connection that does not speak TLS");

            final JsonNode snapshot = bookSnapshotOverWss(service.port(), tls);
            assertEquals("BTCUSD", snapshot.get("symbol").asText(), snapshot.toString());
            assertEquals("50000.00", snapshot.get("bids").get(0).get(0).asText(), snapshot.toString());
            final BigDecimal quantity = new BigDecimal(snapshot.get("bids").get(0).get(1).asText());
            assertEquals(0, new BigDecimal("0.5").compareTo(quantity), snapshot.toString());

            assertEquals(200, api.get("/health").status(), "still serving TLS after the plain-HTTP attempt");
        }
    }

    @Test
    void aStartWithOnlyTheCertificateOrOnlyTheKeyExitsWithStatusTwoAndSaysWhy() throws Exception {
        final Path pem = Files.writeString(dir.resolve("some.pem"), "-----BEGIN CERTIFICATE-----\n");
        for (final String only : new String[] {"ORDERS_TLS_CERT", "ORDERS_TLS_KEY"}) {
            try (ServiceProcess service = ServiceProcess.launch(dir, Map.of(only, pem.toString()), "only-" + only)) {
                assertEquals(2, service.awaitExit(Duration.ofSeconds(60)), service.log());
                assertTrue(service.log().contains("invalid configuration: ORDERS_TLS_CERT and ORDERS_TLS_KEY must be"
                        + " set together"), service.log());
            }
        }
    }

    /** What came back to a plain-HTTP request: the bytes, and whether the server ended the connection. */
    private record PlainReply(String received, boolean closed) {
    }

    /** Sends a plain-HTTP request and reads until the server closes the connection or 5 s pass. */
    private static PlainReply plainHttp(final int port) throws IOException {
        final ByteArrayOutputStream got = new ByteArrayOutputStream();
        boolean closed;
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(5_000);
            socket.getOutputStream().write("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            final InputStream in = socket.getInputStream();
            final byte[] buffer = new byte[4096];
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                got.write(buffer, 0, n);
            }
            closed = true;
        } catch (final SocketTimeoutException silent) {
            closed = false;
        } catch (final SocketException reset) {
            closed = true;
        }
        return new PlainReply(got.toString(StandardCharsets.ISO_8859_1), closed);
    }

    /** Subscribes to BTCUSD's book over {@code wss://} and returns the snapshot it answers with. */
    private static JsonNode bookSnapshotOverWss(final int port, final SSLContext tls) throws Exception {
        final BlockingQueue<String> messages = new LinkedBlockingQueue<>();
        final WebSocket.Listener listener = new WebSocket.Listener() {
            private final StringBuilder partial = new StringBuilder();

            @Override
            public CompletionStage<?> onText(final WebSocket socket, final CharSequence data, final boolean last) {
                partial.append(data);
                if (last) {
                    messages.add(partial.toString());
                    partial.setLength(0);
                }
                socket.request(1);
                return null;
            }
        };
        final WebSocket socket = HttpClient.newBuilder().sslContext(tls).connectTimeout(Duration.ofSeconds(5)).build()
                .newWebSocketBuilder().buildAsync(URI.create("wss://127.0.0.1:" + port + "/api/v1/stream"), listener)
                .get(30, TimeUnit.SECONDS);
        try {
            socket.sendText("{\"op\":\"subscribe\",\"channel\":\"book\",\"symbol\":\"BTCUSD\"}", true)
                    .get(30, TimeUnit.SECONDS);
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (System.nanoTime() < deadline) {
                final String text = messages.poll(1, TimeUnit.SECONDS);
                if (text == null) {
                    continue;
                }
                final JsonNode message = MAPPER.readTree(text);
                if ("snapshot".equals(message.path("type").asText())
                        && "book".equals(message.path("channel").asText())) {
                    assertNotNull(message.get("sequence"), text);
                    return message;
                }
            }
            throw new AssertionError("no book snapshot over wss:// within 30 s");
        } finally {
            socket.abort();
        }
    }
}
