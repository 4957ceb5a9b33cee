package io.orderentry.http.json;

import io.orderentry.testing.StreamClient;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.orderentry.account.OrderEvent;
import io.orderentry.account.OrderUpdate;
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
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The orders channel's messages: one WebSocket text frame each, with the order exactly as a REST answer renders it,
 * the account's sequence beside it, and the fill of a FILL.
 */
class OrderFeedJsonTest {

    private static final List<Instrument> INSTRUMENTS = List.of(new Instrument(0, "BTCUSD", new BigDecimal("0.01"),
            new BigDecimal("0.0001"), 1_000_000_000L, 1_000_000_000L));
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final long MICROS = 1_795_342_530_123_456L;

    private final OrderFeedJson json = new OrderFeedJson(INSTRUMENTS);
    private final Json rest = new Json(INSTRUMENTS);

    @Test
    void rendersAFillUpdateWithTheRestOrderItsSequenceAndTheFill() throws IOException {
        final Fill fill = new Fill(311, 4_999_900, 1_000, false, MICROS, null);
        final OrderState order = new OrderState(1017, "c-42", "acct-1", 0, Side.SELL, OrderType.LIMIT,
                TimeInForce.GTC, false, SelfTradePrevention.NONE, 4_999_900, 5_000, OrderStatus.PARTIALLY_FILLED,
                1_000, 4_000, 4_999_900L * 1_000, RejectReason.NONE, 88_231, MICROS, MICROS, fill);

        final JsonNode message = parse(json.render("acct-1", new OrderUpdate(8, OrderEvent.FILL, order)));

        assertEquals("LIMIT", message.get("type").asText(), "the order's own type: an update is the order object");
        assertEquals("orders", message.get("channel").asText());
        assertEquals("acct-1", message.get("accountId").asText());
        assertEquals(8, message.get("sequence").asLong(), "the account's sequence, not the order's");
        assertEquals("FILL", message.get("event").asText());
        assertEquals(MAPPER.readTree(rest.order(order).getBytes()), StreamClient.orderOf(message), "the REST order object");
        assertEquals(88_231, message.get("engineSequence").asLong(), "the order's engine sequence, renamed");
        assertEquals(1017, message.get("orderId").asLong(), "the order's members are the message's own");
        assertEquals(MAPPER.readTree("{\"tradeId\":311,\"price\":\"49999.00\",\"quantity\":\"0.1000\","
                + "\"liquidity\":\"MAKER\",\"timestamp\":\"2026-11-22T10:15:30.123456Z\"}"), message.get("fill"));
    }

    @Test
    void rendersOtherUpdatesWithoutAFill() throws IOException {
        final OrderState order = new OrderState(7, null, "acct-1", 0, Side.BUY, OrderType.LIMIT, TimeInForce.GTC,
                false, SelfTradePrevention.NONE, 100, 10, OrderStatus.CANCELED, 0, 0, 0, RejectReason.NONE, 12, MICROS,
                MICROS, null);
        final JsonNode message = parse(json.render("acct-1", new OrderUpdate(1, OrderEvent.CANCELED, order)));
        assertEquals("CANCELED", message.get("event").asText());
        assertFalse(message.has("fill"));
        assertEquals(MAPPER.readTree(rest.order(order).getBytes()), StreamClient.orderOf(message));
    }

    @Test
    void rendersASnapshotOfTheOpenOrdersOldestFirst() throws IOException {
        final OrderState first = new OrderState(3, null, "acct-1", 0, Side.BUY, OrderType.LIMIT, TimeInForce.GTC,
                false, SelfTradePrevention.EXPIRE_TAKER, 100, 10, OrderStatus.NEW, 0, 10, 0, RejectReason.NONE, 5,
                MICROS, MICROS, null);
        final OrderState second = new OrderState(9, "c", "acct-1", 0, Side.SELL, OrderType.LIMIT, TimeInForce.GTC,
                true, SelfTradePrevention.NONE, 200, 10, OrderStatus.NEW, 0, 10, 0, RejectReason.NONE, 9, MICROS,
                MICROS, null);

        final JsonNode message = parse(json.snapshot("acct-1", 41, List.of(first, second)));

        assertEquals("snapshot", message.get("type").asText());
        assertEquals(41, message.get("sequence").asLong());
        assertEquals(MAPPER.readTree(rest.orders(List.of(first, second)).getBytes()), message.get("orders"));
        assertEquals("EXPIRE_TAKER", message.get("orders").get(0).get("selfTradePrevention").asText());
        assertEquals("[]", parse(json.snapshot("acct-2", 0, List.of())).get("orders").toString());
    }

    @Test
    void rendersAnAmendedUpdateWithTheOrdersNewTermsAndTheContractNamesEveryEvent() throws IOException {
        final OrderState order = new OrderState(7, null, "acct-1", 0, Side.BUY, OrderType.LIMIT, TimeInForce.GTC,
                false, SelfTradePrevention.EXPIRE_MAKER, 10_100, 30, OrderStatus.NEW, 0, 30, 0, RejectReason.NONE, 12,
                MICROS, MICROS + 5_000_000, null);
        final JsonNode message = parse(json.render("acct-1", new OrderUpdate(3, OrderEvent.AMENDED, order)));
        assertEquals("AMENDED", message.get("event").asText());
        assertEquals("101.00", message.get("price").asText());
        assertEquals("0.0030", message.get("quantity").asText());
        assertEquals("2026-11-22T10:15:35.123456Z", message.get("updatedAt").asText());
        assertFalse(message.has("fill"));

        final JsonNode schema;
        try (java.io.InputStream yaml = OrderFeedJsonTest.class.getResourceAsStream("/openapi.yaml")) {
            schema = new ObjectMapper(new com.fasterxml.jackson.dataformat.yaml.YAMLFactory()).readTree(yaml)
                    .get("components").get("schemas").get("StreamOrdersUpdate");
        }
        final List<String> events = new java.util.ArrayList<>();
        schema.get("properties").get("event").get("enum").forEach(event -> events.add(event.asText()));
        assertEquals(Arrays.stream(OrderEvent.values()).map(Enum::name).toList(), events);
    }

    /** @return the JSON of one unmasked, unfragmented text frame with a payload under 64 KiB */
    private static JsonNode parse(final byte[] frame) throws IOException {
        assertEquals((byte) 0x81, frame[0], "FIN + text");
        final int length = frame[1] & 0x7f;
        final int start = length == 126 ? 4 : 2;
        final byte[] payload = Arrays.copyOfRange(frame, start, frame.length);
        if (length < 126) {
            assertEquals(length, payload.length);
        }
        return MAPPER.readTree(new String(payload, StandardCharsets.UTF_8));
    }
}
