package io.orderentry.http;

import io.vertx.core.http.ServerWebSocket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;

/**
 * One WebSocket stream connection: its subscriptions with the last sequence sent on each, and its
 * outgoing backlog.
 *
 * <h2>Slow clients</h2>
 * Messages go straight to the socket while Vert.x's write queue (bounded by
 * {@code ws.write.queue.bytes}) is not full; otherwise they wait in a backlog of at most
 * {@code ws.max.queued.messages}. When the backlog overflows the connection is <em>conflated</em>:
 * the backlog is dropped, and so is everything after it, until the socket drains; then it gets one
 * fresh snapshot per subscription and updates resume from there. A connection that stays unable to
 * take messages for {@code ws.slow.client.millis} is closed with status 1008.
 *
 * <p>Threads: everything runs on the event loop of the {@link StreamHub} that owns the session.
 */
final class StreamSession {

    /** WebSocket close status for a policy violation: the client did not keep up. */
    static final short TOO_SLOW = 1008;

    private final StreamHub hub;
    private final ServerWebSocket socket;
    private final StreamMetrics metrics;
    private final long[] lastSequence;
    private final boolean[] subscribed;
    private final ArrayDeque<String> backlog = new ArrayDeque<>();
    private final int maxBacklog;
    private int subscriptions;
    private boolean conflated;
    private boolean closed;
    private long behindSinceNanos;

    /**
     * @param slots symbols times channels: one slot per possible subscription
     */
    StreamSession(final StreamHub hub, final ServerWebSocket socket, final StreamMetrics metrics, final int slots,
                  final int maxBacklog) {
        this.hub = hub;
        this.socket = socket;
        this.metrics = metrics;
        this.lastSequence = new long[slots];
        this.subscribed = new boolean[slots];
        this.maxBacklog = maxBacklog;
    }

    /** Wires the socket's handlers to the hub. */
    void start(final int writeQueueBytes) {
        socket.setWriteQueueMaxSize(writeQueueBytes);
        socket.textMessageHandler(text -> hub.request(this, text));
        socket.binaryMessageHandler(bytes -> hub.request(this, bytes.toString(StandardCharsets.UTF_8)));
        socket.drainHandler(ignored -> drained());
        socket.exceptionHandler(failure -> hub.failed(this, failure));
        socket.closeHandler(ignored -> {
            closed = true;
            backlog.clear();
            hub.closed(this);
        });
    }

    boolean isSubscribed(final int slot) {
        return subscribed[slot];
    }

    int subscriptions() {
        return subscriptions;
    }

    void subscribed(final int slot) {
        subscribed[slot] = true;
        subscriptions++;
    }

    void unsubscribed(final int slot) {
        subscribed[slot] = false;
        subscriptions--;
    }

    /** @return true while the session waits for its socket to drain before fresh snapshots */
    boolean conflated() {
        return conflated;
    }

    /** Sends a snapshot; updates on that slot continue after its sequence. */
    void snapshot(final int slot, final long sequence, final String text) {
        lastSequence[slot] = sequence;
        send(text);
    }

    /**
     * Sends an update unless the session is not subscribed, already has it (it came with a snapshot)
     * or is conflated.
     *
     * @throws IllegalStateException when the update is not the next one: a bug in the hand-over
     */
    void update(final int slot, final long sequence, final String text) {
        if (closed || conflated || !subscribed[slot] || sequence <= lastSequence[slot]) {
            return;
        }
        if (sequence != lastSequence[slot] + 1) {
            throw new IllegalStateException("stream update " + sequence + " after " + lastSequence[slot]
                    + " on slot " + slot + ": the hand-over lost updates");
        }
        lastSequence[slot] = sequence;
        send(text);
    }

    /** Sends a message, or queues it behind a full socket, or conflates when the backlog is full. */
    void send(final String text) {
        if (closed || conflated || socket.isClosed()) {
            return;
        }
        if (backlog.isEmpty() && !socket.writeQueueFull()) {
            write(text);
            return;
        }
        if (behindSinceNanos == 0) {
            behindSinceNanos = System.nanoTime();
        }
        if (backlog.size() >= maxBacklog) {
            backlog.clear();
            conflated = true;
            metrics.conflated();
            return;
        }
        backlog.add(text);
    }

    /**
     * Called by the hub's timer: closes the session if it has been behind too long, else sends the
     * heartbeat.
     */
    void tick(final long nowNanos, final long slowClientNanos, final String heartbeat) {
        if (closed) {
            return;
        }
        if (behindSinceNanos != 0 && nowNanos - behindSinceNanos > slowClientNanos) {
            closed = true;
            backlog.clear();
            metrics.slowDisconnect();
            hub.closed(this);
            socket.close(TOO_SLOW, "too slow: the stream could not be delivered");
            return;
        }
        send(heartbeat);
    }

    private void drained() {
        if (closed || socket.isClosed()) {
            return;
        }
        while (!backlog.isEmpty() && !socket.writeQueueFull()) {
            write(backlog.poll());
        }
        if (!backlog.isEmpty() || socket.writeQueueFull()) {
            return;
        }
        behindSinceNanos = 0;
        if (conflated) {
            conflated = false;
            for (int slot = 0; slot < subscribed.length; slot++) {
                if (subscribed[slot]) {
                    hub.snapshot(this, slot);
                }
            }
        }
    }

    private void write(final String text) {
        socket.writeTextMessage(text);
        metrics.sent();
    }
}
