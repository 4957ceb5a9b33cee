package io.orderentry.http.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.orderentry.account.FeedRenderer;
import io.orderentry.http.ApiError;
import io.orderentry.http.DirectBody;
import io.orderentry.instrument.Assets;
import io.orderentry.instrument.Instrument;
import io.orderentry.query.OrderState;
import io.vertx.core.buffer.Buffer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;

/**
 * JSON in and out of the HTTP edge: one configured {@link ObjectMapper} for requests, and writers
 * for answers that render ticks and lots as decimal strings at the instrument's scale. Orders and errors, the
 * answers of the hot path, are rendered by hand ({@link OrderJson}); the rest through Jackson.
 * Thread-safe; used on the event loops.
 */
public final class Json {

    private static final DateTimeFormatter MICROS = DateTimeFormatter
            .ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);

    private final ObjectMapper mapper;
    private final JsonFactory factory;
    private final List<Instrument> instruments;
    private final int[] priceBands;
    private final Assets assets;
    /** Orders are rendered by hand into bytes reused per event loop; see {@link OrderJson}. */
    private final ThreadLocal<OrderJson> orderJson;

    /**
     * @param instruments indexed by {@link Instrument#index()}
     */
    public Json(final List<Instrument> instruments) {
        this(instruments, new int[instruments.size()]);
    }

    /**
     * @param instruments          indexed by {@link Instrument#index()}
     * @param priceBandBasisPoints each instrument's price band, by index, for {@link #symbols}
     */
    public Json(final List<Instrument> instruments, final int[] priceBandBasisPoints) {
        this(instruments, priceBandBasisPoints, null);
    }

    /**
     * @param instruments          indexed by {@link Instrument#index()}
     * @param priceBandBasisPoints each instrument's price band, by index, for {@link #symbols}
     * @param assets               the instruments' assets and fees, for {@link #symbols}; null leaves them out
     */
    public Json(final List<Instrument> instruments, final int[] priceBandBasisPoints, final Assets assets) {
        this.assets = assets;
        this.instruments = List.copyOf(instruments);
        this.priceBands = priceBandBasisPoints.clone();
        this.orderJson = ThreadLocal.withInitial(() -> new OrderJson(this.instruments));
        this.mapper = new ObjectMapper();
        mapper.enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
        mapper.setNodeFactory(JsonNodeFactory.withExactBigDecimals(true));
        mapper.enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
        // a body or message is one JSON value: `{...}xyz` or two objects back to back are refused, not half read
        mapper.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        mapper.getFactory().setStreamReadConstraints(StreamReadConstraints.builder()
                .maxNumberLength(100).maxNestingDepth(20).maxStringLength(16 * 1024).build());
        this.factory = mapper.getFactory();
    }

    /**
     * @param instruments indexed by {@link Instrument#index()}
     * @return a renderer of the stream's private {@code orders} updates, as WebSocket frames; not thread-safe: for the
     *         one thread of the order stage
     */
    public static FeedRenderer orderFeedRenderer(final List<Instrument> instruments) {
        return new OrderFeedJson(instruments);
    }

    /**
     * @param assets the assets balance messages name, null without balances
     * @return as {@link #orderFeedRenderer(List)}, rendering balance messages too
     */
    public static FeedRenderer orderFeedRenderer(final List<Instrument> instruments, final Assets assets) {
        return new OrderFeedJson(instruments, assets);
    }

    /** @return the mapper requests are parsed with */
    public ObjectMapper mapper() {
        return mapper;
    }

    /** @return ISO-8601 UTC with microseconds, e.g. 2026-11-22T10:15:30.123456Z */
    public static String timestamp(final long epochMicros) {
        return MICROS.format(Instant.ofEpochSecond(Math.floorDiv(epochMicros, 1_000_000L),
                Math.floorMod(epochMicros, 1_000_000L) * 1_000L));
    }

    /** @return {@code {"error":{...}}}, plus {@code "order"} when given */
    public Buffer error(final ApiError error, final OrderState order) {
        final OrderJson renderer = orderJson.get();
        final JsonBytes out = renderer.start();
        errorMember(out.raw((byte) '{'), error);
        if (order != null) {
            out.ascii(",\"order\":");
            renderer.write(out, order);
        }
        return out.raw((byte) '}').toBuffer();
    }

    /**
     * @return one command's result, what a single request would have been answered in one object:
     *     {@code {"status":201,"order":{...}}} for a success, {@code {"status":200,"canceled":[...]}} for a cancel-all,
     *     {@code {"status":422,"error":{...}}} (plus {@code "order"} when given, as a 409's) for an error; with an
     *     {@code id}, a stream message: {@code {"op":"result","id":"r-1","status":...}}
     * @param id       the JSON text of the request's id (a quoted string or a number, ASCII), or null for none
     * @param error    the error, or null for a success, which then has {@code order} or {@code canceled}
     * @param canceled a cancel-all's orders, or null
     */
    public Buffer result(final String id, final int status, final ApiError error, final OrderState order,
                         final List<OrderState> canceled) {
        return result(id, status, error, order, canceled, BUFFER);
    }

    /**
     * Receives a document rendered into this thread's reused bytes: the first {@code length} bytes of {@code bytes},
     * valid only during the call (it copies what it keeps), so that a caller can frame it where it goes with one copy.
     */
    public interface Payload<T> {
        T take(byte[] bytes, int length);
    }

    /** A document as a Vert.x buffer of its own. */
    public static final Payload<Buffer> BUFFER = (bytes, length) -> Buffer.buffer(length).appendBytes(bytes, 0, length);

    /** As {@link #result(String, int, ApiError, OrderState, List)}, handed to {@code into} rather than copied. */
    public <T> T result(final String id, final int status, final ApiError error, final OrderState order,
                        final List<OrderState> canceled, final Payload<T> into) {
        final OrderJson renderer = orderJson.get();
        final JsonBytes out = renderer.start();
        if (id != null) {
            out.ascii("{\"op\":\"result\",\"id\":").ascii(id).ascii(",\"status\":").number(status);
        } else {
            out.ascii("{\"status\":").number(status);
        }
        if (error != null) {
            errorMember(out.raw((byte) ','), error);
        }
        if (order != null) {
            out.ascii(",\"order\":");
            renderer.write(out, order);
        }
        if (canceled != null) {
            out.ascii(",\"canceled\":[");
            for (int i = 0; i < canceled.size(); i++) {
                if (i > 0) {
                    out.raw((byte) ',');
                }
                renderer.write(out, canceled.get(i));
            }
            out.raw((byte) ']');
        }
        return out.raw((byte) '}').into(into);
    }

    /**
     * @return the answer to a stream login: {@code {"op":"result","id":...,"status":200,"accountId":...,"keyId":...,
     *     "cancelOnDisconnect":...}} (account and key null with authentication off)
     * @param id the JSON text of the request's id, as {@link #result} takes it
     */
    public <T> T loggedIn(final String id, final String accountId, final String keyId,
                          final boolean cancelOnDisconnect, final Payload<T> into) {
        final JsonBytes out = orderJson.get().start();
        out.ascii("{\"op\":\"result\",\"id\":").ascii(id).ascii(",\"status\":200,\"accountId\":")
                .string(accountId).ascii(",\"keyId\":").string(keyId).ascii(",\"cancelOnDisconnect\":")
                .ascii(cancelOnDisconnect ? "true" : "false");
        return out.raw((byte) '}').into(into);
    }

    /** @return a batch's answer: {@code {"results":[...]}} with each result as {@link #result} rendered it */
    public static Buffer results(final Buffer[] results) {
        final Buffer out = Buffer.buffer(64 + results.length * 512).appendString("{\"results\":[");
        for (int i = 0; i < results.length; i++) {
            if (i > 0) {
                out.appendByte((byte) ',');
            }
            out.appendBuffer(results[i]);
        }
        return out.appendString("]}");
    }

    /** Writes the {@code "error":{"code","message","field"?}} member of the one documented error shape. */
    private static void errorMember(final JsonBytes out, final ApiError error) {
        out.ascii("\"error\":{\"code\":").string(error.code()).ascii(",\"message\":").string(error.message());
        if (error.field() != null) {
            out.ascii(",\"field\":").string(error.field());
        }
        out.raw((byte) '}');
    }

    /** Writes the {@code "error":{"code","message","field"?}} member of the one documented error shape. */
    static void writeError(final JsonGenerator g, final ApiError error) throws IOException {
        g.writeObjectFieldStart("error");
        g.writeStringField("code", error.code());
        g.writeStringField("message", error.message());
        if (error.field() != null) {
            g.writeStringField("field", error.field());
        }
        g.writeEndObject();
    }

    /** @return one order */
    public Buffer order(final OrderState order) {
        return rendered(order).toBuffer();
    }

    /**
     * @return one order in a pooled direct buffer from {@code allocator}, which the caller owns: answered through
     *         {@link DirectBody}, which releases it
     */
    public ByteBuf order(final OrderState order, final ByteBufAllocator allocator) {
        return rendered(order).toDirect(allocator);
    }

    /** @return the order written into this thread's reused bytes, valid until the next rendering on this thread */
    private JsonBytes rendered(final OrderState order) {
        final OrderJson renderer = orderJson.get();
        final JsonBytes out = renderer.start();
        renderer.write(out, order);
        return out;
    }

    /** @return a page of an order's fills, oldest first */
    public Buffer fills(final OrderState order, final int offset, final int limit) {
        final OrderJson renderer = orderJson.get();
        final JsonBytes out = renderer.start();
        renderer.writeFillsPage(out, order, offset, limit);
        return out.toBuffer();
    }

    /** @return a cancel-all's answer: {@code {"canceled":[orders]}} */
    public Buffer canceled(final List<OrderState> orders) {
        final OrderJson renderer = orderJson.get();
        final JsonBytes out = renderer.start().ascii("{\"canceled\":[");
        for (int i = 0; i < orders.size(); i++) {
            if (i > 0) {
                out.raw((byte) ',');
            }
            renderer.write(out, orders.get(i));
        }
        return out.ascii("]}").toBuffer();
    }

    /** @return an array of orders */
    public Buffer orders(final List<OrderState> orders) {
        final OrderJson renderer = orderJson.get();
        final JsonBytes out = renderer.start().raw((byte) '[');
        for (int i = 0; i < orders.size(); i++) {
            if (i > 0) {
                out.raw((byte) ',');
            }
            renderer.write(out, orders.get(i));
        }
        return out.raw((byte) ']').toBuffer();
    }

    /** @return the configured instruments */
    public Buffer symbols() {
        return write(g -> {
            g.writeStartArray();
            for (final Instrument instrument : instruments) {
                g.writeStartObject();
                g.writeStringField("symbol", instrument.symbol());
                g.writeStringField("tickSize", instrument.tickSize().toPlainString());
                g.writeStringField("lotSize", instrument.lotSize().toPlainString());
                g.writeNumberField("priceScale", instrument.priceScale());
                g.writeNumberField("quantityScale", instrument.quantityScale());
                g.writeStringField("minQuantity", instrument.quantity(1).toPlainString());
                g.writeStringField("maxQuantity", instrument.quantity(instrument.maxQuantity()).toPlainString());
                g.writeStringField("maxPrice", instrument.price(instrument.maxPrice()).toPlainString());
                g.writeStringField("priceBandPercent",
                        io.orderentry.instrument.TradingRules.percent(priceBands[instrument.index()]));
                if (assets != null && assets.baseAsset(instrument.index()) != null) {
                    g.writeStringField("baseAsset", assets.baseAsset(instrument.index()));
                    g.writeStringField("quoteAsset", assets.quoteAsset(instrument.index()));
                    if (assets.balances()) {
                        g.writeStringField("makerFeeRate", Assets.rate(assets.makerFees()[instrument.index()]));
                        g.writeStringField("takerFeeRate", Assets.rate(assets.takerFees()[instrument.index()]));
                    }
                }
                g.writeEndObject();
            }
            g.writeEndArray();
        });
    }

    /** Writes any JSON through the shared factory. */
    public Buffer write(final Body body) {
        final ByteArrayOutputStream out = new ByteArrayOutputStream(512);
        try (JsonGenerator g = factory.createGenerator(out)) {
            body.writeTo(g);
        } catch (final IOException e) {
            throw new UncheckedIOException("rendering JSON into memory failed", e);
        }
        return Buffer.buffer(out.toByteArray());
    }

    /** Writes one JSON document. */
    @FunctionalInterface
    public interface Body {
        void writeTo(JsonGenerator generator) throws IOException;
    }
}
