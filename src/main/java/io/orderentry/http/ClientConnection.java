package io.orderentry.http;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerRequest;

/**
 * One accepted connection and everything it holds of the server's {@link ClientBounds}: its connection slot, and once
 * it upgrades to the stream, a stream slot (and an anonymous one). Everything is given back by {@link #release}, which
 * runs exactly once, when the Netty channel closes: the one close path that runs whatever closed the connection and
 * whatever it became (Vert.x's close handler of the HTTP connection is replaced by later registrations and no longer
 * runs once the connection is a WebSocket, which is how slots used to leak).
 *
 * <p>It also keeps the connection's request clock for the deadlines {@link ClientConnections} enforces. As the first
 * handler of the channel's pipeline, it sees every read before the HTTP decoder: a read that comes while no request is
 * being read starts the head's clock, which {@link #requestHead} stops once the head is decoded; the body's clock runs
 * from the head until the request has ended.
 *
 * <p>Threads: everything runs on the connection's event loop, which is its verticle's (Vert.x binds an accepted
 * channel to the event loop of the server handler that takes it); the bounds it takes from are thread safe.
 */
public final class ClientConnection extends ChannelInboundHandlerAdapter {

    /** What a stream upgrade was refused for, or null when it took its slots. */
    public enum StreamRefusal { FULL, ADDRESS_FULL, ANONYMOUS_FULL }

    private final HttpConnection connection;
    private final Channel channel;
    private final ClientAddress address;
    private final String remote;
    private final ClientBounds bounds;
    private final Runnable onRelease;
    private HttpServerRequest current;
    private long currentSince;
    private long headSince;
    private boolean streaming;
    private boolean anonymousStream;
    private boolean released;

    /**
     * Called by the connection handler for a connection whose slot {@code bounds.connections()} admitted; the caller
     * then calls {@link #watch} to tie {@link #release} to the channel's close.
     *
     * @param remote    the client's {@code host:port} for the audit trail, or null if unknown
     * @param onRelease run once by {@link #release}, after the slots are back (the verticle forgets the connection)
     */
    ClientConnection(final HttpConnection connection, final Channel channel, final ClientAddress address,
                     final String remote, final ClientBounds bounds, final Runnable onRelease) {
        this.connection = connection;
        this.channel = channel;
        this.address = address;
        this.remote = remote;
        this.bounds = bounds;
        this.onRelease = onRelease;
    }

    /** Puts the request clock first in the channel's pipeline and ties {@link #release} to the channel's close. */
    void watch() {
        channel.pipeline().addFirst("oe-request-clock", this);
        channel.closeFuture().addListener(ignored -> release());
    }

    @Override
    public void channelRead(final ChannelHandlerContext ctx, final Object msg) {
        if (!streaming && headSince == 0 && (current == null || current.isEnded())) {
            headSince = System.nanoTime();
        }
        ctx.fireChannelRead(msg);
    }

    /** The head of {@code request} was decoded: its head's clock stops, its body's starts. */
    void requestHead(final HttpServerRequest request) {
        headSince = 0;
        current = request;
        currentSince = System.nanoTime();
    }

    /**
     * Takes a stream slot for this connection's upgrade, and an anonymous one unless {@code keyed}.
     *
     * @param keyed whether the upgrade carries a valid API key
     * @param authenticationOn whether keys exist at all; without them every stream is anonymous and the anonymous
     *                         bound does not apply
     * @return null when the slots are taken (given back by {@link #streamEnded} or {@link #release}), else why not
     */
    public StreamRefusal openStream(final boolean keyed, final boolean authenticationOn) {
        final ConnectionLimit.Verdict verdict = bounds.streams().tryOpen(address);
        if (verdict != ConnectionLimit.Verdict.ADMITTED) {
            return verdict == ConnectionLimit.Verdict.FULL ? StreamRefusal.FULL : StreamRefusal.ADDRESS_FULL;
        }
        if (!keyed && authenticationOn) {
            if (bounds.anonymousStreams().tryOpen(address) != ConnectionLimit.Verdict.ADMITTED) {
                bounds.streams().closed(address);
                return StreamRefusal.ANONYMOUS_FULL;
            }
            anonymousStream = true;
        }
        streaming = true;
        return null;
    }

    /** Gives back the stream slots of a failed upgrade; the connection's own slot stays until it closes. */
    public void streamEnded() {
        if (!streaming) {
            return;
        }
        streaming = false;
        bounds.streams().closed(address);
        if (anonymousStream) {
            anonymousStream = false;
            bounds.anonymousStreams().closed(address);
        }
    }

    /** Gives back every slot this connection holds; runs once, when its channel closes. */
    void release() {
        if (released) {
            return;
        }
        released = true;
        streamEnded();
        bounds.connections().closed(address);
        current = null;
        onRelease.run();
    }

    /**
     * @return the request whose body has been arriving for longer than {@code bodyNanos} at {@code now} (answered or
     *         not: a body trickled after an early answer holds the connection too), or null
     */
    HttpServerRequest overdueBody(final long now, final long bodyNanos) {
        if (current == null) {
            return null;
        }
        if (current.isEnded()) {
            current = null;
            return null;
        }
        if (bodyNanos == 0 || now - currentSince <= bodyNanos) {
            return null;
        }
        final HttpServerRequest overdue = current;
        current = null;   // handed over once; its connection is closed
        return overdue;
    }

    /** @return whether a request head has been arriving for longer than {@code headNanos} at {@code now} */
    boolean headOverdue(final long now, final long headNanos) {
        return headNanos > 0 && headSince != 0 && !streaming && now - headSince > headNanos;
    }

    /** Closes the connection unanswered (a head that did not arrive in time has nothing to answer). */
    void close() {
        connection.close();
    }

    /** @return the client's {@code host:port} for the audit trail, or null if unknown */
    String remote() {
        return remote;
    }

    /** @return the address its bounds count it by */
    ClientAddress address() {
        return address;
    }
}
