package io.orderentry.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP proxy on a free loopback port that forwards to a target and can cut every connection: while it
 * is {@link #cut() cut}, open connections are reset and new ones are accepted and closed at once, as a
 * database that went away would look to its clients. {@link #restore()} lets connections through again.
 */
public final class FaultyProxy implements AutoCloseable {

    private final ServerSocket listener;
    private final String targetHost;
    private final int targetPort;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final AtomicLong accepted = new AtomicLong();
    private final Thread acceptor;
    private volatile boolean cut;
    private volatile boolean closed;

    /** Starts forwarding {@code 127.0.0.1:<port()>} to {@code targetHost:targetPort}. */
    public FaultyProxy(final String targetHost, final int targetPort) {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        try {
            listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot listen on loopback", e);
        }
        acceptor = new Thread(this::accept, "faulty-proxy-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** @return the loopback port clients connect to */
    public int port() {
        return listener.getLocalPort();
    }

    /** @return connections accepted since start, cut ones included */
    public long acceptedConnections() {
        return accepted.get();
    }

    /** Resets every open connection and refuses new ones until {@link #restore()}. */
    public void cut() {
        cut = true;
        for (final Socket socket : open) {
            reset(socket);
        }
    }

    /** Lets new connections through again. */
    public void restore() {
        cut = false;
    }

    @Override
    public void close() {
        closed = true;
        cut();
        try {
            listener.close();
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void accept() {
        while (!closed) {
            final Socket client;
            try {
                client = listener.accept();
            } catch (final IOException e) {
                if (closed) {
                    return;
                }
                throw new UncheckedIOException("the proxy stopped accepting", e);
            }
            accepted.incrementAndGet();
            if (cut) {
                reset(client);
                continue;
            }
            final Socket server;
            try {
                server = new Socket();
                server.connect(new InetSocketAddress(targetHost, targetPort), 5_000);
                // As the client's own socket does (pgjdbc's default): without it, each small message of a
                // request-response exchange waits for the peer's delayed ACK, some 40 ms a round trip.
                server.setTcpNoDelay(true);
                client.setTcpNoDelay(true);
            } catch (final IOException e) {
                reset(client);
                continue;
            }
            open.add(client);
            open.add(server);
            pump(client, server, "proxy-up");
            pump(server, client, "proxy-down");
        }
    }

    private void pump(final Socket from, final Socket to, final String name) {
        final Thread thread = new Thread(() -> {
            final byte[] buffer = new byte[64 * 1024];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int read;
                while ((read = in.read(buffer)) >= 0) {
                    out.write(buffer, 0, read);
                }
            } catch (final IOException closedByCut) {
                reset(from);
            } finally {
                reset(to);
            }
        }, name);
        thread.setDaemon(true);
        thread.start();
    }

    private void reset(final Socket socket) {
        open.remove(socket);
        try {
            if (!socket.isClosed()) {
                socket.setSoLinger(true, 0);
            }
            socket.close();
        } catch (final IOException e) {
            if (!socket.isClosed()) {
                throw new UncheckedIOException("cannot reset a proxied connection", e);
            }
        }
    }
}
