package io.orderentry.http.json;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.orderentry.engine.OrderStatus;
import io.orderentry.engine.OrderType;
import io.orderentry.engine.RejectReason;
import io.orderentry.engine.SelfTradePrevention;
import io.orderentry.engine.Side;
import io.orderentry.engine.TimeInForce;
import io.orderentry.instrument.Instrument;
import io.orderentry.query.Fill;
import io.orderentry.query.OrderState;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link OrderJson} against a reference: the order rendered through Jackson with {@code BigDecimal} amounts and
 * {@link Json#timestamp}, as the service rendered it before. Byte-for-byte equality over generated orders,
 * including amounts beyond a long, odd tick sizes, timestamps outside four-digit years and strings that need
 * escaping.
 */
class OrderJsonTest {

    private static final List<Instrument> INSTRUMENTS = List.of(
            new Instrument(0, "BTCUSD", new BigDecimal("0.01"), new BigDecimal("0.0001"), 1_000_000_000L,
                    1_000_000_000L),
            new Instrument(1, "HALF", new BigDecimal("0.5"), new BigDecimal("1"), 1_000_000_000L, 1_000_000_000L),
            new Instrument(2, "TENS", new BigDecimal("10"), new BigDecimal("0.001"), 1_000_000L, 1_000_000L),
            new Instrument(3, "FINE", new BigDecimal("0.000000000000000001"), new BigDecimal("0.00000001"),
                    1_000_000_000_000L, 1_000_000L),
            new Instrument(4, "HUGE", new BigDecimal("100000000000000000000"), new BigDecimal("5"), 1_000L, 1_000L));

    private final OrderJson renderer = new OrderJson(INSTRUMENTS);
    private final JsonFactory factory = new JsonFactory();

    @Test
    void rendersEveryGeneratedOrderExactlyAsTheJacksonReference() throws IOException {
        final SplittableRandom random = new SplittableRandom(20261123);
        for (int i = 0; i < 50_000; i++) {
            final OrderState order = order(random);
            final JsonBytes out = renderer.start();
            renderer.write(out, order);
            assertEquals(reference(order), out.toString(), "order " + i);
        }
    }

    @Test
    void rendersTheDocumentedExample() throws IOException {
        final Fill first = new Fill(311, 4_999_900, 1_000, true, 1_795_342_530_123_456L, null);
        final Fill second = new Fill(312, 5_000_000, 1_000, true, 1_795_342_530_123_456L, first);
        final OrderState order = new OrderState(1017, "c-42", "acct-1", 0, Side.BUY, OrderType.LIMIT,
                TimeInForce.GTC, false, SelfTradePrevention.NONE, 5_000_000, 5_000, OrderStatus.PARTIALLY_FILLED,
                2_000, 3_000,
                4_999_900L * 1_000 + 5_000_000L * 1_000, RejectReason.NONE, 88231, 1_795_342_530_123_456L,
                1_795_342_530_123_456L, second);
        final JsonBytes out = renderer.start();
        renderer.write(out, order);
        assertEquals("{\"orderId\":1017,\"clientOrderId\":\"c-42\",\"accountId\":\"acct-1\",\"symbol\":\"BTCUSD\","
                + "\"side\":\"BUY\",\"type\":\"LIMIT\",\"timeInForce\":\"GTC\",\"postOnly\":false,"
                + "\"selfTradePrevention\":\"NONE\",\"price\":\"50000.00\","
                + "\"quantity\":\"0.5000\",\"status\":\"PARTIALLY_FILLED\",\"filledQuantity\":\"0.2000\","
                + "\"remainingQuantity\":\"0.3000\",\"averagePrice\":\"49999.50\",\"rejectReason\":null,"
                + "\"sequence\":88231,\"createdAt\":\"2026-11-22T10:15:30.123456Z\","
                + "\"updatedAt\":\"2026-11-22T10:15:30.123456Z\",\"fills\":[{\"tradeId\":311,\"price\":\"49999.00\","
                + "\"quantity\":\"0.1000\",\"liquidity\":\"TAKER\",\"timestamp\":\"2026-11-22T10:15:30.123456Z\"},"
                + "{\"tradeId\":312,\"price\":\"50000.00\",\"quantity\":\"0.1000\",\"liquidity\":\"TAKER\","
                + "\"timestamp\":\"2026-11-22T10:15:30.123456Z\"}]}", out.toString());
    }

    @Test
    void theContractsOrderSchemaNamesEveryMemberRenderedInOrderAndEveryRejectReason() throws IOException {
        final JsonNode schema;
        try (InputStream yaml = OrderJsonTest.class.getResourceAsStream("/openapi.yaml")) {
            schema = new ObjectMapper(new YAMLFactory()).readTree(yaml).get("components").get("schemas").get("Order");
        }
        final List<String> documented = new ArrayList<>();
        schema.get("properties").fieldNames().forEachRemaining(documented::add);
        final OrderState order = order(new SplittableRandom(7));
        final JsonBytes out = renderer.start();
        renderer.write(out, order);
        final List<String> rendered = new ArrayList<>();
        new ObjectMapper().readTree(out.toString()).fieldNames().forEachRemaining(rendered::add);
        assertEquals(rendered, documented.subList(0, rendered.size()), "the members, in the order they are written");

        final List<String> reasons = new ArrayList<>();
        schema.get("properties").get("rejectReason").get("enum").forEach(reason -> reasons.add(reason.asText()));
        final List<String> engine = new ArrayList<>();
        for (final RejectReason reason : RejectReason.values()) {
            if (reason != RejectReason.NONE) {
                engine.add(reason.name());
            }
        }
        assertEquals(engine, reasons, "NONE is written as null");
        final List<String> modes = new ArrayList<>();
        schema.get("properties").get("selfTradePrevention").get("enum").forEach(mode -> modes.add(mode.asText()));
        assertEquals(java.util.Arrays.stream(SelfTradePrevention.values()).map(Enum::name).toList(), modes);
    }

    private static OrderState order(final SplittableRandom r) {
        final int symbol = r.nextInt(INSTRUMENTS.size());
        final long quantity = amount(r);
        final long filled = r.nextInt(4) == 0 ? 0 : Math.max(1, quantity / (1 + r.nextInt(5)));
        Fill last = null;
        long notional = 0;
        final int fills = filled == 0 ? 0 : 1 + r.nextInt(r.nextInt(10) == 0 ? 40 : 3);
        for (int f = 0; f < fills; f++) {
            final long price = amount(r);
            final long qty = Math.max(1, filled / fills);
            notional = r.nextInt(50) == 0 ? Long.MAX_VALUE / (1 + r.nextInt(3)) : notional + price % 1_000_000 * qty;
            last = new Fill(r.nextLong(1, Long.MAX_VALUE), price, qty, r.nextBoolean(), micros(r), last);
        }
        return new OrderState(r.nextLong(1, Long.MAX_VALUE), r.nextBoolean() ? null : text(r), text(r), symbol,
                Side.values()[r.nextInt(2)], OrderType.values()[r.nextInt(2)],
                TimeInForce.values()[r.nextInt(TimeInForce.values().length)], r.nextBoolean(),
                SelfTradePrevention.values()[r.nextInt(SelfTradePrevention.values().length)],
                r.nextInt(5) == 0 ? 0 : amount(r), quantity, OrderStatus.values()[r.nextInt(OrderStatus.values().length)],
                filled, Math.max(0, quantity - filled), Math.max(0, notional),
                RejectReason.values()[r.nextInt(RejectReason.values().length)], r.nextLong(0, Long.MAX_VALUE),
                micros(r), micros(r), last);
    }

    private static long amount(final SplittableRandom r) {
        return switch (r.nextInt(6)) {
            case 0 -> 1;
            case 1 -> r.nextLong(1, 100);
            case 2 -> r.nextLong(1, 1_000_000_000L);
            case 3 -> Long.MAX_VALUE - r.nextInt(1000);
            default -> r.nextLong(1, Long.MAX_VALUE);
        };
    }

    private static long micros(final SplittableRandom r) {
        return switch (r.nextInt(5)) {
            case 0 -> r.nextLong(-70_000_000_000_000_000L, 300_000_000_000_000_000L);
            case 1 -> 253_402_300_799_999_999L - r.nextInt(3);
            case 2 -> -62_135_596_800_000_000L + r.nextInt(3) - 1;
            default -> 1_700_000_000_000_000L + r.nextLong(0, 10_000_000_000_000_000L);
        };
    }

    private static String text(final SplittableRandom r) {
        final String[] samples = {"acct-1", "c-42", "a", "x".repeat(64), "quote\"back\\slash", "tab\tnew\nline\r",
            "ctl\u0001\u001f\u007f", "caf\u00e9 \u20ac \ud83d\ude00", "bell\b\f"};
        return samples[r.nextInt(samples.length)];
    }

    /** The rendering the service used before {@link OrderJson}: Jackson, BigDecimal and DateTimeFormatter. */
    private String reference(final OrderState o) throws IOException {
        final StringWriter text = new StringWriter();
        try (JsonGenerator g = factory.createGenerator(text)) {
            final Instrument instrument = INSTRUMENTS.get(o.symbol());
            g.writeStartObject();
            g.writeNumberField("orderId", o.orderId());
            g.writeStringField("clientOrderId", o.clientOrderId());
            g.writeStringField("accountId", o.accountId());
            g.writeStringField("symbol", instrument.symbol());
            g.writeStringField("side", o.side().name());
            g.writeStringField("type", o.type().name());
            g.writeStringField("timeInForce", o.timeInForce().name());
            g.writeBooleanField("postOnly", o.postOnly());
            g.writeStringField("selfTradePrevention", o.selfTradePrevention().name());
            if (o.price() == 0) {
                g.writeNullField("price");
            } else {
                g.writeStringField("price", instrument.price(o.price()).toPlainString());
            }
            g.writeStringField("quantity", instrument.quantity(o.quantity()).toPlainString());
            g.writeStringField("status", o.status().name());
            g.writeStringField("filledQuantity", instrument.quantity(o.filledQuantity()).toPlainString());
            g.writeStringField("remainingQuantity", instrument.quantity(o.remainingQuantity()).toPlainString());
            if (o.filledQuantity() == 0) {
                g.writeNullField("averagePrice");
            } else {
                g.writeStringField("averagePrice", BigDecimal.valueOf(o.filledNotional()).multiply(instrument.tickSize())
                        .divide(BigDecimal.valueOf(o.filledQuantity()), instrument.priceScale(), RoundingMode.HALF_EVEN)
                        .toPlainString());
            }
            if (o.rejectReason() == RejectReason.NONE) {
                g.writeNullField("rejectReason");
            } else {
                g.writeStringField("rejectReason", o.rejectReason().name());
            }
            g.writeNumberField("sequence", o.sequence());
            g.writeStringField("createdAt", Json.timestamp(o.createdAtMicros()));
            g.writeStringField("updatedAt", Json.timestamp(o.updatedAtMicros()));
            g.writeArrayFieldStart("fills");
            for (final Fill fill : o.fills()) {
                g.writeStartObject();
                g.writeNumberField("tradeId", fill.tradeId());
                g.writeStringField("price", instrument.price(fill.price()).toPlainString());
                g.writeStringField("quantity", instrument.quantity(fill.quantity()).toPlainString());
                g.writeStringField("liquidity", fill.taker() ? "TAKER" : "MAKER");
                g.writeStringField("timestamp", Json.timestamp(fill.timestampMicros()));
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        }
        return text.toString();
    }
}
