package io.orderentry.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Picks a loopback port that is free right now; tests never assume 8080 is. */
public final class FreePort {

    /** Ports {@link #pickForUdp} gave this JVM: none is given twice, since none is held once picked. */
    private static final java.util.Set<Integer> HANDED_OUT = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private FreePort() {
    }

    /**
     * A port for Aeron's UDP endpoints: free for both TCP and UDP now, and below the kernel's ephemeral range, so that
     * no socket bound to port 0 later (the members' own Aeron clients bind many) can take it before its member binds
     * it. {@link #pick} checks TCP only and draws from the ephemeral range, which let a cluster member start into
     * "Address already in use" once in a while.
     *
     * @return a port free for TCP and UDP a moment ago, outside the ephemeral range
     */
    public static int pickForUdp() {
        final int ephemeralLow = ephemeralLow();
        final int low = 10_000;
        final int high = Math.max(low + 1_000, ephemeralLow);
        for (int attempt = 0; attempt < 1_000; attempt++) {
            final int port = java.util.concurrent.ThreadLocalRandom.current().nextInt(low, high);
            if (!HANDED_OUT.contains(port) && freeForBoth(port) && HANDED_OUT.add(port)) {
                return port;
            }
        }
        throw new IllegalStateException("no port free for TCP and UDP in [" + low + ", " + high + ")");
    }

    private static boolean freeForBoth(final int port) {
        final InetAddress loopback = InetAddress.getLoopbackAddress();
        try (ServerSocket tcp = new ServerSocket(port, 1, loopback);
             java.net.DatagramSocket udp = new java.net.DatagramSocket(new java.net.InetSocketAddress(loopback, port))) {
            return tcp.getLocalPort() == port && udp.getLocalPort() == port;
        } catch (final IOException inUse) {
            return false;
        }
    }

    /** @return the lowest port the kernel hands out to sockets bound to port 0 (Linux), else 32768 */
    private static int ephemeralLow() {
        try {
            final String range = java.nio.file.Files.readString(java.nio.file.Path.of(
                    "/proc/sys/net/ipv4/ip_local_port_range")).trim();
            return Integer.parseInt(range.split("\\s+")[0]);
        } catch (final IOException | RuntimeException notLinux) {
            return 32_768;
        }
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
