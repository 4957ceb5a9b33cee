package io.orderentry.http.stream;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.orderentry.account.OrderUpdate;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.internal.http.WebSocketInternal;
import io.vertx.core.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.List;

/**
 * One WebSocket stream connection: its subscriptions with the last sequence sent on each, and its
 * outgoing backlog.
 *
 * <h2>Writes</h2>
 * The session writes complete WebSocket frames ({@link StreamFrames}) straight to the connection's Netty
 * channel, on its event loop: every message of one market data batch that this connection subscribed to
 * leaves in one buffer, one write and one system call, and the bytes of an update were rendered once for
 * all subscribers. Each message is still its own text frame, so clients see exactly the messages of the
 * contract. A connection that negotiated permessage-deflate gets each update compressed, the same compressed bytes
 * as every other such connection ({@link PerMessageDeflate}); its snapshots, heartbeats and answers go uncompressed,
 * which the extension allows. Vert.x itself only writes control frames (pong, close) on this connection.
 *
 * <h2>Slow clients</h2>
 * Writes go to the socket while its channel is writable (below {@code ws.write.queue.bytes} of unsent
 * bytes); otherwise they wait in a backlog of at most {@code ws.max.queued.messages} messages and
 * {@code ws.max.queued.bytes} bytes, and all connections' backlogs together hold at most
 * {@code ws.total.queued.bytes}. When a backlog would pass a bound the connection is <em>conflated</em>:
 * the backlog is dropped, and so is everything after it, until the socket drains; then it gets one fresh
 * snapshot per subscription and updates resume from there. A connection that stays unable to take messages
 * for {@code ws.slow.client.millis} is closed with status 1008.
 *
 * <h2>The private orders channel</h2>
 * A session follows at most one account's orders ({@link OrderFeedSubscription}). Its updates come already framed
 * from the order stage, through the same backlog and bounds as market data; a conflated session asks its
 * {@link OrderChannel} for a fresh snapshot once it drains, and drops the account's updates until that snapshot
 * arrives ({@link #ordersAwaitSnapshot}), then takes them from the snapshot's sequence on.
 *
 * <p>Threads: everything runs on the event loop of the {@link StreamHub} that owns the session.
 */
final class StreamSession {

    /** A write waiting behind a full socket: its bytes, how many messages they hold, whether it is an answer. */
    private record Queued(ByteBuf bytes, int messages, boolean answer) {
    }

    /** WebSocket close status for a policy violation: the client did not keep up. */
    static final short TOO_SLOW = 1008;
    /** WebSocket close status for a policy violation: a private channel the client may not have. */
    static final short REFUSED = 1008;
    /** WebSocket close status for a protocol error: a compressed frame without the extension. */
    static final short PROTOCOL_ERROR = 1002;
    /** WebSocket close status for an unexpected condition on the server. */
    static final short SERVER_ERROR = 1011;

    private final StreamHub hub;
    private final ServerWebSocket socket;
    private final ChannelHandlerContext channel;
    private final StreamMetrics metrics;
    private final long[] lastSequence;
    private final boolean[] subscribed;
    private final ArrayDeque<Queued> backlog = new ArrayDeque<>();
    private final int maxBacklogMessages;
    private final long maxBacklogBytes;
    private final long totalBacklogBytes;
    private int queuedMessages;
    private long queuedBytes;
    /** Order-entry answers in the backlog: a conflation would drop them, so it closes the connection instead. */
    private int queuedAnswers;
    private int subscriptions;
    /** The orders subscription, or null. */
    private OrderFeedSubscription orders;
    /** The sequence of the last orders message sent; -1 while a snapshot is awaited (updates are dropped). */
    private long ordersSequence = -1;
    private boolean conflated;
    private boolean closed;
    /** Order entry on this connection: its key, its waiting commands, its cancel on disconnect. */
    private final OrderEntrySession orderEntry = new OrderEntrySession();
    private StreamInbound inbound;
    private String remoteText;
    private boolean compressionKnown;
    private boolean compressing;
    private long behindSinceNanos;

