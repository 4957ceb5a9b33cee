package io.orderentry.bench.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.lmax.disruptor.EventHandler;
import com.lmax.disruptor.InsufficientCapacityException;
import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.TimeoutException;
import com.lmax.disruptor.dsl.Disruptor;
import com.lmax.disruptor.dsl.ProducerType;
import io.orderentry.pipeline.StageWaitStrategy;
import io.vertx.core.Context;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The durable floor: the least any durable LMAX design can do on this disk. The {@link JsonBaselineServer}'s HTTP
 * set-up (vertx-web router, 16 KiB body limit, one verticle per core, TCP_NODELAY, Jackson parses the order) plus a
 * Disruptor ring (MULTI producer: the event loops publish; {@link StageWaitStrategy}, the service's {@code blocking}
 * default) with one handler that appends each request's body, length-prefixed (4-byte big-endian length, then the
 * bytes), to {@code DIR/floor.log}, and at the end of each batch writes the batch with one {@code FileChannel.write}
 * (more only when it exceeds the {@value #BUFFER_BYTES}-byte buffer) and one {@code force(false)} (fdatasync, as the
 * journal's group commit does), then hands the batch's requests back to their event loops, once per event loop and
 * batch (as the service's ReplyStage does), which answer {@code 201}. The file never rolls: it grows for as long as the
 * server runs (about 250 bytes an order), so give it a directory with room.
 *
 * <pre>
 *   loadtest/floor.sh [PORT] [DIR]     # then point the load at it exactly as at the service
 * </pre>
 *
 * <p>A malformed body is answered {@code 400} and never reaches the ring; a full ring {@code 503}. A write or force
 * that fails answers its batch {@code 503} and every later request too (the file's end is then unknown), as the
 * service's journal does.
 */
public final class DurableFloorServer implements AutoCloseable {

    static final int RING_SIZE = 1 << 16;
    static final int BUFFER_BYTES = 1 << 20;
    private static final int MAX_BODY_BYTES = 16 * 1024;
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final Path file;
    private final FileChannel channel;
    private final Disruptor<Appended> disruptor;
    private final RingBuffer<Appended> ring;
    private final AtomicReferenceArray<Edge> edges;
    private final AtomicInteger nextEdge = new AtomicInteger();
    private volatile IOException failure;

    private DurableFloorServer(final Path file, final int instances) throws IOException {
        this.file = file;
        this.channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING);
        this.edges = new AtomicReferenceArray<>(instances);
        this.disruptor = new Disruptor<>(Appended::new, RING_SIZE, runnable -> {
            final Thread thread = new Thread(runnable, "floor-append");
            thread.setDaemon(true);
            return thread;
        }, ProducerType.MULTI, new StageWaitStrategy());
        disruptor.handleEventsWith(new AppendStage(instances));
        this.ring = disruptor.start();
    }

    public static void main(final String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: DurableFloorServer PORT DIR");
            System.exit(2);
        }
        final int port = Integer.parseInt(args[0]);
        final Path dir = Path.of(args[1]);
        final int instances = Runtime.getRuntime().availableProcessors();
        start(Vertx.vertx(), port, dir, instances)
                .onSuccess(floor -> System.out.println("durable floor listening on 127.0.0.1:" + port + " with "
                        + instances + " event loops, appending to " + floor.file()))
                .onFailure(e -> {
                    e.printStackTrace();
                    System.exit(1);
                });
    }

    /**
     * Starts the floor: opens (and truncates) {@code dir/floor.log}, starts the ring and deploys {@code instances}
     * verticles listening on 127.0.0.1:{@code port}.
     */
    public static Future<DurableFloorServer> start(final Vertx vertx, final int port, final Path dir,
                                                   final int instances) {
        final DurableFloorServer floor;
        try {
            Files.createDirectories(dir);
            floor = new DurableFloorServer(dir.resolve("floor.log"), instances);
        } catch (final IOException e) {
            return Future.failedFuture(e);
        }
        return vertx.deployVerticle(() -> floor.new Edge(port), new DeploymentOptions().setInstances(instances))
                .map(id -> floor);
    }

    /** @return the file this floor appends to */
    public Path file() {
        return file;
    }

    /**
     * Stops the ring once it has appended (and answered) everything published, then closes the file. Close the Vert.x
     * instance first, so that nothing publishes any more.
     */
    @Override
    public void close() throws IOException {
        try {
            disruptor.shutdown(10, TimeUnit.SECONDS);
        } catch (final TimeoutException e) {
            disruptor.halt();
            throw new IOException("the append stage did not drain within 10 s", e);
        } finally {
            channel.close();
        }
    }

    /** One request on the ring: its body and who answers it. */
    private static final class Appended {
        byte[] body;
        Edge edge;
        RoutingContext request;
        String clientOrderId;
    }

    /** An answered request's context and what its answer names, handed back to its event loop. */
    private record Reply(RoutingContext request, String clientOrderId, long orderId) {
    }

    /** The ring's only handler: appends, writes and forces each batch, then hands its replies back. */
    private final class AppendStage implements EventHandler<Appended> {

        private final ByteBuffer buffer = ByteBuffer.allocateDirect(BUFFER_BYTES);
        private final List<List<Reply>> pending;
        private long position;

        AppendStage(final int instances) {
            pending = new ArrayList<>(instances);
            for (int i = 0; i < instances; i++) {
                pending.add(new ArrayList<>());
            }
        }

        @Override
        public void onEvent(final Appended event, final long sequence, final boolean endOfBatch) {
            final byte[] body = event.body;
            if (failure == null) {
                try {
                    if (buffer.remaining() < Integer.BYTES + body.length) {
                        write();
                    }
                    buffer.putInt(body.length).put(body);
                } catch (final IOException e) {
                    fail(e);
                }
            }
            pending.get(event.edge.index).add(new Reply(event.request, event.clientOrderId, sequence + 1));
            event.body = null;
            event.request = null;
            event.clientOrderId = null;
            if (endOfBatch) {
                if (failure == null) {
                    try {
                        write();
                        channel.force(false);
                    } catch (final IOException e) {
                        fail(e);
                    }
                }
                final boolean durable = failure == null;
                for (int i = 0; i < pending.size(); i++) {
                    final List<Reply> replies = pending.get(i);
                    if (!replies.isEmpty()) {
                        edges.get(i).deliver(replies, durable);
                        pending.set(i, new ArrayList<>());
                    }
                }
            }
        }

        private void write() throws IOException {
            buffer.flip();
            while (buffer.hasRemaining()) {
                position += channel.write(buffer, position);
            }
            buffer.clear();
        }

        private void fail(final IOException e) {
            failure = e;
            System.err.println("durable floor: the append failed; answering 503 from now on");
            e.printStackTrace();
        }
    }

    /** One verticle: parses each order and publishes it to the ring; answers the replies handed back. */
    private final class Edge extends VerticleBase {

        private final int port;
        private int index;
        private Context loop;

        Edge(final int port) {
            this.port = port;
        }

        @Override
        public Future<?> start() {
            loop = context;
            index = nextEdge.getAndIncrement();
            edges.set(index, this);
            final Router router = Router.router(vertx);
            router.route().handler(BodyHandler.create(false).setBodyLimit(MAX_BODY_BYTES));
            router.post("/api/v1/orders").handler(this::order);
            return vertx.createHttpServer(new HttpServerOptions().setTcpNoDelay(true)).requestHandler(router)
                    .listen(port, "127.0.0.1");
        }

        private void order(final RoutingContext ctx) {
            final Buffer received = ctx.body().buffer();
            final byte[] body = received == null ? new byte[0] : received.getBytes();
            final JsonNode order;
            try {
                order = MAPPER.readTree(body);
            } catch (final IOException e) {
                ctx.response().setStatusCode(400).end("{\"error\":{\"code\":\"MALFORMED_JSON\"}}");
                return;
            }
            if (order == null || !order.isObject()) {
                ctx.response().setStatusCode(400).end("{\"error\":{\"code\":\"MALFORMED_JSON\"}}");
                return;
            }
            if (failure != null) {
                ctx.response().setStatusCode(503).end("{\"error\":{\"code\":\"JOURNAL_UNAVAILABLE\"}}");
                return;
            }
            final long sequence;
            try {
                sequence = ring.tryNext();
            } catch (final InsufficientCapacityException full) {
                ctx.response().setStatusCode(503).end("{\"error\":{\"code\":\"OVERLOADED\"}}");
                return;
            }
            final Appended event = ring.get(sequence);
            event.body = body;
            event.edge = this;
            event.request = ctx;
            event.clientOrderId = order.path("clientOrderId").asText();
            ring.publish(sequence);
        }

        /** Called on the append thread; hops onto this verticle's event loop. */
        void deliver(final List<Reply> replies, final boolean durable) {
            loop.runOnContext(ignored -> {
                for (int i = 0; i < replies.size(); i++) {
                    final Reply reply = replies.get(i);
                    if (!durable) {
                        reply.request().response().setStatusCode(503)
                                .end("{\"error\":{\"code\":\"JOURNAL_UNAVAILABLE\"}}");
                        continue;
                    }
                    reply.request().response().setStatusCode(201).putHeader("content-type", "application/json")
                            .end("{\"orderId\":\"" + reply.orderId() + "\",\"clientOrderId\":\""
                                    + reply.clientOrderId() + "\",\"status\":\"NEW\"}");
                }
            });
        }
    }
}
