package io.orderentry.http.stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class StreamFramesTest {

    /** A decoded frame: first byte (FIN and opcode) and payload. */
    private record Frame(int first, byte[] payload) {
    }

    @Test
    void shortMessageIsOneFinalUnmaskedTextFrameWithAOneByteLength() {
        final List<Frame> frames = decode(StreamFrames.text("{\"type\":\"heartbeat\"}"));
        assertEquals(1, frames.size());
        assertEquals(0x81, frames.get(0).first());
        assertEquals("{\"type\":\"heartbeat\"}", new String(frames.get(0).payload(), StandardCharsets.UTF_8));
    }

    @Test
    void messagesFrom126BytesUseTheSixteenBitLength() {
        for (final int length : new int[] {125, 126, 127, 65_535}) {
            final String text = "x".repeat(length);
            final byte[] bytes = StreamFrames.text(text);
            assertEquals(length < 126 ? 2 + length : 4 + length, bytes.length, "length " + length);
            assertEquals(text, new String(decode(bytes).get(0).payload(), StandardCharsets.UTF_8));
        }
    }

    @Test
    void messageLongerThanOneFrameIsSplitIntoATextFrameAndContinuationsThatReassembleToIt() {
        final StringBuilder text = new StringBuilder();
        for (int i = 0; text.length() < 150_000; i++) {
            text.append("[\"50000.").append(i % 100).append("\",\"1.5\"],");
        }
        final List<Frame> frames = decode(StreamFrames.text(text.toString()));
        assertEquals(3, frames.size());
        assertEquals(0x01, frames.get(0).first(), "first: text, not final");
        assertEquals(0x00, frames.get(1).first(), "middle: continuation, not final");
        assertEquals(0x80, frames.get(2).first(), "last: continuation, final");
        final ByteArrayOutputStream whole = new ByteArrayOutputStream();
        for (final Frame frame : frames) {
            whole.writeBytes(frame.payload());
        }
        assertArrayEquals(text.toString().getBytes(StandardCharsets.UTF_8), whole.toByteArray());
    }

    @Test
    void nonAsciiTextIsEncodedAsUtf8AndTheLengthCountsBytes() {
        final List<Frame> frames = decode(StreamFrames.text("{\"message\":\"prix \u00e9lev\u00e9 \u20ac\"}"));
        assertEquals("{\"message\":\"prix \u00e9lev\u00e9 \u20ac\"}",
                new String(frames.get(0).payload(), StandardCharsets.UTF_8));
    }

    /** Decodes unmasked server frames as RFC 6455 section 5.2 lays them out; fails on a mask or trailing bytes. */
    private static List<Frame> decode(final byte[] bytes) {
        final List<Frame> frames = new ArrayList<>();
        int at = 0;
        while (at < bytes.length) {
            final int first = bytes[at] & 0xFF;
            final int second = bytes[at + 1] & 0xFF;
            assertEquals(0, second & 0x80, "a server frame is not masked");
            int length = second & 0x7F;
            int header = 2;
            if (length == 126) {
                length = (bytes[at + 2] & 0xFF) << 8 | bytes[at + 3] & 0xFF;
                header = 4;
            }
            final byte[] payload = new byte[length];
            System.arraycopy(bytes, at + header, payload, 0, length);
            frames.add(new Frame(first, payload));
            at += header + length;
        }
        assertEquals(bytes.length, at, "frames end exactly at the end of the bytes");
        return frames;
    }
}
