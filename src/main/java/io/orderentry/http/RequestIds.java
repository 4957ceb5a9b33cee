package io.orderentry.http;

import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.SocketAddress;
import java.security.SecureRandom;

/**
 * The id each request gets, returned in {@code X-Request-Id} and written into its audit record:
 * {@code <8 hex digits, random per process start>-<verticle>-<counter>}, e.g. {@code 5f3a9c1e-1-42}. Unique
 * within a process, and across restarts with high probability. Stateless apart from the per-process prefix;
 * called on the event loops.
 */
public final class RequestIds {

    /** The response header carrying the id. */
    public static final String HEADER = "X-Request-Id";
    private static final String PREFIX = String.format("%08x", new SecureRandom().nextInt());

    private RequestIds() {
    }

    /**
     * @param verticle the verticle's index
     * @param counter  the verticle's own request counter
     * @return the request's id
     */
    public static String of(final int verticle, final long counter) {
        return PREFIX + "-" + verticle + "-" + counter;
    }

    /**
     * @param verticle the verticle's index
     * @param counter  the verticle's own counter of stream commands
     * @return the id of one command a stream session sent (never equal to a request's of {@link #of})
     */
    public static String ofStream(final int verticle, final long counter) {
        return PREFIX + "-" + verticle + "-s" + counter;
    }

    /** @return the client's address as {@code host:port} ({@code [v6]:port}), or null if unknown */
    public static String remoteAddress(final HttpServerRequest request) {
        return remoteAddress(request.remoteAddress());
    }

    /** @return the address as {@code host:port} ({@code [v6]:port}), or null if unknown */
    public static String remoteAddress(final SocketAddress address) {
        if (address == null) {
            return null;
        }
        final String host = address.hostAddress() != null ? address.hostAddress() : address.host();
        if (host == null) {
            return address.toString();
        }
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + address.port();
    }
}