    /**
     * @param slots symbols times channels: one slot per possible subscription
     */
    StreamSession(final StreamHub hub, final ServerWebSocket socket, final StreamMetrics metrics, final int slots,
                  final int maxBacklogMessages, final long maxBacklogBytes, final long totalBacklogBytes) {
        this.hub = hub;
        this.socket = socket;
        this.channel = ((WebSocketInternal) socket).channelHandlerContext();
        this.metrics = metrics;
        this.lastSequence = new long[slots];
        this.subscribed = new boolean[slots];
        this.maxBacklogMessages = maxBacklogMessages;
        this.maxBacklogBytes = maxBacklogBytes;
        this.totalBacklogBytes = totalBacklogBytes;
    }

    /**
     * Wires the socket's handlers to the hub, the channel's writability to {@link #drained()}, and {@code inbound}
     * (the budget and bounded inflating of what the client sends) after the connection's frame decoder.
     */
    void start(final int writeQueueBytes, final StreamInbound inbound) {
        this.inbound = inbound;
        StreamInbound.install(channel.pipeline(), inbound);
        socket.setWriteQueueMaxSize(writeQueueBytes);
        socket.textMessageHandler(text -> hub.request(this, text));
        socket.binaryMessageHandler(bytes -> hub.request(this, bytes.toString(StandardCharsets.UTF_8)));
        socket.exceptionHandler(failure -> hub.failed(this, failure));
        socket.closeHandler(ignored -> {
            closed = true;
            clearBacklog();
            hub.closed(this);
        });
        channel.pipeline().addBefore(channel.name(), "oe-stream-writability", new ChannelInboundHandlerAdapter() {
            @Override
            public void channelWritabilityChanged(final ChannelHandlerContext ctx) {
                if (ctx.channel().isWritable()) {
                    drained();
                }
                ctx.fireChannelWritabilityChanged();
            }
        });
    }

    /**
     * Sets the kernel's send buffer of this connection ({@code SO_SNDBUF}). Left to
     * the kernel's autotuning, a socket takes up to 4 MiB, so thousands of subscribers that stop reading at once made
     * the event loops copy gigabytes into the kernel before any of them counted as full (loadtest/RESULTS.md).
     */
    void sendBuffer(final int bytes) {
        channel.channel().config().setOption(io.netty.channel.ChannelOption.SO_SNDBUF, bytes);
    }

    /**
     * Finds out, once, whether this connection takes compressed updates (permessage-deflate negotiated at the
     * upgrade, see {@link PerMessageDeflate#negotiated}). Called on a subscription: by the time a client's message
     * arrives the upgrade's answer has been written and its handshake has set up the extension's handlers.
     *
     * @return true the first time it finds that it does, so that the caller counts the session
     */
    boolean learnCompression() {
        if (compressionKnown) {
            return false;
        }
        compressionKnown = true;
        compressing = PerMessageDeflate.negotiated(channel.pipeline(),
                String.join(",", socket.headers().getAll("Sec-WebSocket-Extensions")));
        return compressing;
    }

