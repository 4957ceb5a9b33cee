package io.orderentry.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** A small blocking HTTP client for tests, answering status, headers and parsed JSON. */
public final class ApiClient {

    /** One answer. {@code json} is null when the body is not JSON. */
    public record Answer(int status, JsonNode json, String body, HttpResponse<String> raw) {

        /** @return the error code of an error answer */
        public String errorCode() {
            return json == null || json.get("error") == null ? null : json.get("error").get("code").asText();
        }

        /** @return a header value or null */
        public String header(final String name) {
            return raw.headers().firstValue(name).orElse(null);
        }
    }

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private final HttpClient client;
    private final String base;
    private final String secret;

    public ApiClient(final int port) {
        this(port, null);
    }

    /** A client that sends {@code Authorization: Bearer <secret>} with every request (null: no header). */
    public ApiClient(final int port, final String secret) {
        this(HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).version(HttpClient.Version.HTTP_1_1)
                .build(), "http://127.0.0.1:" + port, secret);
    }

    private ApiClient(final HttpClient client, final String base, final String secret) {
        this.client = client;
        this.base = base;
        this.secret = secret;
    }

    /** A client of {@code https://127.0.0.1:port} whose TLS trusts what {@code tls} trusts. */
    public static ApiClient https(final int port, final javax.net.ssl.SSLContext tls, final String secret) {
        return new ApiClient(HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
                .version(HttpClient.Version.HTTP_1_1).sslContext(tls).build(), "https://127.0.0.1:" + port, secret);
    }

    /** @return a client of the same service, over the same transport, that authenticates with {@code secret} */
    public ApiClient withKey(final String secret) {
        return new ApiClient(client, base, secret);
    }

    public Answer post(final String path, final String body) {
        return send(HttpRequest.newBuilder(URI.create(base + path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8)));
    }

    public Answer get(final String path) {
        return send(HttpRequest.newBuilder(URI.create(base + path)).GET());
    }

    public Answer patch(final String path, final String body) {
        return send(HttpRequest.newBuilder(URI.create(base + path))
                .header("Content-Type", "application/json")
                .method("PATCH", HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8)));
    }

    public Answer delete(final String path) {
        return send(HttpRequest.newBuilder(URI.create(base + path)).DELETE());
    }

    public Answer delete(final String path, final String body) {
        return send(HttpRequest.newBuilder(URI.create(base + path))
                .header("Content-Type", "application/json")
                .method("DELETE", HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8)));
    }

    public Answer send(final HttpRequest.Builder request) {
        if (secret != null) {
            request.setHeader("Authorization", "Bearer " + secret);
        }
        try {
            final HttpResponse<String> response = client.send(request.timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            JsonNode json = null;
            try {
                json = MAPPER.readTree(response.body());
            } catch (final IOException notJson) {
                json = null;
            }
            return new Answer(response.statusCode(), json, response.body(), response);
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** @return the value of an unlabelled metric at {@code /metrics}; fails if it is not there */
    public double metric(final String name) {
        for (final String line : get("/metrics").body().split("\n")) {
            if (line.startsWith(name + " ")) {
                return Double.parseDouble(line.substring(name.length() + 1).trim());
            }
        }
        throw new AssertionError(name + " is not in /metrics");
    }

    /** @return a LIMIT order body */
    public static String limit(final String account, final String clientOrderId, final String symbol,
                               final String side, final String price, final String quantity, final String extra) {
        return "{\"accountId\":\"" + account + "\","
                + (clientOrderId == null ? "" : "\"clientOrderId\":\"" + clientOrderId + "\",")
                + "\"symbol\":\"" + symbol + "\",\"side\":\"" + side + "\",\"type\":\"LIMIT\",\"price\":\"" + price
                + "\",\"quantity\":\"" + quantity + "\"" + (extra == null ? "" : "," + extra) + "}";
    }

    /** @return a MARKET order body */
    public static String market(final String account, final String symbol, final String side, final String quantity) {
        return "{\"accountId\":\"" + account + "\",\"symbol\":\"" + symbol + "\",\"side\":\"" + side
                + "\",\"type\":\"MARKET\",\"quantity\":\"" + quantity + "\"}";
    }
}
