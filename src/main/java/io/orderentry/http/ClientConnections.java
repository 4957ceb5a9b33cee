package io.orderentry.http;

import io.netty.channel.Channel;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.impl.ConnectionBase;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The connections of one event loop: admitted against the {@link ClientBounds} at accept, each a
 * {@link ClientConnection} until its channel closes, and checked against the head and body deadlines once a second.
 *
 * <ul>
 *   <li>A connection over the bound in all or of its address is closed at accept, unanswered and counted, whether or
 *       not it ever sends anything (the server speaks HTTP/1.1 only, so every connection is set up, and counted, at
 *       accept).</li>
 *   <li>A request head that has been arriving for longer than {@link HttpConfig#headerTimeoutSeconds} since its first
 *       byte is closed unanswered: an idle timeout is reset by every byte, so without it one byte every 50 s holds a
 *       socket for days.</li>
 *   <li>A request whose body has been arriving for longer than {@link HttpConfig#bodyTimeoutSeconds} since its head is
 *       handed to the verticle, which answers 408 and closes, on every route.</li>
 * </ul>
 *
 * <p>Threads: the owning verticle's event loop only.
 */
public final class ClientConnections {

    private final ClientBounds bounds;
    private final long headNanos;
    private final long bodyNanos;
    private final Consumer<HttpServerRequest> bodyTimedOut;
    private final Map<HttpConnection, ClientConnection> open = new IdentityHashMap<>();

    /**
     * @param bodyTimedOut answers a request whose body is overdue (408) and closes its connection
     */
    ClientConnections(final ClientBounds bounds, final HttpConfig limits, final Consumer<HttpServerRequest> bodyTimedOut) {
        this.bounds = bounds;
        this.headNanos = limits.headerTimeoutSeconds() * 1_000_000_000L;
        this.bodyNanos = limits.bodyTimeoutSeconds() * 1_000_000_000L;
        this.bodyTimedOut = bodyTimedOut;
    }

    /** The server's connection handler: admits {@code connection} or closes it at once. */
    void admit(final HttpConnection connection) {
        if (!(connection instanceof ConnectionBase base)) {
            throw new IllegalStateException("an HTTP connection without a channel: " + connection.getClass());
        }
        final Channel channel = base.channel();
        final ClientAddress address = ClientAddress.of(channel.remoteAddress());
        if (bounds.connections().tryOpen(address) != ConnectionLimit.Verdict.ADMITTED) {
            connection.close();
            return;
        }
        final ClientConnection client = new ClientConnection(connection, channel, address,
                RequestIds.remoteAddress(connection.remoteAddress()), bounds, () -> open.remove(connection));
        open.put(connection, client);
        client.watch();
    }

    /**
     * @return the connection {@code request} came on, or null once it is released (a request is only dispatched on an
     *         admitted connection, but a callback may run after its channel closed)
     */
    ClientConnection of(final HttpServerRequest request) {
        return open.get(request.connection());
    }

    /** @return the client's {@code host:port}, computed once per connection (it is in every audit record) */
    public String remote(final HttpServerRequest request) {
        final ClientConnection client = of(request);
        return client != null ? client.remote() : RequestIds.remoteAddress(request.remoteAddress());
    }

    /** Closes the connections whose head is overdue and hands over the requests whose body is. Called every second. */
    void checkDeadlines() {
        if (headNanos == 0 && bodyNanos == 0) {
            return;
        }
        final long now = System.nanoTime();
        List<ClientConnection> slowHeads = null;
        List<HttpServerRequest> slowBodies = null;
        for (final ClientConnection client : open.values()) {
            final HttpServerRequest overdue = client.overdueBody(now, bodyNanos);
            if (overdue != null) {
                slowBodies = add(slowBodies, overdue);
            } else if (client.headOverdue(now, headNanos)) {
                slowHeads = add(slowHeads, client);
            }
        }
        if (slowHeads != null) {
            bounds.headerTimeouts().addAndGet(slowHeads.size());
            slowHeads.forEach(ClientConnection::close);
        }
        if (slowBodies != null) {
            bounds.bodyTimeouts().addAndGet(slowBodies.size());
            slowBodies.forEach(bodyTimedOut);
        }
    }

    private static <T> List<T> add(final List<T> list, final T item) {
        final List<T> out = list == null ? new ArrayList<>() : list;
        out.add(item);
        return out;
    }
}
