package io.orderentry.bench.marketdata;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.math.BigDecimal;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URL;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.zip.CRC32;
import java.util.zip.Inflater;

/**
 * Many stream subscribers in one thread, cheap enough that a measurement is of the server, not of its clients:
 * one NIO selector, no WebSocket library, no JSON parsing on the common path. Each connection subscribes to
 * book, trades and ticker of every symbol given, then reads frames; of each message it reads only the head
 * ({@code type, channel, symbol, sequence}, which the server always writes first) and checks that every
 * update has the next sequence of its channel and symbol after the snapshot. The first {@code verify}
 * connections also keep each book from its snapshot and updates and check every book message's
 * {@code checksum} against their own copy (docs/marketdata.md, "Book checksum"), so a wrong book is found
 * too, not only a gap.
 *
 * <p>With {@code -Ddeflate=true} every connection offers permessage-deflate, as browsers do. The verifying
 * connections then inflate every compressed message as a browser does (one inflater per connection, keeping its
 * window). The others would cost this one thread more than the server they measure if each inflated every message,
 * so they rely on what the server promises, that an update is compressed once and the same bytes go to every client:
 * a compressed message already inflated for another connection is looked up by its bytes, and only one not seen
 * before is inflated (from an empty window, which must work: {@code undecodable} counts those that do not). Every
 * connection still checks every sequence.
 *
 * <pre>
 * java -cp ... io.orderentry.bench.marketdata.StreamSubscriberHarness URL CONNECTIONS SECONDS [VERIFY] [SYMBOLS]
 * </pre>
 * Prints {@code SUBSCRIBED n} once every connection has its snapshots, runs SECONDS from the start and prints one
 * {@code RESULT} line: messages, bytes as received (compressed, if so), sequence gaps, checksum checks and mismatches,
 * messages that did not inflate, connections closed by the server, and this process's CPU; and a {@code BYTES} line
 * with the messages' own (inflated) bytes by channel. Exits 1 on a gap, a mismatch or an undecodable message.
 */
public final class StreamSubscriberHarness {

    private static final String[] CHANNELS = {"book", "trades", "ticker"};
    private static final ObjectMapper MAPPER = new ObjectMapper();
    /** Bytes of a message read for its head: type, channel, symbol and sequence come first. */
    private static final int HEAD_BYTES = 160;
    /** Whether connections offer permessage-deflate ({@code -Ddeflate=true}). */
    private static final boolean DEFLATE = Boolean.getBoolean("deflate");
    /** Compressed messages inflated so far, by {@link #sampleHash}: the compressed bytes, then the message. */
    private static final Map<Long, byte[][]> INFLATED = new HashMap<>();
    /** Inflates the messages not seen before, each from an empty window. */
    private static final Inflater FRESH = new Inflater(true);
    private static final byte[] FLUSH_TAIL = {0, 0, (byte) 0xFF, (byte) 0xFF};
    private static long undecodable;
    private static long compressedMessages;
    private static long freshInflations;

    private StreamSubscriberHarness() {
    }

