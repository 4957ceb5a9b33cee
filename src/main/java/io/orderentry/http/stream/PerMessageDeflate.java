package io.orderentry.http.stream;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.websocketx.extensions.WebSocketExtensionEncoder;
import io.orderentry.http.OrderVerticle;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.zip.Deflater;

/**
 * The stream's side of the WebSocket permessage-deflate extension (RFC 7692), for updates that go to many
 * subscribers: an update is compressed once and the same bytes go to every connection that negotiated the
 * extension, as its uncompressed frame goes to the others.
 *
 * <p>Vert.x (Netty's handshaker) negotiates the extension at the upgrade for clients that offer it, as browsers do.
 * The stream then writes its own frames, never through Netty's compressor (Vert.x writes only control frames, which
 * are never compressed), so the compressor's context is never used. Each message is compressed on its own, from an
 * empty window ({@link Deflater#reset} before each), and ends with a sync flush whose last four bytes are removed
 * (section 7.2.1). A message compressed that way never refers to an earlier one, so a client decodes it whether it
 * keeps its window between messages (the extension's default, "context takeover") or not, and the one compressed
 * copy serves every client. The window is the default 32 KiB; a client whose offer limits the server's window
 * ({@code server_max_window_bits}) gets uncompressed messages, which the extension always allows (RSV1 clear).
 *
 * <p>Not thread-safe: one instance per thread (the market data consumer's).
 */
final class PerMessageDeflate {

    /** The four bytes a sync flush ends with, which the sender removes and the receiver appends. */
    private static final byte[] FLUSH_TAIL = {0, 0, (byte) 0xFF, (byte) 0xFF};

    private final Deflater deflater;
    private byte[] out = new byte[8192];

    /** @param level zlib's compression level, 1 (fastest) to 9 */
    PerMessageDeflate(final int level) {
        this.deflater = new Deflater(level, true);
    }

    /**
     * @return the message compressed as one permessage-deflate payload, or null if that is not shorter than the
     *     message itself (small messages): such a message goes uncompressed to every client
     */
    byte[] compress(final byte[] message) {
        deflater.reset();
        deflater.setInput(message);
        int length = 0;
        while (true) {
            length += deflater.deflate(out, length, out.length - length, Deflater.SYNC_FLUSH);
            if (length < out.length) {
                break;
            }
            out = Arrays.copyOf(out, out.length * 2);
        }
        if (length < FLUSH_TAIL.length
                || !Arrays.equals(out, length - FLUSH_TAIL.length, length, FLUSH_TAIL, 0, FLUSH_TAIL.length)) {
            throw new IllegalStateException("a sync flush did not end with 00 00 FF FF");
        }
        length -= FLUSH_TAIL.length;
        return length < message.length ? Arrays.copyOf(out, length) : null;
    }

    /**
     * @param pipeline          the connection's channel pipeline, after the upgrade's answer was written
     * @param extensionsOffered the client's {@code Sec-WebSocket-Extensions} request header, or null
     * @return whether this connection takes messages compressed by {@link #compress}: the handshake added the
     *     extension's encoder (the server accepted permessage-deflate; per-frame deflate is off, see
     *     {@link OrderVerticle}) and the client did not limit the server's window
     */
    static boolean negotiated(final ChannelPipeline pipeline, final String extensionsOffered) {
        boolean encoder = false;
        for (final Map.Entry<String, ChannelHandler> handler : pipeline) {
            encoder |= handler.getValue() instanceof WebSocketExtensionEncoder;
        }
        return encoder && extensionsOffered != null && !limitsServerWindow(extensionsOffered);
    }

    /** @return whether any permessage-deflate offer in the header asks for a server window below 15 bits */
    static boolean limitsServerWindow(final String extensionsOffered) {
        for (final String offer : extensionsOffered.split(",")) {
            final String[] parts = offer.split(";");
            if (!parts[0].trim().equalsIgnoreCase("permessage-deflate")) {
                continue;
            }
            for (int i = 1; i < parts.length; i++) {
                final String[] parameter = parts[i].trim().split("=", 2);
                if (parameter[0].trim().toLowerCase(Locale.ROOT).equals("server_max_window_bits")
                        && (parameter.length < 2 || !parameter[1].trim().replace("\"", "").equals("15"))) {
                    return true;
                }
            }
        }
        return false;
    }
}
