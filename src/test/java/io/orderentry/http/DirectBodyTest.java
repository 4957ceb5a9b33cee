package io.orderentry.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An answer's direct body goes back to its pool once: after the write, when the response was already ended, and
 * when the client went away before the answer was ready. Vert.x itself never releases such a buffer, so a missed
 * release here would leak pooled memory with every order.
 */
class DirectBodyTest {

    private Vertx vertx;
    private HttpServer server;
    private final List<ByteBuf> bodies = new CopyOnWriteArrayList<>();
    private volatile CountDownLatch answered;

    @BeforeEach
    void start() throws Exception {
        vertx = Vertx.vertx();
        server = vertx.createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(0))
                .requestHandler(request -> {
                    final ByteBuf body = Unpooled.directBuffer(64).writeBytes(
                            ("{\"path\":\"" + request.path() + "\"}").getBytes(StandardCharsets.US_ASCII));
                    bodies.add(body);
                    switch (request.path()) {
                        case "/ended" -> {
                            request.response().end("first");
                            DirectBody.respond(request, 201, "application/json", body);
                            answered.countDown();
                        }
                        case "/late" -> request.connection().closeHandler(closed -> {
                            DirectBody.respond(request, 201, "application/json", body);
                            answered.countDown();
                        });
                        default -> {
                            DirectBody.respond(request, 201, "application/json", body);
                            answered.countDown();
                        }
                    }
                })
                .listen().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    @AfterEach
    void stop() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    @Test
    void shouldAnswerWithTheBodyAndReleaseItOnceWritten() throws Exception {
        answered = new CountDownLatch(200);
        final HttpClient client = HttpClient.newHttpClient();
        for (int i = 0; i < 200; i++) {
            final HttpResponse<String> response = client.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + server.actualPort() + "/orders/" + i)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(201, response.statusCode());
            assertEquals("{\"path\":\"/orders/" + i + "\"}", response.body());
            assertEquals("application/json", response.headers().firstValue("Content-Type").orElse(null));
        }
        assertTrue(answered.await(30, TimeUnit.SECONDS));
        assertAllReleased(200);
    }

    @Test
    void shouldReleaseTheBodyWhenTheResponseWasAlreadyEnded() throws Exception {
        answered = new CountDownLatch(1);
        final HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + server.actualPort() + "/ended")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals("first", response.body());
        assertTrue(answered.await(30, TimeUnit.SECONDS));
        assertAllReleased(1);
    }

    @Test
    void shouldReleaseTheBodyWhenTheClientLeftBeforeTheAnswer() throws Exception {
        answered = new CountDownLatch(1);
        try (Socket socket = new Socket("127.0.0.1", server.actualPort())) {
            final OutputStream out = socket.getOutputStream();
            out.write("GET /late HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            while (bodies.isEmpty()) {
                Thread.sleep(5);
            }
        }
        assertTrue(answered.await(30, TimeUnit.SECONDS));
        assertAllReleased(1);
    }

    /** The release follows the write's completion on the event loop: wait for it, boundedly. */
    private void assertAllReleased(final int expected) throws InterruptedException {
        assertEquals(expected, bodies.size());
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline && bodies.stream().anyMatch(b -> b.refCnt() != 0)) {
            Thread.sleep(10);
        }
        for (final ByteBuf body : bodies) {
            assertEquals(0, body.refCnt(), "a body still held after its answer");
        }
    }
}