    public static void main(final String[] args) throws Exception {
        final URI url = URI.create(args[0]);
        final int connections = Integer.parseInt(args[1]);
        final int seconds = Integer.parseInt(args[2]);
        final int verify = args.length > 3 ? Integer.parseInt(args[3]) : 5;
        final List<String> symbols = args.length > 4 ? List.of(args[4].split(",")) : symbols(url);
        final Selector selector = Selector.open();
        final List<Connection> all = new ArrayList<>();
        for (int i = 0; i < connections; i++) {
            final SocketChannel channel = SocketChannel.open(new InetSocketAddress(url.getHost(), url.getPort()));
            channel.configureBlocking(false);
            final Connection connection = new Connection(channel, i < verify, symbols);
            channel.register(selector, SelectionKey.OP_READ, connection);
            connection.handshake(url);
            all.add(connection);
        }
        final long cpuStart = cpuNanos();
        final long started = System.nanoTime();
        boolean announced = false;
        final long end = started + seconds * 1_000_000_000L;
        while (System.nanoTime() < end) {
            selector.select(100);
            final Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
            while (keys.hasNext()) {
                final SelectionKey key = keys.next();
                keys.remove();
                ((Connection) key.attachment()).read();
            }
            if (!announced && all.stream().allMatch(Connection::hasAllSnapshots)) {
                announced = true;
                System.out.println("SUBSCRIBED " + connections + " after "
                        + (System.nanoTime() - started) / 1_000_000 + " ms");
                System.out.flush();
            }
        }
        long messages = 0;
        long bytes = 0;
        long gaps = 0;
        long checks = 0;
        long mismatches = 0;
        long closed = 0;
        long accepted = 0;
        final long[] byChannel = new long[CHANNELS.length];
        for (final Connection connection : all) {
            for (int c = 0; c < CHANNELS.length; c++) {
                byChannel[c] += connection.channelBytes[c];
            }
            messages += connection.messages;
            bytes += connection.bytes;
            gaps += connection.gaps;
            checks += connection.checks;
            mismatches += connection.mismatches;
            closed += connection.closedByServer ? 1 : 0;
            accepted += connection.deflateAccepted ? 1 : 0;
            connection.channel.close();
        }
        final double elapsed = (System.nanoTime() - started) / 1e9;
        System.out.printf("RESULT connections %d, messages %d (%.0f/s), bytes %d (%.1f MB/s), gaps %d, checksum checks %d,"
                        + " mismatches %d, closed by server %d, harness CPU %.2f s (%.0f%% of a core)%n",
                connections, messages, messages / elapsed, bytes, bytes / elapsed / 1e6, gaps, checks, mismatches,
                closed, (cpuNanos() - cpuStart) / 1e9, (cpuNanos() - cpuStart) / 1e7 / elapsed);
        if (DEFLATE) {
            System.out.printf("DEFLATE accepted by %d of %d connections; %d messages came compressed, %d distinct ones"
                    + " inflated from an empty window, %d undecodable%n", accepted, connections, compressedMessages,
                    freshInflations, undecodable);
        }
        System.out.printf("BYTES by channel (message payloads): book %.1f MB/s, trades %.1f MB/s, ticker %.1f MB/s%n",
                byChannel[0] / elapsed / 1e6, byChannel[1] / elapsed / 1e6, byChannel[2] / elapsed / 1e6);
        System.exit(gaps == 0 && mismatches == 0 && undecodable == 0 ? 0 : 1);
    }

    /** @return the configured symbols, from {@code GET /api/v1/symbols} */
    private static List<String> symbols(final URI url) throws IOException {
        final JsonNode list = MAPPER.readTree(new URL("http://" + url.getHost() + ":" + url.getPort()
                + "/api/v1/symbols"));
        final List<String> names = new ArrayList<>();
        for (final JsonNode symbol : list.isArray() ? list : list.path("symbols")) {
            names.add(symbol.path("symbol").asText());
        }
        return names;
    }

    private static long cpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    /** One WebSocket connection: the HTTP handshake, then frames. */
    private static final class Connection {
        private final SocketChannel channel;
        private final boolean verify;
        private final List<String> symbols;
        private final Map<String, long[]> last = new HashMap<>();
        private final Map<String, Book> books = new HashMap<>();
        /** Direct, so that a read is one copy (kernel to this buffer), not two through a temporary direct buffer. */
        private ByteBuffer in = ByteBuffer.allocateDirect(128 * 1024);
        private final byte[] head = new byte[HEAD_BYTES];
        private java.io.ByteArrayOutputStream fragments;
        private boolean fragmentsCompressed;
        /** A verifying connection's own inflater, keeping its window between messages as browsers do. */
        private final Inflater inflater = new Inflater(true);
        private boolean deflateAccepted;
        private boolean upgraded;
        private int snapshots;
        private long messages;
        private long bytes;
        private final long[] channelBytes = new long[CHANNELS.length];
        private long gaps;
        private long checks;
        private long mismatches;
        private boolean closedByServer;

        Connection(final SocketChannel channel, final boolean verify, final List<String> symbols) {
            this.channel = channel;
            this.verify = verify;
            this.symbols = symbols;
        }

        boolean hasAllSnapshots() {
            return closedByServer || snapshots >= symbols.size() * CHANNELS.length;
        }

