package io.orderentry.bench.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.orderentry.testing.FreePort;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The durable floor answers 201 only for bodies already in its file, refuses malformed ones, and loses none. */
class DurableFloorServerTest {

    @TempDir
    Path dir;

    private Vertx vertx;
    private DurableFloorServer floor;
    private URI orders;
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @BeforeEach
    void start() throws Exception {
        vertx = Vertx.vertx();
        final int port = FreePort.pick();
        floor = DurableFloorServer.start(vertx, port, dir, 2).toCompletionStage().toCompletableFuture()
                .get(30, TimeUnit.SECONDS);
        orders = URI.create("http://127.0.0.1:" + port + "/api/v1/orders");
    }

    @AfterEach
    void stop() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        floor.close();
    }

    @Test
    void shouldAnswer201OnlyOnceTheBodyIsInTheFile() throws Exception {
        final String body = order("c-1");
        final HttpResponse<String> response = client.send(post(body), HttpResponse.BodyHandlers.ofString());
        assertEquals(201, response.statusCode());
        assertTrue(response.body().contains("\"clientOrderId\":\"c-1\""), response.body());
        assertEquals(List.of(body), appended());
    }

    @Test
    void shouldRefuseAMalformedBodyAndAppendNothing() throws Exception {
        final HttpResponse<String> malformed = client.send(post("{\"symbol\":"), HttpResponse.BodyHandlers.ofString());
        assertEquals(400, malformed.statusCode());
        final HttpResponse<String> notAnObject = client.send(post("[1,2]"), HttpResponse.BodyHandlers.ofString());
        assertEquals(400, notAnObject.statusCode());
        assertEquals(0, Files.size(floor.file()));
        final String body = order("c-after");
        assertEquals(201, client.send(post(body), HttpResponse.BodyHandlers.ofString()).statusCode());
        assertEquals(List.of(body), appended());
    }

    @Test
    void shouldAnswerAndAppendEveryConcurrentRequest() throws Exception {
        final int count = 200;
        final List<CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
        final Set<String> sent = new HashSet<>();
        for (int i = 0; i < count; i++) {
            final String body = order("c-" + i);
            sent.add(body);
            answers.add(client.sendAsync(post(body), HttpResponse.BodyHandlers.ofString()));
        }
        for (final CompletableFuture<HttpResponse<String>> answer : answers) {
            assertEquals(201, answer.get(30, TimeUnit.SECONDS).statusCode());
        }
        final List<String> appended = appended();
        assertEquals(count, appended.size());
        assertEquals(sent, new HashSet<>(appended));
    }

    private HttpRequest post(final String body) {
        return HttpRequest.newBuilder(orders).header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
    }

    private static String order(final String clientOrderId) {
        return "{\"clientOrderId\":\"" + clientOrderId + "\",\"accountId\":\"lat-1\",\"symbol\":\"AAPL\","
                + "\"side\":\"BUY\",\"type\":\"LIMIT\",\"price\":\"100.25\",\"quantity\":\"10\"}";
    }

    /** The file's records: each a 4-byte big-endian length and that many bytes of body. */
    private List<String> appended() throws IOException {
        final ByteBuffer file = ByteBuffer.wrap(Files.readAllBytes(floor.file()));
        final List<String> bodies = new ArrayList<>();
        while (file.hasRemaining()) {
            final byte[] body = new byte[file.getInt()];
            file.get(body);
            bodies.add(new String(body, StandardCharsets.UTF_8));
        }
        return bodies;
    }
}
