package io.orderentry.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Picks a loopback port that is free right now; tests never assume 8080 is. */
public final class FreePort {

    private FreePort() {
    }

    /** @return a port nobody listened on a moment ago */
    public static int pick() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (final IOException e) {
            throw new UncheckedIOException("no free loopback port", e);
        }
    }
}
