package io.orderentry.testing;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.zip.Deflater;

/**
 * A stream client on a plain socket that sends whatever frames a test builds, as a hostile client would: any size, any
 * RSV bits, compressed or not, and reads the server's frames up to its close frame. Not thread-safe.
 */
public final class RawWebSocket implements AutoCloseable {

    /** The close status reported when the server closed the socket without a close frame. */
    public static final int NO_CLOSE_FRAME = -1;

    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;
    private final String acceptedExtensions;
    private final List<String> texts = new ArrayList<>();
    private String closeReason = "";

    private RawWebSocket(final Socket socket, final String acceptedExtensions) throws IOException {
        this.socket = socket;
        this.in = new DataInputStream(socket.getInputStream());
        this.out = socket.getOutputStream();
        this.acceptedExtensions = acceptedExtensions;
    }

    /** Upgrades a new connection to {@code /api/v1/stream}, offering {@code extensions} (or none when null). */
    public static RawWebSocket open(final int port, final String extensions) throws IOException {
        final Socket socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout((int) StreamClient.PATIENCE.toMillis());
        final byte[] key = new byte[16];
        new Random().nextBytes(key);
        socket.getOutputStream().write(("GET /api/v1/stream HTTP/1.1\r\nHost: 127.0.0.1:" + port
                + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: "
                + Base64.getEncoder().encodeToString(key) + "\r\n"
                + (extensions == null ? "" : "Sec-WebSocket-Extensions: " + extensions + "\r\n") + "\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        final DataInputStream in = new DataInputStream(socket.getInputStream());
        final StringBuilder response = new StringBuilder();
        while (!response.toString().endsWith("\r\n\r\n")) {
            response.append((char) in.readUnsignedByte());
        }
        if (!response.toString().startsWith("HTTP/1.1 101")) {
            socket.close();
            throw new IOException("the upgrade was refused: " + response);
        }
        String accepted = "";
        for (final String line : response.toString().split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("sec-websocket-extensions:")) {
                accepted = line.substring(line.indexOf(':') + 1).trim();
            }
        }
        return new RawWebSocket(socket, accepted);
    }

    /** @return the server's Sec-WebSocket-Extensions answer, empty when it accepted none */
    public String acceptedExtensions() {
        return acceptedExtensions;
    }

    /** Sends one final text frame, uncompressed. */
    public void sendText(final String text) throws IOException {
        sendFrame(0x1, false, true, text.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * @return {@code text} deflated as one permessage-deflate message (RFC 7692: raw deflate, sync flush, the last four
     *         bytes removed)
     */
    public static byte[] deflate(final byte[] text) {
        final Deflater deflater = new Deflater(Deflater.BEST_COMPRESSION, true);
        deflater.setInput(text);
        final ByteArrayOutputStream compressed = new ByteArrayOutputStream();
        final byte[] chunk = new byte[64 * 1024];
        int n;
        do {
            n = deflater.deflate(chunk, 0, chunk.length, Deflater.SYNC_FLUSH);
            compressed.write(chunk, 0, n);
        } while (n == chunk.length);
        deflater.end();
        final byte[] bytes = compressed.toByteArray();
        return java.util.Arrays.copyOf(bytes, bytes.length - 4);
    }

    /** Sends one masked frame with the given opcode, RSV1 and FIN bits and payload. */
    public void sendFrame(final int opcode, final boolean rsv1, final boolean fin, final byte[] payload)
            throws IOException {
        final ByteArrayOutputStream frame = new ByteArrayOutputStream(payload.length + 14);
        frame.write((fin ? 0x80 : 0) | (rsv1 ? 0x40 : 0) | opcode);
        if (payload.length < 126) {
            frame.write(0x80 | payload.length);
        } else if (payload.length < 65536) {
            frame.write(0x80 | 126);
            frame.write(payload.length >>> 8);
            frame.write(payload.length & 0xFF);
        } else {
            frame.write(0x80 | 127);
            for (int shift = 56; shift >= 0; shift -= 8) {
                frame.write((int) ((long) payload.length >>> shift) & 0xFF);
            }
        }
        final byte[] mask = {0x11, 0x22, 0x33, 0x44};
        frame.write(mask);
        for (int i = 0; i < payload.length; i++) {
            frame.write(payload[i] ^ mask[i & 3]);
        }
        out.write(frame.toByteArray());
        out.flush();
    }

    /**
     * Reads the server's frames until its close frame, keeping the text messages (uncompressed ones; the server
     * compresses only market data updates).
     *
     * @return the close status, or {@link #NO_CLOSE_FRAME} when the socket ended without one; fails after
     *         {@link StreamClient#PATIENCE}
     */
    public int awaitClose() throws IOException {
        final long deadline = System.nanoTime() + StreamClient.PATIENCE.toNanos();
        try {
            while (true) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("the server did not close the stream within " + StreamClient.PATIENCE
                            + " (heartbeats kept coming)");
                }
                final int head = in.readUnsignedByte();
                long length = in.readUnsignedByte() & 0x7F;
                if (length == 126) {
                    length = in.readUnsignedShort();
                } else if (length == 127) {
                    length = in.readLong();
                }
                final byte[] payload = in.readNBytes((int) length);
                final int opcode = head & 0x0F;
                if (opcode == 0x8) {
                    if (payload.length < 2) {
                        return NO_CLOSE_FRAME;
                    }
                    closeReason = new String(payload, 2, payload.length - 2, StandardCharsets.UTF_8);
                    return ((payload[0] & 0xFF) << 8) | (payload[1] & 0xFF);
                }
                if (opcode == 0x1 && (head & 0x40) == 0) {
                    texts.add(new String(payload, StandardCharsets.UTF_8));
                }
            }
        } catch (final EOFException | SocketException e) {
            return NO_CLOSE_FRAME;
        } catch (final SocketTimeoutException e) {
            throw new AssertionError("the server neither closed the stream nor sent its close frame within "
                    + StreamClient.PATIENCE, e);
        }
    }

    /** @return the text messages {@link #awaitClose} read */
    public List<String> texts() {
        return texts;
    }

    /** @return the reason of the server's close frame, after {@link #awaitClose} */
    public String closeReason() {
        return closeReason;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