    /** @return whether this connection gets updates compressed (permessage-deflate) */
    boolean compressing() {
        return compressing;
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

    /** @return the upgrade request's header, or null */
    String header(final CharSequence name) {
        return socket.headers().get(name);
    }

    /** @return the client's address as the audit trail records it ({@code host:port}), worked out once */
    String remoteText() {
        if (remoteText == null) {
            remoteText = io.orderentry.http.RequestIds.remoteAddress(socket.remoteAddress());
        }
        return remoteText;
    }

    /** @return the connection's order entry */
    OrderEntrySession orderEntry() {
        return orderEntry;
    }

    /** Charges what the client sends from now on to {@code budget} (it logged in for order entry). */
    void budget(final io.orderentry.auth.TokenBucket budget) {
        inbound.budget(budget);
    }

    /** @return {@link System#nanoTime()} when anything (a data frame, a pong) last came from the client */
    long lastReadNanos() {
        return inbound.lastReadNanos();
    }

    /** Sends a WebSocket ping: a live client answers with a pong, which counts as having heard from it. */
    void ping() {
        if (!closed && !socket.isClosed()) {
            socket.writePing(io.vertx.core.buffer.Buffer.buffer());
        }
    }

    /** @return the client's address */
    SocketAddress remoteAddress() {
        return socket.remoteAddress();
    }

    /** @return the orders subscription, or null */
    OrderFeedSubscription orders() {
        return orders;
    }

    /** Follows {@code subscription}'s account from its snapshot on, in place of any earlier orders subscription. */
    void ordersSubscribed(final OrderFeedSubscription subscription) {
        if (orders == null) {
            subscriptions++;
        }
        orders = subscription;
        ordersSequence = -1;
    }

    /** The orders subscription ended; messages still on their way for it are dropped. */
    void ordersUnsubscribed() {
        if (orders != null) {
            orders = null;
            subscriptions--;
            ordersSequence = -1;
        }
    }

    /** Drops the orders updates until the next snapshot: one has been asked for after the session fell behind. */
    void ordersAwaitSnapshot() {
        ordersSequence = -1;
    }

    /**
     * Sends an orders snapshot of {@code subscription} (ignored if that is no longer the session's); updates
     * continue after {@code sequence}.
     *
     * @return whether it was handed to the socket or its backlog
     */
    boolean ordersSnapshot(final OrderFeedSubscription subscription, final long sequence, final byte[] frame) {
        if (subscription != orders || closed || conflated) {
            return false;
        }
        ordersSequence = sequence;
        send(frame);
        return true;
    }

    /**
     * Writes, in one write, the updates of {@code subscription} that follow the last orders message sent; those at
     * or before it (covered by a later snapshot) and all of them while a snapshot is awaited are dropped.
     *
     * @return how many messages it wrote or queued
     * @throws IllegalStateException when an update is not the next one: a bug in the hand-over
     */
    int ordersUpdates(final OrderFeedSubscription subscription, final List<OrderUpdate> updates,
                      final List<byte[]> frames) {
        if (subscription != orders || closed || conflated || ordersSequence < 0) {
            return 0;
        }
        int from = 0;
        while (from < updates.size() && updates.get(from).sequence() <= ordersSequence) {
            from++;
        }
        if (from == updates.size()) {
            return 0;
        }
        if (updates.get(from).sequence() != ordersSequence + 1) {
            throw new IllegalStateException("orders update " + updates.get(from).sequence() + " after "
                    + ordersSequence + " for account " + subscription.accountId() + ": the hand-over lost updates");
        }
        int bytes = 0;
        for (int i = from; i < frames.size(); i++) {
            bytes += frames.get(i).length;
        }
        final ByteBuf out = channel.alloc().directBuffer(bytes);
        for (int i = from; i < frames.size(); i++) {
            out.writeBytes(frames.get(i));
        }
        ordersSequence = updates.get(updates.size() - 1).sequence();
        write(out, frames.size() - from);
        return frames.size() - from;
    }

    /**
     * Sends {@code frame} (an error) and closes the connection with status 1008: the client may not have what it
     * asked for (a private channel it could not authenticate for).
     */
    void refuse(final byte[] frame, final String reason) {
        send(frame);
        if (!closed) {
            socket.close(REFUSED, reason);
        }
    }

    /** Sends a snapshot; updates on that slot continue after its sequence. */
    void snapshot(final int slot, final long sequence, final byte[] frame) {
        lastSequence[slot] = sequence;
        send(frame);
    }

    /**
     * Writes, in one write (one system call), every frame of a batch that this session subscribed to and does not
     * have yet (an update that came with a snapshot is skipped), unless it is conflated. The frames' bytes are
     * shared with every other subscriber, not copied: the write gathers them.
     *
     * @return the bytes written or queued, 0 if none
     * @throws IllegalStateException when an update is not the next one on its slot: a bug in the hand-over
     */
    int deliver(final StreamFanOut.Frame[] frames) {
        if (closed || conflated) {
            return 0;
        }
        int bytes = 0;
        int messages = 0;
        for (final StreamFanOut.Frame frame : frames) {
            if (wanted(frame)) {
                bytes += frame.bytesFor(compressing).readableBytes();
                messages++;
            }
        }
        if (messages == 0) {
            return 0;
        }
        final ByteBuf out;
        if (messages == 1) {
            out = only(frames);
        } else {
            final CompositeByteBuf parts = channel.alloc().compositeDirectBuffer(messages);
            for (final StreamFanOut.Frame frame : frames) {
                if (wanted(frame)) {
                    lastSequence[frame.slot()] = frame.sequence();
                    parts.addComponent(true, frame.bytesFor(compressing).retainedDuplicate());
                }
            }
            out = parts;
        }
        write(out, messages);
        return bytes;
    }

    /** Sends one message: a snapshot, heartbeat, error or acknowledgement, already framed. */
    void send(final byte[] frame) {
        if (closed || conflated) {
            return;
        }
        write(channel.alloc().directBuffer(frame.length).writeBytes(frame), 1);
    }

    /**
     * Sends the answer to an order-entry command, already framed in a buffer this call takes over. Unlike market data an answer is never conflated or
     * dropped while the connection is open: when it cannot be sent or queued within the session's bounds (the client
     * does not read), the connection is closed with 1008 rather than the answer lost, and the client finds the order
     * by its clientOrderId. On a connection already closed it is dropped: the command stands, durable.
     */
    void sendAnswer(final ByteBuf frame) {
        metrics.orderEntryAnswer();
        if (closed) {
            frame.release();
            return;
        }
        if (conflated) {
            frame.release();
            closeUnreadAnswers();
            return;
        }
        write(frame, 1, true);
    }

    /** Sends the answer to an order-entry command rendered as a Vert.x buffer (a refusal), as {@link #sendAnswer}. */
    void sendAnswer(final io.vertx.core.buffer.Buffer result) {
        sendAnswer(StreamFrames.text(io.netty.buffer.ByteBufAllocator.DEFAULT, result.getBytes(), result.length()));
    }

    private void closeUnreadAnswers() {
        closed = true;
        clearBacklog();
        metrics.answerClose();
        hub.closed(this);
        socket.close(TOO_SLOW, "too slow: order answers could not be delivered");
    }

    /**
     * Closes the connection with {@code status} (1002, 1007, 1008 or 1009) for what the client did or may no longer
     * do (flooding, a message too large, a revoked key); its backlog is dropped.
     */
    void closeForPolicy(final short status, final String reason) {
        if (closed) {
            return;
        }
        closed = true;
        clearBacklog();
        metrics.policyClose();
        hub.closed(this);
        socket.close(status, reason);
    }

    /** Closes the connection with status 1011 after a server-side failure; its backlog is dropped. */
    void fail(final RuntimeException cause) {
        if (closed) {
            return;
        }
        closed = true;
        clearBacklog();
        hub.closed(this);
        socket.close(SERVER_ERROR, "internal error: " + cause.getClass().getSimpleName());
    }

    /**
     * Called by the hub's timer: sends the heartbeat, unless the session has been behind too long.
     *
     * @return true if it has: the hub closes it ({@link #closeIfStillTooSlow}), spreading such closes over time
     */
    boolean tick(final long nowNanos, final long slowClientNanos, final byte[] heartbeat) {
        if (closed) {
            return false;
        }
        if (tooSlow(nowNanos, slowClientNanos)) {
            return true;
        }
        send(heartbeat);
        return false;
    }

    /** Closes the session with status 1008 if it is still behind past the bound (it may have caught up since). */
    void closeIfStillTooSlow(final long nowNanos, final long slowClientNanos) {
        if (closed || !tooSlow(nowNanos, slowClientNanos)) {
            return;
        }
        closed = true;
        clearBacklog();
        metrics.slowDisconnect();
        hub.closed(this);
        socket.close(TOO_SLOW, "too slow: the stream could not be delivered");
    }

    private boolean tooSlow(final long nowNanos, final long slowClientNanos) {
        return behindSinceNanos != 0 && nowNanos - behindSinceNanos > slowClientNanos;
    }

    /** @return the one wanted frame's bytes, shared, and notes its sequence as sent */
    private ByteBuf only(final StreamFanOut.Frame[] frames) {
        for (final StreamFanOut.Frame frame : frames) {
            if (wanted(frame)) {
                lastSequence[frame.slot()] = frame.sequence();
                return frame.bytesFor(compressing).retainedDuplicate();
            }
        }
        throw new IllegalStateException("no wanted frame");
    }

    private boolean wanted(final StreamFanOut.Frame frame) {
        final int slot = frame.slot();
        if (!subscribed[slot] || frame.sequence() <= lastSequence[slot]) {
            return false;
        }
        if (frame.sequence() != lastSequence[slot] + 1) {
            throw new IllegalStateException("stream update " + frame.sequence() + " after " + lastSequence[slot]
                    + " on slot " + slot + ": the hand-over lost updates");
        }
        return true;
    }

    /** Writes to the socket, or queues behind a full one, or conflates when a backlog bound would be passed. */
    private void write(final ByteBuf out, final int messages) {
        write(out, messages, false);
    }

    /**
     * As {@link #write(ByteBuf, int)}; an {@code answer} that would pass a bound closes the connection instead of
     * conflating it ({@link #sendAnswer}).
     */
    private void write(final ByteBuf out, final int messages, final boolean answer) {
        if (socket.isClosed()) {
            out.release();
            return;
        }
        if (backlog.isEmpty() && channel.channel().isWritable()) {
            metrics.sent(messages, out.readableBytes());
            channel.writeAndFlush(out, channel.voidPromise());
            return;
        }
        if (behindSinceNanos == 0) {
            behindSinceNanos = System.nanoTime();
        }
        final int bytes = out.readableBytes();
        if (queuedMessages + messages > maxBacklogMessages || queuedBytes + bytes > maxBacklogBytes
                || !metrics.tryQueue(bytes, totalBacklogBytes)) {
            out.release();
            if (answer || queuedAnswers > 0) {
                closeUnreadAnswers();
                return;
            }
            clearBacklog();
            conflated = true;
            metrics.conflated();
            return;
        }
        backlog.add(new Queued(out, messages, answer));
        if (answer) {
            queuedAnswers++;
        }
        queuedMessages += messages;
        queuedBytes += bytes;
    }

    /** The channel became writable: sends the backlog, then the fresh snapshots a conflation owes. */
    private void drained() {
        if (closed || socket.isClosed()) {
            return;
        }
        while (!backlog.isEmpty() && channel.channel().isWritable()) {
            final Queued next = backlog.poll();
            final int bytes = next.bytes().readableBytes();
            if (next.answer()) {
                queuedAnswers--;
            }
            queuedMessages -= next.messages();
            queuedBytes -= bytes;
            metrics.dequeued(bytes);
            channel.writeAndFlush(next.bytes(), channel.voidPromise());
            metrics.sent(next.messages(), bytes);
        }
        if (!backlog.isEmpty() || !channel.channel().isWritable()) {
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
            if (orders != null) {
                hub.resyncOrders(this);
            }
        }
    }

    private void clearBacklog() {
        while (!backlog.isEmpty()) {
            final ByteBuf out = backlog.poll().bytes();
            metrics.dequeued(out.readableBytes());
            out.release();
        }
        queuedMessages = 0;
        queuedBytes = 0;
        queuedAnswers = 0;
    }
}