        void handshake(final URI url) throws IOException {
            final byte[] key = new byte[16];
            new Random().nextBytes(key);
            final String request = "GET /api/v1/stream HTTP/1.1\r\nHost: " + url.getHost() + ":" + url.getPort()
                    + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                    + "Sec-WebSocket-Key: " + Base64.getEncoder().encodeToString(key) + "\r\n"
                    + (DEFLATE ? "Sec-WebSocket-Extensions: permessage-deflate\r\n" : "") + "\r\n";
            writeFully(ByteBuffer.wrap(request.getBytes(StandardCharsets.US_ASCII)));
        }

        void read() throws IOException {
            final int n;
            try {
                n = channel.read(in);
            } catch (final IOException e) {
                closedByServer = true;
                channel.close();
                return;
            }
            if (n < 0) {
                closedByServer = true;
                channel.close();
                return;
            }
            bytes += n;
            in.flip();
            if (!upgraded && !readUpgrade()) {
                in.compact();
                return;
            }
            while (frame()) {
                // one complete frame handled per call
            }
            in.compact();
            if (!in.hasRemaining()) {
                final ByteBuffer bigger = ByteBuffer.allocateDirect(in.capacity() * 2);
                in.flip();
                bigger.put(in);
                in = bigger;
            }
        }

        private boolean readUpgrade() throws IOException {
            for (int i = in.position() + 3; i < in.limit(); i++) {
                if (in.get(i) == '\n' && in.get(i - 1) == '\r' && in.get(i - 2) == '\n' && in.get(i - 3) == '\r') {
                    final byte[] response = new byte[i + 1 - in.position()];
                    in.get(in.position(), response, 0, response.length);
                    final String text = new String(response, StandardCharsets.US_ASCII);
                    if (!text.startsWith("HTTP/1.1 101")) {
                        throw new IllegalStateException("upgrade refused: " + text.lines().findFirst().orElse(""));
                    }
                    in.position(i + 1);
                    upgraded = true;
                    deflateAccepted = text.toLowerCase(java.util.Locale.ROOT).contains("permessage-deflate");
                    for (final String symbol : symbols) {
                        for (final String channelName : CHANNELS) {
                            sendText("{\"op\":\"subscribe\",\"channel\":\"" + channelName + "\",\"symbol\":\""
                                    + symbol + "\"}");
                        }
                    }
                    return true;
                }
            }
            return false;
        }

        /** Handles one complete frame at the buffer's position, if there is one. */
        private boolean frame() {
            if (in.remaining() < 2) {
                return false;
            }
            final int start = in.position();
            final int opcode = in.get(start) & 0x0F;
            int length = in.get(start + 1) & 0x7F;
            int header = 2;
            if (length == 126) {
                if (in.remaining() < 4) {
                    return false;
                }
                length = (in.get(start + 2) & 0xFF) << 8 | in.get(start + 3) & 0xFF;
                header = 4;
            } else if (length == 127) {
                if (in.remaining() < 10) {
                    return false;
                }
                length = (int) in.getLong(start + 2);
                header = 10;
            }
            if (in.remaining() < header + length) {
                return false;
            }
            final boolean fin = (in.get(start) & 0x80) != 0;
            final boolean compressed = (in.get(start) & 0x40) != 0;
            if (opcode == 0x8) {
                closedByServer = true;
            } else if (opcode == 0x1 && fin && !compressed) {
                message(in, start + header, length);
            } else if (opcode == 0x1 && fin) {
                inflated(in.slice(start + header, length));
            } else if (opcode == 0x1 || opcode == 0x0 && fragments != null) {
                if (opcode == 0x1) {
                    fragments = new java.io.ByteArrayOutputStream();
                    fragmentsCompressed = compressed;
                }
                final byte[] part = new byte[length];
                in.get(start + header, part, 0, length);
                fragments.writeBytes(part);
                if (fin) {
                    final byte[] whole = fragments.toByteArray();
                    fragments = null;
                    if (fragmentsCompressed) {
                        inflated(ByteBuffer.wrap(whole));
                    } else {
                        message(ByteBuffer.wrap(whole), 0, whole.length);
                    }
                }
            }
            in.position(start + header + length);
            return true;
        }

