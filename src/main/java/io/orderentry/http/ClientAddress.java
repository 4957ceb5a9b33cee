package io.orderentry.http;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.Arrays;

/**
 * The part of a client's address that per-address bounds count by: an IPv4 address whole, an IPv6 address by its
 * first 64 bits (one customer's network: an IPv6 host can pick any of the 2^64 addresses of its prefix, so counting
 * whole IPv6 addresses would give one client as many budgets as it likes). Immutable; equal by value.
 */
public final class ClientAddress {

    /** The key of a connection whose address is not an IP address (a Unix socket, a test channel). */
    public static final ClientAddress UNKNOWN = new ClientAddress(new byte[0]);

    private final byte[] bytes;
    private final int hash;

    private ClientAddress(final byte[] bytes) {
        this.bytes = bytes;
        this.hash = Arrays.hashCode(bytes);
    }

    /** @return the key of {@code address}, or {@link #UNKNOWN} when it is not an IP socket address */
    public static ClientAddress of(final SocketAddress address) {
        if (!(address instanceof InetSocketAddress inet) || inet.getAddress() == null) {
            return UNKNOWN;
        }
        return of(inet.getAddress());
    }

    /** @return the key of {@code address}: IPv4 whole, IPv6 by its /64 prefix */
    public static ClientAddress of(final InetAddress address) {
        final byte[] raw = address.getAddress();
        return new ClientAddress(address instanceof Inet4Address ? raw : Arrays.copyOf(raw, 8));
    }

    @Override
    public boolean equals(final Object other) {
        return other instanceof ClientAddress that && Arrays.equals(bytes, that.bytes);
    }

    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public String toString() {
        if (bytes.length == 4) {
            return (bytes[0] & 0xff) + "." + (bytes[1] & 0xff) + "." + (bytes[2] & 0xff) + "." + (bytes[3] & 0xff);
        }
        if (bytes.length == 8) {
            final StringBuilder out = new StringBuilder();
            for (int i = 0; i < 8; i += 2) {
                out.append(Integer.toHexString((bytes[i] & 0xff) << 8 | bytes[i + 1] & 0xff)).append(':');
            }
            return out.append(":/64").toString();
        }
        return "unknown";
    }
}
