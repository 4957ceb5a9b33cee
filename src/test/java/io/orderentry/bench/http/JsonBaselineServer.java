package io.orderentry.bench.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.BodyHandler;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The ceiling the service is measured against: a Vert.x server with the service's HTTP set-up (vertx-web router,
 * 16 KiB body limit, one verticle per core, TCP_NODELAY) that only parses the order JSON with Jackson and answers
 * {@code 201} with a small JSON body, with no ring, journal, matcher or database behind it.
 *
 * <pre>
 *   loadtest/baseline.sh [PORT]     # then point wrk at it exactly as at the service
 * </pre>
 * Tests start it in-process with {@link #start(int)}.
 */
public final class JsonBaselineServer extends VerticleBase {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final AtomicLong IDS = new AtomicLong();

    private final int port;

    private JsonBaselineServer(final int port) {
        this.port = port;
    }

    public static void main(final String[] args) {
        final int port = args.length > 0 ? Integer.parseInt(args[0]) : 18081;
        final int instances = Runtime.getRuntime().availableProcessors();
        Vertx.vertx().deployVerticle(() -> new JsonBaselineServer(port), new DeploymentOptions().setInstances(instances))
                .onSuccess(id -> System.out.println("json baseline listening on 127.0.0.1:" + port + " with "
                        + instances + " event loops"))
                .onFailure(e -> {
                    e.printStackTrace();
                    System.exit(1);
                });
    }

    /**
     * Starts the server on 127.0.0.1:{@code port} as {@link #main} does, one verticle per core, in this process.
     *
     * @return what stops it (its own Vert.x instance) when closed
     */
    public static AutoCloseable start(final int port) throws Exception {
        final Vertx vertx = Vertx.vertx();
        final int instances = Runtime.getRuntime().availableProcessors();
        try {
            vertx.deployVerticle(() -> new JsonBaselineServer(port), new DeploymentOptions().setInstances(instances))
                    .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        } catch (final Exception e) {
            vertx.close();
            throw e;
        }
        return () -> vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    @Override
    public Future<?> start() {
        final Router router = Router.router(vertx);
        router.route().handler(BodyHandler.create(false).setBodyLimit(16 * 1024));
        router.post("/api/v1/orders").handler(ctx -> {
            final JsonNode order;
            try {
                order = MAPPER.readTree(ctx.body().buffer().getBytes());
            } catch (final java.io.IOException e) {
                ctx.response().setStatusCode(400).end("{\"error\":{\"code\":\"MALFORMED_JSON\"}}");
                return;
            }
            final String body = "{\"orderId\":\"" + IDS.incrementAndGet() + "\",\"clientOrderId\":\""
                    + order.path("clientOrderId").asText() + "\",\"status\":\"NEW\"}";
            ctx.response().setStatusCode(201).putHeader("content-type", "application/json").end(body);
        });
        return vertx.createHttpServer(new HttpServerOptions().setTcpNoDelay(true)).requestHandler(router)
                .listen(port, "127.0.0.1");
    }
}
