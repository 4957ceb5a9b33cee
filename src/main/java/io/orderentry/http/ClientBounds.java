package io.orderentry.http;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The server's bounds on what clients hold, shared by every event loop: connections, stream connections (and among
 * them those without an API key), and the counts of connections cut off at a deadline. Built once at start; every part
 * is thread safe. Each {@link ClientConnection} takes its slots here and gives them back on its one release path.
 *
 * @param connections      HTTP and WebSocket connections, in all and per address
 * @param streams          stream connections, in all and per address
 * @param anonymousStreams stream connections upgraded without a valid API key (the per-address bound is the
 *                         stream's); with authentication off, every stream counts here and the bound is the stream's
 */
public record ClientBounds(ConnectionLimit connections, ConnectionLimit streams, ConnectionLimit anonymousStreams,
                           AtomicLong headerTimeouts, AtomicLong bodyTimeouts) {

    /** Bounds with no deadline passed yet. */
    public ClientBounds(final ConnectionLimit connections, final ConnectionLimit streams,
                        final ConnectionLimit anonymousStreams) {
        this(connections, streams, anonymousStreams, new AtomicLong(), new AtomicLong());
    }
}
