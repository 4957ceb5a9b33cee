package io.orderentry.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A WebSocket client on a raw socket with a tiny receive buffer that, after the handshake, only
 * writes and never reads: the slow consumer a server must survive.
 */
public final class StalledStreamClient implements AutoCloseable {

    private final Socket socket;
    private final OutputStream out;

    private StalledStreamClient(final Socket socket) throws IOException {
        this.socket = socket;
        this.out = socket.getOutputStream();
    }

    /** Connects, upgrades to a WebSocket and checks the 101; reads nothing afterwards. */
    public static StalledStreamClient connect(final int port) {
        try {
            final Socket socket = new Socket();
            socket.setReceiveBufferSize(4096);
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            socket.getOutputStream().write(("GET /api/v1/stream HTTP/1.1\r\nHost: 127.0.0.1:" + port
                    + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                    + "Sec-WebSocket-Version: 13\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            final String head = readHead(socket.getInputStream());
            if (!head.startsWith("HTTP/1.1 101")) {
                socket.close();
                throw new IllegalStateException("upgrade refused: " + head);
            }
            return new StalledStreamClient(socket);
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Sends one masked text frame (payloads under 126 bytes). */
    public void send(final String text) {
        final byte[] payload = text.getBytes(StandardCharsets.UTF_8);
        if (payload.length >= 126) {
            throw new IllegalArgumentException("keep test messages under 126 bytes");
        }
        final byte[] mask = new byte[4];
        ThreadLocalRandom.current().nextBytes(mask);
        final byte[] frame = new byte[6 + payload.length];
        frame[0] = (byte) 0x81;
        frame[1] = (byte) (0x80 | payload.length);
        System.arraycopy(mask, 0, frame, 2, 4);
        for (int i = 0; i < payload.length; i++) {
            frame[6 + i] = (byte) (payload[i] ^ mask[i % 4]);
        }
        try {
            out.write(frame);
            out.flush();
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String readHead(final InputStream in) throws IOException {
        final StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            final int b = in.read();
            if (b < 0) {
                throw new IOException("connection closed during the handshake: " + head);
            }
            head.append((char) b);
        }
        return head.toString();
    }
}
