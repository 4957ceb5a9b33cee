package io.orderentry.bench.http;

import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * Places orders at a fixed rate and measures each answer from the moment the request was <em>due</em>,
 * not from when it was sent, so a stalled server is charged for every request it delayed
 * (coordinated omission corrected; wrk cannot do this).
 *
 * <pre>
 * java -cp ... io.orderentry.bench.http.FixedRateLoad URL RATE_PER_SECOND SECONDS [CONNECTIONS] [WARMUP_SECONDS]
 * </pre>
 * The first WARMUP_SECONDS (default 10) run at the same rate but are not recorded: they open the connections
 * and let both JITs settle, which otherwise shows up as seconds of "latency" charged to every request due
 * behind them. Prints one line: rate, answers by class, p50/p99/p99.9/max in microseconds, and this harness's
 * own CPU over the recorded window.
 *
 * <p>API keys: with {@code ORDERS_LOAD_KEYS} naming a file of secrets, one a line (the bench scripts
 * make one), each request carries {@code Authorization: Bearer} of one of them, picked at random, and names
 * no accountId (the key's account is the order's); without it, requests carry no key and name accounts
 * {@code lat-0..49}, for a service with {@code ORDERS_AUTH=none}. The keys are drawn from a random generator of their
 * own, so the orders are the same either way.
 *
 * <p>Light on purpose, since it shares two cores with what it measures. One thread and one NIO selector drive
 * every connection with plain HTTP/1.1 (one request in flight per connection, keep-alive); every
 * {@value #TICK_MILLIS} ms it sends at once every request due before the next tick, then sleeps in the
 * selector: no pacing thread, no spinning, no hand-off per request. (An earlier version on the Vert.x HTTP client
 * cost about 85 µs of CPU per request, 42% of a core at 5,000/s.) A request sent before it is due is timed from
 * when it was sent; one sent after (the tick was late, or every connection was busy) from when it was due.
 */
public final class FixedRateLoad {

    private static final long TICK_MILLIS = 1;

    private FixedRateLoad() {
    }

    /** One keep-alive connection with at most one request in flight. */
    private static final class Connection {
        final SocketChannel channel;
        final ByteBuffer in = ByteBuffer.allocate(64 * 1024);
        long request = -1;
        long from;

        Connection(final SocketChannel channel) {
            this.channel = channel;
        }
    }

    public static void main(final String[] args) throws Exception {
        final URI url = URI.create(args[0]);
        final int rate = Integer.parseInt(args[1]);
        final int seconds = Integer.parseInt(args[2]);
        final int connections = args.length > 3 ? Integer.parseInt(args[3]) : 64;
        final long warmup = (long) rate * (args.length > 4 ? Integer.parseInt(args[4]) : 10);
        final long total = warmup + (long) rate * seconds;
        final Histogram latency = new Histogram(TimeUnit.SECONDS.toNanos(60), 3);
        final Random random = new Random(42);
        final String run = Long.toString(System.currentTimeMillis(), 36);
        final List<String> secrets = secrets(System.getenv("ORDERS_LOAD_KEYS"));
        final boolean keys = !secrets.isEmpty();
        final String[] heads = new String[Math.max(1, secrets.size())];
        for (int k = 0; k < heads.length; k++) {
            heads[k] = "POST /api/v1/orders HTTP/1.1\r\nHost: " + url.getHost() + ":" + url.getPort()
                    + "\r\nContent-Type: application/json\r\n"
                    + (keys ? "Authorization: Bearer " + secrets.get(k) + "\r\n" : "") + "Content-Length: ";
        }
        final Random keyChoice = new Random(7);

        final Selector selector = Selector.open();
        final ArrayDeque<Connection> idle = new ArrayDeque<>();
        for (int i = 0; i < connections; i++) {
            final SocketChannel channel = SocketChannel.open(new InetSocketAddress(url.getHost(), url.getPort()));
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            channel.configureBlocking(false);
            final Connection connection = new Connection(channel);
            channel.register(selector, SelectionKey.OP_READ, connection);
            idle.add(connection);
        }

        final double intervalNanos = 1e9 / rate;
        final long tickNanos = TimeUnit.MILLISECONDS.toNanos(TICK_MILLIS);
        final long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(10);
        final long deadline = start + TimeUnit.SECONDS.toNanos(total / rate + 120L);
        long released = 0;    // requests due so far (sent or waiting for a connection)
        long sent = 0;        // requests sent, in order
        long completed = 0;
        long ok = 0;
        long other = 0;
        long cpuAtWarmupEnd = -1;
        while (completed < total && System.nanoTime() < deadline) {
            final long now = System.nanoTime();
            final long horizon = now + tickNanos;
            while (released < total && start + (long) (released * intervalNanos) < horizon) {
                released++;
            }
            while (sent < released && !idle.isEmpty()) {
                final long n = sent++;
                if (n == warmup) {
                    cpuAtWarmupEnd = processCpuNanos();
                }
                final Connection connection = idle.poll();
                final long due = start + (long) (n * intervalNanos);
                connection.request = n;
                connection.from = Math.min(System.nanoTime(), due);
                final byte[] body = order(random, run, n, keys).getBytes(StandardCharsets.US_ASCII);
                final String head = heads[keys ? keyChoice.nextInt(heads.length) : 0];
                final ByteBuffer out = ByteBuffer.allocate(head.length() + 8 + body.length);
                out.put((head + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII)).put(body).flip();
                while (out.hasRemaining()) {
                    connection.channel.write(out);
                }
            }
            final long nextDue = released < total ? start + (long) (released * intervalNanos) : now + tickNanos;
            final long waitMillis = Math.max(1, TimeUnit.NANOSECONDS.toMillis(nextDue - System.nanoTime()));
            selector.select(Math.min(waitMillis, 100));
            for (final SelectionKey key : selector.selectedKeys()) {
                final Connection connection = (Connection) key.attachment();
                if (connection.channel.read(connection.in) < 0) {
                    throw new IllegalStateException("the server closed a connection");
                }
                final int status = complete(connection.in);
                if (status == 0) {
                    continue;
                }
                final long elapsed = System.nanoTime() - connection.from;
                if (connection.request >= warmup) {
                    latency.recordValue(Math.min(Math.max(elapsed, 0), latency.getHighestTrackableValue()));
                }
                if (status / 100 == 2) {
                    ok++;
                } else {
                    other++;
                }
                completed++;
                connection.request = -1;
                connection.in.clear();
                idle.add(connection);
            }
            selector.selectedKeys().clear();
        }
        final long cpuNanos = processCpuNanos() - cpuAtWarmupEnd;
        final long recorded = total - warmup;
        System.out.printf("RATE %d/s for %d s after warm-up (%d connections): %d 2xx, %d other (warm-up included)%s;"
                        + " latency us p50 %d p99 %d p99.9 %d max %d; harness CPU %.1f us/request (%.1f%% of one core)%n",
                rate, seconds, connections, ok, other, completed == total ? "" : " (did not finish)",
                latency.getValueAtPercentile(50) / 1000, latency.getValueAtPercentile(99) / 1000,
                latency.getValueAtPercentile(99.9) / 1000, latency.getMaxValue() / 1000,
                cpuNanos / 1000.0 / recorded, cpuNanos / 1e7 / seconds);
        for (final SelectionKey key : selector.keys()) {
            key.channel().close();
        }
        selector.close();
    }

    /**
     * @return the status of the complete HTTP response in {@code in} (written up to its position), or 0 while it
     *         is incomplete; a response without a Content-Length is refused
     */
    private static int complete(final ByteBuffer in) {
        final byte[] bytes = in.array();
        final int length = in.position();
        int headerEnd = -1;
        for (int i = 3; i < length; i++) {
            if (bytes[i] == '\n' && bytes[i - 1] == '\r' && bytes[i - 2] == '\n' && bytes[i - 3] == '\r') {
                headerEnd = i + 1;
                break;
            }
        }
        if (headerEnd < 0) {
            return 0;
        }
        final String headers = new String(bytes, 0, headerEnd, StandardCharsets.US_ASCII);
        final int at = headers.toLowerCase(Locale.ROOT).indexOf("\r\ncontent-length:");
        if (at < 0) {
            throw new IllegalStateException("a response without Content-Length: " + headers);
        }
        final int valueEnd = headers.indexOf('\r', at + 2);
        final int bodyLength = Integer.parseInt(headers.substring(at + 17, valueEnd).trim());
        if (length < headerEnd + bodyLength) {
            return 0;
        }
        return Integer.parseInt(headers.substring(9, 12));
    }

    /** @return the CPU time of this whole process (every thread, JIT and GC included) */
    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    /** @return the secrets in the file at {@code path}, one a line; none when the path is null or empty */
    private static List<String> secrets(final String path) throws java.io.IOException {
        if (path == null || path.isEmpty()) {
            return List.of();
        }
        final List<String> secrets = Files.readAllLines(Path.of(path)).stream().map(String::strip)
                .filter(line -> !line.isEmpty()).toList();
        if (secrets.isEmpty()) {
            throw new IllegalArgumentException("ORDERS_LOAD_KEYS " + path + " holds no secret");
        }
        return secrets;
    }

    /**
     * A varied LIMIT order around a mid price; about one in ten is MARKET. With keys the body names no account (the
     * account number is drawn all the same, so the orders do not change).
     */
    private static String order(final Random random, final String run, final long n, final boolean keys) {
        final boolean buy = random.nextBoolean();
        final String side = buy ? "BUY" : "SELL";
        final int accountNumber = random.nextInt(50);
        final String account = keys ? "" : "\"accountId\":\"lat-" + accountNumber + "\",";
        final String quantity = "0.0" + (1 + random.nextInt(9));
        if (random.nextInt(10) == 0) {
            return "{" + account + "\"symbol\":\"BTCUSD\",\"side\":\"" + side
                    + "\",\"type\":\"MARKET\",\"quantity\":\"" + quantity + "\"}";
        }
        final int offset = random.nextInt(16) - 3;
        final String price = (buy ? 50_000 - offset : 50_000 + offset) + ".00";
        return "{" + account + "\"clientOrderId\":\"" + run + "-" + n
                + "\",\"symbol\":\"BTCUSD\",\"side\":\"" + side + "\",\"type\":\"LIMIT\",\"price\":\"" + price
                + "\",\"quantity\":\"" + quantity + "\"}";
    }
}