        /** A compressed message, its payload between the buffer's position and limit: inflated, then read. */
        private void inflated(final ByteBuffer payload) {
            compressedMessages++;
            final byte[] message;
            if (verify) {
                message = inflate(inflater, payload.duplicate());
            } else {
                final long hash = sampleHash(payload);
                final byte[][] known = INFLATED.get(hash);
                if (known != null && payload.mismatch(ByteBuffer.wrap(known[0])) == -1) {
                    message = known[1];
                } else {
                    FRESH.reset();
                    freshInflations++;
                    message = inflate(FRESH, payload.duplicate());
                    if (message != null) {
                        if (INFLATED.size() > 50_000) {
                            INFLATED.clear();
                        }
                        final byte[] bytes = new byte[payload.remaining()];
                        payload.duplicate().get(bytes);
                        INFLATED.put(hash, new byte[][] {bytes, message});
                    }
                }
            }
            if (message == null) {
                undecodable++;
                return;
            }
            message(ByteBuffer.wrap(message), 0, message.length);
        }

        /** One complete text message of {@code length} bytes at {@code at} in {@code from}: only its head is read. */
        private void message(final ByteBuffer from, final int at, final int length) {
            messages++;
            final int headLength = Math.min(length, HEAD_BYTES);
            from.get(at, head, 0, headLength);
            final byte[] a = head;
            final String type = field(a, 0, headLength, "\"type\":\"");
            if (!"snapshot".equals(type) && !"update".equals(type)) {
                if ("error".equals(type)) {
                    throw new IllegalStateException("server error: " + new String(a, 0, headLength, StandardCharsets.UTF_8));
                }
                return;
            }
            final String channelName = field(a, 0, headLength, "\"channel\":\"");
            for (int c = 0; c < CHANNELS.length; c++) {
                if (CHANNELS[c].equals(channelName)) {
                    channelBytes[c] += length;
                }
            }
            final String symbol = field(a, 0, headLength, "\"symbol\":\"");
            final long sequence = number(a, 0, headLength, "\"sequence\":");
            final String slot = channelName + "/" + symbol;
            final long[] previous = last.get(slot);
            if ("snapshot".equals(type)) {
                if (previous == null) {
                    snapshots++;
                }
                last.put(slot, new long[] {sequence});
            } else if (previous == null) {
                gaps++;
            } else {
                if (sequence != previous[0] + 1) {
                    gaps++;
                }
                previous[0] = sequence;
            }
            if (verify && "book".equals(channelName)) {
                final byte[] whole = new byte[length];
                from.get(at, whole, 0, length);
                checkBook(symbol, new String(whole, StandardCharsets.UTF_8));
            }
        }

        private void checkBook(final String symbol, final String text) {
            final JsonNode message;
            try {
                message = MAPPER.readTree(text);
            } catch (final IOException e) {
                throw new IllegalStateException("not JSON: " + text, e);
            }
            final Book book = "snapshot".equals(message.path("type").asText())
                    ? books.compute(symbol, (s, old) -> new Book()) : books.computeIfAbsent(symbol, s -> new Book());
            if ("snapshot".equals(message.path("type").asText())) {
                message.path("bids").forEach(level -> book.bids.put(new BigDecimal(level.get(0).asText()), level));
                message.path("asks").forEach(level -> book.asks.put(new BigDecimal(level.get(0).asText()), level));
            } else {
                for (final JsonNode change : message.path("changes")) {
                    final TreeMap<BigDecimal, JsonNode> side = "BUY".equals(change.get(0).asText()) ? book.bids : book.asks;
                    final BigDecimal price = new BigDecimal(change.get(1).asText());
                    if (new BigDecimal(change.get(2).asText()).signum() == 0) {
                        side.remove(price);
                    } else {
                        side.put(price, MAPPER.createArrayNode().add(change.get(1).asText()).add(change.get(2).asText()));
                    }
                }
            }
            checks++;
            if (book.checksum() != message.path("checksum").asLong(-1)) {
                mismatches++;
            }
        }

