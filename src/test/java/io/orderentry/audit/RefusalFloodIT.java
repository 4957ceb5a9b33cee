package io.orderentry.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.orderentry.http.RequestIds;
import io.orderentry.testing.ApiClient.Answer;
import io.orderentry.testing.ServiceProcess;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real jar with API keys: one address flooding keyless order requests (401) spends only its own share of the
 * audit budget; another address's failed authentication, sent during the flood, is still recorded one by one. The
 * flood comes from 127.0.0.2 (all of 127/8 is loopback on Linux), the other request from 127.0.0.1.
 */
class RefusalFloodIT {

    private static final String ORDER = "{\"accountId\":\"victim\",\"symbol\":\"BTCUSD\",\"side\":\"BUY\","
            + "\"type\":\"LIMIT\",\"price\":\"100.00\",\"quantity\":\"1\"}";

    @TempDir
    Path dir;

    @Test
    void oneAddressFlooding401sDoesNotStopAnotherAddresss401BeingRecordedOneByOne() throws Exception {
        final Path keys = dir.resolve("keys");
        ServiceProcess.createKey(keys, "alice");
        try (ServiceProcess service = ServiceProcess.start(dir, Map.of("ORDERS_AUTH", "keys",
                "ORDERS_AUTH_KEYS_FILE", keys.toString()), "flood")) {
            final AtomicBoolean running = new AtomicBoolean(true);
            final AtomicLong flooded = new AtomicLong();
            final AtomicReference<IOException> floodError = new AtomicReference<>();
            final Thread flooder = new Thread(() -> flood(service.port(), running, flooded, floodError), "flooder");
            flooder.start();
            try {
                final long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
                while (flooded.get() < 2_000 && System.nanoTime() < deadline) {
                    Thread.sleep(10);   // well past both the flooder's share and the old shared burst (1,000)
                }
                assertTrue(flooded.get() >= 2_000, "the flood did not get going: " + flooded.get() + " answers, last"
                        + " error " + floodError.get());
                final Answer other = service.client().post("/api/v1/orders", ORDER);
                assertEquals(401, other.status(), other.body());
                final String tag = other.header(RequestIds.HEADER);
                final JsonNode record = awaitRecord(tag);
                assertEquals("127.0.0.1", record.get("remoteAddress").asText().split(":")[0]);
                assertEquals("UNAUTHENTICATED", record.at("/outcome/code").asText());
            } finally {
                running.set(false);
                flooder.join(10_000);
            }
            final long flooderRecords = Trails.records(dir.resolve("audit")).stream()
                    .filter(r -> r.get("remoteAddress").asText("").startsWith("127.0.0.2:")).count();
            assertTrue(flooderRecords < flooded.get() / 2, flooderRecords + " of " + flooded.get()
                    + " flooded refusals recorded one by one: the flooder was not held to its share");
        }
    }

    /** Sends keyless orders from 127.0.0.2 on one keep-alive connection, reading each answer, until stopped. */
    private static void flood(final int port, final AtomicBoolean running, final AtomicLong sent,
                              final AtomicReference<IOException> error) {
        final byte[] request = ("POST /api/v1/orders HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Content-Length: " + ORDER.length() + "\r\n\r\n" + ORDER).getBytes(StandardCharsets.US_ASCII);
        while (running.get()) {
            try (Socket socket = new Socket()) {
                socket.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.2"), 0));
                socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5_000);
                socket.setSoTimeout(10_000);
                final OutputStream out = socket.getOutputStream();
                final InputStream in = socket.getInputStream();
                while (running.get()) {
                    out.write(request);
                    out.flush();
                    if (!readAnswer(in)) {
                        break;   // closed by the server: open another connection
                    }
                    sent.incrementAndGet();
                }
            } catch (final IOException e) {
                error.set(e);   // a closed or reset connection: the loop opens another while the flood runs
            }
        }
    }

    /** Reads one HTTP/1.1 answer (headers and a Content-Length body); @return false at end of stream */
    private static boolean readAnswer(final InputStream in) throws IOException {
        final ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4) {
            final int b = in.read();
            if (b < 0) {
                return false;
            }
            head.write(b);
            matched = b == (matched % 2 == 0 ? '\r' : '\n') ? matched + 1 : b == '\r' ? 1 : 0;
        }
        int length = 0;
        for (final String line : head.toString(StandardCharsets.US_ASCII).split("\r\n")) {
            if (line.regionMatches(true, 0, "content-length:", 0, 15)) {
                length = Integer.parseInt(line.substring(15).trim());
            }
        }
        return in.readNBytes(length).length == length;
    }

    private JsonNode awaitRecord(final String requestId) throws InterruptedException {
        final long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (System.nanoTime() < deadline) {
            for (final JsonNode record : Trails.records(dir.resolve("audit"))) {
                if (requestId.equals(record.get("requestId").asText(null))) {
                    return record;
                }
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the 401 of another address (" + requestId + ") has no record of its own");
    }
}
