package io.orderentry.http.stream;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.orderentry.http.json.Json;

import java.nio.charset.StandardCharsets;

/**
 * WebSocket frames written by the stream itself rather than by Vert.x, so that one rendering of an update
 * serves every subscriber and a connection's messages of one batch leave in one write (RFC 6455, section 5.2:
 * a server's frames are not masked). A message longer than {@link #MAX_FRAME_PAYLOAD} (a deep book snapshot)
 * is split into a text frame and continuation frames of at most that size, as Vert.x does, so that clients
 * with the usual 64 KiB frame limit read it. A message compressed with permessage-deflate (RFC 7692,
 * {@link PerMessageDeflate}) is framed the same way, with RSV1 set on its first frame only.
 */
public final class StreamFrames {

    /** The largest payload of one frame: within Vert.x's and many clients' default limit of 64 KiB, and a 16-bit length. */
    static final int MAX_FRAME_PAYLOAD = 65_535;

    private static final int FIN = 0x80;
    private static final int TEXT = 0x1;
    private static final int CONTINUATION = 0x0;
    /** RSV1: the message is compressed (RFC 7692, section 6); set on a message's first frame only. */
    private static final int COMPRESSED = 0x40;

    /** Frames a rendered document straight into a pooled direct buffer: one copy between the renderer and the socket. */
    static final Json.Payload<ByteBuf> TEXT_FRAME = (bytes, length) -> text(ByteBufAllocator.DEFAULT, bytes, length);

    private StreamFrames() {
    }

    /** @return the complete, unmasked frame or frames of one text message */
    static byte[] text(final String text) {
        return frames(text.getBytes(StandardCharsets.UTF_8), false);
    }

    /**
     * @param payload    the message's bytes as they go on the wire: UTF-8 text, or that text compressed by
     *                   {@link PerMessageDeflate#compress}
     * @param compressed whether {@code payload} is compressed: sets RSV1 on the first frame
     * @return the complete, unmasked frame or frames of one text message
     */
    public static byte[] frames(final byte[] payload, final boolean compressed) {
        int size = 0;
        for (int from = 0; from == 0 || from < payload.length; from += MAX_FRAME_PAYLOAD) {
            final int length = Math.min(MAX_FRAME_PAYLOAD, payload.length - from);
            size += headerSize(length) + length;
        }
        final byte[] frames = new byte[size];
        int at = 0;
        for (int from = 0; from == 0 || from < payload.length; from += MAX_FRAME_PAYLOAD) {
            final int length = Math.min(MAX_FRAME_PAYLOAD, payload.length - from);
            final boolean last = from + length == payload.length;
            final int kind = from == 0 ? TEXT | (compressed ? COMPRESSED : 0) : CONTINUATION;
            at = header(frames, at, (last ? FIN : 0) | kind, length);
            System.arraycopy(payload, from, frames, at, length);
            at += length;
        }
        return frames;
    }

    /**
     * @return the complete, unmasked frame or frames of one uncompressed text message whose payload is the first
     *     {@code length} bytes of {@code payload}, in one direct buffer from {@code allocator} (the caller owns it)
     */
    static ByteBuf text(final ByteBufAllocator allocator, final byte[] payload, final int length) {
        int size = 0;
        for (int from = 0; from == 0 || from < length; from += MAX_FRAME_PAYLOAD) {
            size += headerSize(Math.min(MAX_FRAME_PAYLOAD, length - from)) + Math.min(MAX_FRAME_PAYLOAD, length - from);
        }
        final ByteBuf out = allocator.directBuffer(size, size);
        final byte[] head = new byte[4];
        for (int from = 0; from == 0 || from < length; from += MAX_FRAME_PAYLOAD) {
            final int part = Math.min(MAX_FRAME_PAYLOAD, length - from);
            final boolean last = from + part == length;
            final int headLength = header(head, 0, (last ? FIN : 0) | (from == 0 ? TEXT : CONTINUATION), part);
            out.writeBytes(head, 0, headLength).writeBytes(payload, from, part);
        }
        return out;
    }

    private static int headerSize(final int length) {
        return length < 126 ? 2 : 4;
    }

    /** Writes a frame header (payloads up to {@link #MAX_FRAME_PAYLOAD}) at {@code at}; returns where the payload goes. */
    private static int header(final byte[] out, final int at, final int first, final int length) {
        out[at] = (byte) first;
        if (length < 126) {
            out[at + 1] = (byte) length;
            return at + 2;
        }
        out[at + 1] = 126;
        out[at + 2] = (byte) (length >>> 8);
        out[at + 3] = (byte) length;
        return at + 4;
    }
}
