package io.orderentry.http;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.regex.Pattern;

/**
 * The part of a client's address that per-address bounds count by: an IPv4 address whole, an IPv6 address by its
 * first 64 bits (one customer's network: an IPv6 host can pick any of the 2^64 addresses of its prefix, so counting
 * whole IPv6 addresses would give one client as many budgets as it likes). Immutable; equal by value.
 */
public final class ClientAddress {

    /** The key of a connection whose address is not an IP address (a Unix socket, a test channel). */
    public static final ClientAddress UNKNOWN = new ClientAddress(new byte[0]);

    private static final Pattern LITERAL = Pattern.compile("[0-9a-fA-F:.]+");

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

    /**
     * @param remote the client's address as {@link RequestIds#remoteAddress} writes it ({@code host:port},
     *               {@code [v6]:port}), or an address without a port; an IPv6 zone is ignored
     * @return its key, or {@link #UNKNOWN} when it is null or not an IP literal (never a name to look up)
     */
    public static ClientAddress ofRemote(final String remote) {
        if (remote == null) {
            return UNKNOWN;
        }
        String host = remote;
        if (host.startsWith("[")) {
            final int close = host.indexOf(']');
            host = close < 0 ? host.substring(1) : host.substring(1, close);
        } else if (host.indexOf(':') == host.lastIndexOf(':') && host.indexOf(':') >= 0) {
            host = host.substring(0, host.indexOf(':'));   // IPv4 with a port; two colons or more: IPv6 without one
        }
        final int zone = host.indexOf('%');
        if (zone >= 0) {
            host = host.substring(0, zone);
        }
        if (host.isEmpty() || !LITERAL.matcher(host).matches()) {
            return UNKNOWN;
        }
        try {
            return of(InetAddress.getByName(host));   // a literal: parsed, never looked up
        } catch (final UnknownHostException notAnAddress) {
            return UNKNOWN;
        }
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
