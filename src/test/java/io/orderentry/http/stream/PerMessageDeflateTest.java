package io.orderentry.http.stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import org.junit.jupiter.api.Test;

class PerMessageDeflateTest {

    private static final byte[] TAIL = {0, 0, (byte) 0xFF, (byte) 0xFF};

    @Test
    void compressedMessageInflatesBackToTheSameBytesOnceTheFlushTailIsAppended() throws Exception {
        final byte[] message = trades(40);
        final byte[] compressed = new PerMessageDeflate(6).compress(message);
        assertNotNull(compressed);
        assertTrue(compressed.length * 4 < message.length, "trades compress well: " + compressed.length + " of " + message.length);
        assertArrayEquals(message, inflate(new Inflater(true), compressed));
    }

    @Test
    void eachMessageStandsAloneSoClientsThatKeepTheirWindowAndClientsThatDoNotBothDecodeIt() throws Exception {
        final PerMessageDeflate deflate = new PerMessageDeflate(6);
        final byte[][] messages = {trades(3), trades(30), trades(3), trades(7)};
        final Inflater keepsWindow = new Inflater(true);
        for (final byte[] message : messages) {
            final byte[] compressed = deflate.compress(message);
            assertArrayEquals(message, inflate(keepsWindow, compressed), "a client with context takeover");
            assertArrayEquals(message, inflate(new Inflater(true), compressed), "a client without");
        }
    }

    @Test
    void sameMessageCompressesToTheSameBytesWhateverCameBefore() {
        final PerMessageDeflate deflate = new PerMessageDeflate(6);
        final byte[] first = deflate.compress(trades(10));
        deflate.compress(trades(25));
        assertArrayEquals(first, deflate.compress(trades(10)), "no state carries over, so one copy serves every client");
    }

    @Test
    void messageThatDoesNotGetShorterIsLeftUncompressed() {
        assertNull(new PerMessageDeflate(6).compress("{\"a\":1}".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void messageLargerThanTheOutputBufferIsCompressedWhole() throws Exception {
        final java.util.Random random = new java.util.Random(7);
        final StringBuilder text = new StringBuilder();
        while (text.length() < 400_000) {
            text.append(Integer.toHexString(random.nextInt()));
        }
        final byte[] message = text.toString().getBytes(StandardCharsets.US_ASCII);
        final byte[] compressed = new PerMessageDeflate(6).compress(message);
        assertNotNull(compressed);
        assertTrue(compressed.length > 8192, "larger than the first output buffer");
        assertArrayEquals(message, inflate(new Inflater(true), compressed));
    }

    @Test
    void compressedMessageOverOneFrameHasRsv1OnItsFirstFrameOnly() throws Exception {
        final byte[] payload = new byte[150_000];
        for (int i = 0; i < payload.length; i++) {
            payload[i] = (byte) (i * 31 + (i >>> 7));
        }
        final byte[] frames = StreamFrames.frames(payload, true);
        assertEquals(0x41, frames[0] & 0xFF, "text, compressed, not final");
        final int second = 4 + StreamFrames.MAX_FRAME_PAYLOAD;
        assertEquals(0x00, frames[second] & 0xFF, "continuation: RSV1 clear, not final");
        final int third = second + 4 + StreamFrames.MAX_FRAME_PAYLOAD;
        assertEquals(0x80, frames[third] & 0xFF, "last continuation: final, RSV1 clear");
        assertEquals(0x81, StreamFrames.frames("x".getBytes(StandardCharsets.US_ASCII), false)[0] & 0xFF,
                "an uncompressed message never has RSV1");
    }

    @Test
    void offersThatLimitTheServerWindowAreRecognised() {
        assertFalse(PerMessageDeflate.limitsServerWindow("permessage-deflate; client_max_window_bits"));
        assertFalse(PerMessageDeflate.limitsServerWindow("permessage-deflate; server_no_context_takeover"));
        assertFalse(PerMessageDeflate.limitsServerWindow("permessage-deflate; server_max_window_bits=15"));
        assertFalse(PerMessageDeflate.limitsServerWindow("x-webkit-deflate-frame, permessage-deflate"));
        assertTrue(PerMessageDeflate.limitsServerWindow("permessage-deflate; server_max_window_bits=10"));
        assertTrue(PerMessageDeflate.limitsServerWindow("permessage-deflate;server_max_window_bits=\"9\""));
        assertTrue(PerMessageDeflate.limitsServerWindow(
                "permessage-deflate; client_max_window_bits, PERMESSAGE-DEFLATE; SERVER_MAX_WINDOW_BITS=12"));
        assertTrue(PerMessageDeflate.limitsServerWindow("permessage-deflate; server_max_window_bits"),
                "a malformed limit counts as one");
    }

    /** @return a trades update with {@code n} trades, as the stream renders them */
    private static byte[] trades(final int n) {
        final StringBuilder text = new StringBuilder("{\"type\":\"update\",\"channel\":\"trades\",\"symbol\":\"BTCUSD\","
                + "\"sequence\":" + n + ",\"trades\":[");
        for (int i = 0; i < n; i++) {
            text.append(i == 0 ? "" : ",").append("{\"tradeId\":").append(1000 + i).append(",\"price\":\"500")
                    .append(10 + i % 7).append(".00\",\"quantity\":\"0.").append(1000 + i * 37 % 9000)
                    .append("\",\"takerSide\":\"").append(i % 2 == 0 ? "BUY" : "SELL")
                    .append("\",\"timestamp\":\"2026-11-25T13:0").append(i % 10).append(":12.").append(100_000 + i)
                    .append("Z\"}");
        }
        return text.append("]}").toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Inflates one message as RFC 7692 section 7.2.2 says: the payload, then 00 00 FF FF. */
    static byte[] inflate(final Inflater inflater, final byte[] compressed) throws DataFormatException {
        final byte[] input = new byte[compressed.length + TAIL.length];
        System.arraycopy(compressed, 0, input, 0, compressed.length);
        System.arraycopy(TAIL, 0, input, compressed.length, TAIL.length);
        inflater.setInput(input);
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final byte[] chunk = new byte[4096];
        while (true) {
            final int n = inflater.inflate(chunk);
            out.write(chunk, 0, n);
            if (n == 0 && (inflater.needsInput() || inflater.finished())) {
                return out.toByteArray();
            }
        }
    }
}