        private void sendText(final String text) throws IOException {
            final byte[] payload = text.getBytes(StandardCharsets.UTF_8);
            final byte[] mask = new byte[4];
            new Random().nextBytes(mask);
            final ByteBuffer out = ByteBuffer.allocate(2 + 4 + payload.length);
            out.put((byte) 0x81).put((byte) (0x80 | payload.length)).put(mask);
            for (int i = 0; i < payload.length; i++) {
                out.put((byte) (payload[i] ^ mask[i % 4]));
            }
            out.flip();
            writeFully(out);
        }

        private void writeFully(final ByteBuffer out) throws IOException {
            while (out.hasRemaining()) {
                channel.write(out);
            }
        }
    }

    /** A client's own copy of one book, as the checksum documentation describes it. */
    private static final class Book {
        private final TreeMap<BigDecimal, JsonNode> bids = new TreeMap<>(Collections.reverseOrder());
        private final TreeMap<BigDecimal, JsonNode> asks = new TreeMap<>();

        long checksum() {
            final StringBuilder text = new StringBuilder();
            append(text, asks);
            append(text, bids);
            final CRC32 crc = new CRC32();
            crc.update(text.toString().getBytes(StandardCharsets.US_ASCII));
            return crc.getValue();
        }

        private static void append(final StringBuilder text, final TreeMap<BigDecimal, JsonNode> side) {
            int n = 0;
            for (final JsonNode level : side.values()) {
                if (n++ == 10) {
                    return;
                }
                text.append(strip(level.get(0).asText())).append(strip(level.get(1).asText()));
            }
        }

        private static String strip(final String decimal) {
            final String digits = decimal.replace(".", "");
            int i = 0;
            while (i < digits.length() && digits.charAt(i) == '0') {
                i++;
            }
            return digits.substring(i);
        }
    }

    /** @return the message inflated as RFC 7692 says (the payload, then 00 00 FF FF), or null if it does not inflate */
    private static byte[] inflate(final Inflater inflater, final ByteBuffer payload) {
        final byte[] input = new byte[payload.remaining() + FLUSH_TAIL.length];
        payload.get(input, 0, input.length - FLUSH_TAIL.length);
        System.arraycopy(FLUSH_TAIL, 0, input, input.length - FLUSH_TAIL.length, FLUSH_TAIL.length);
        inflater.setInput(input);
        final java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(input.length * 8);
        final byte[] chunk = new byte[64 * 1024];
        try {
            while (true) {
                final int n = inflater.inflate(chunk);
                out.write(chunk, 0, n);
                if (n == 0 && (inflater.needsInput() || inflater.finished())) {
                    return out.toByteArray();
                }
            }
        } catch (final java.util.zip.DataFormatException e) {
            return null;
        }
    }

    /** A hash of a compressed payload's length and up to 64 bytes at each end: the bytes are then compared whole. */
    private static long sampleHash(final ByteBuffer payload) {
        final int from = payload.position();
        final int to = payload.limit();
        long hash = to - from;
        for (int i = from; i < Math.min(to, from + 64); i++) {
            hash = hash * 31 + payload.get(i);
        }
        for (int i = Math.max(from + 64, to - 64); i < to; i++) {
            hash = hash * 31 + payload.get(i);
        }
        return hash;
    }

    /** @return the string value after {@code key} within the message, or null */
    private static String field(final byte[] a, final int at, final int length, final String key) {
        final int from = indexOf(a, at, length, key);
        if (from < 0) {
            return null;
        }
        int end = from;
        while (end < at + length && a[end] != '"') {
            end++;
        }
        return new String(a, from, end - from, StandardCharsets.US_ASCII);
    }

    private static long number(final byte[] a, final int at, final int length, final String key) {
        int i = indexOf(a, at, length, key);
        long value = 0;
        while (i >= 0 && i < at + length && a[i] >= '0' && a[i] <= '9') {
            value = value * 10 + a[i++] - '0';
        }
        return value;
    }

    /** @return the index just after {@code key} in the message head, or -1 */
    private static int indexOf(final byte[] a, final int at, final int length, final String key) {
        final int end = at + length - key.length();
        outer:
        for (int i = at; i <= end; i++) {
            for (int k = 0; k < key.length(); k++) {
                if (a[i + k] != key.charAt(k)) {
                    continue outer;
                }
            }
            return i + key.length();
        }
        return -1;
    }
}
