package io.orderentry.http.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.orderentry.http.ApiException;
import io.orderentry.http.json.Json;
import io.orderentry.instrument.Instrument;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The fast path must never disagree with the full parser: whatever it accepts, the full parser accepts as the
 * same order; whatever it does not take falls through to the full parser, which answers the error.
 */
class FastOrderParserTest {

    private static final List<Instrument> INSTRUMENTS = List.of(
            new Instrument(0, "BTCUSD", new BigDecimal("0.01"), new BigDecimal("0.0001"), 100_000_000_000L,
                    10_000_000L),
            new Instrument(1, "ETHUSD", new BigDecimal("0.25"), new BigDecimal("0.001"), 40_000_000L, 10_000_000L),
            new Instrument(2, "IDX100", new BigDecimal("100"), new BigDecimal("5"), 1_000_000L, 1_000_000L),
            new Instrument(3, "TINY", new BigDecimal("0.000000000000000001"), new BigDecimal("1"),
                    1_000_000_000_000L, 1_000L));

    private final Json json = new Json(INSTRUMENTS);
    private final Map<String, Instrument> bySymbol = bySymbol();
    private final OrderRequestParser full = new OrderRequestParser(json.mapper(), bySymbol);
    private final FastOrderParser fast = new FastOrderParser(INSTRUMENTS);

    private static Map<String, Instrument> bySymbol() {
        final Map<String, Instrument> map = new LinkedHashMap<>();
        INSTRUMENTS.forEach(i -> map.put(i.symbol(), i));
        return map;
    }

    @Test
    void shouldReadTheCommonBodyWithoutTheFullParser() {
        final PlaceOrder order = fast.parse(bytes("{\"accountId\":\"acct-1\",\"clientOrderId\":\"c-42\","
                + "\"symbol\":\"BTCUSD\",\"side\":\"BUY\",\"type\":\"LIMIT\",\"price\":\"50000.25\","
                + "\"quantity\":\"0.5\"}"));
        assertNotNull(order);
        assertEquals(5_000_025L, order.price());
        assertEquals(5_000L, order.quantity());
        assertEquals("acct-1", order.accountId());
        assertEquals("c-42", order.clientOrderId());
    }

    @Test
    void shouldGiveTheOrdersOfOneAccountTheSameAccountString() {
        final String body = "{\"accountId\":\"acct-7\",\"symbol\":\"BTCUSD\",\"side\":\"BUY\",\"type\":\"LIMIT\","
                + "\"price\":\"1\",\"quantity\":\"1\"}";
        final PlaceOrder first = fast.parse(bytes(body));
        final PlaceOrder second = fast.parse(bytes(body));
        assertEquals("acct-7", first.accountId());
        org.junit.jupiter.api.Assertions.assertSame(first.accountId(), second.accountId());
        final PlaceOrder other = fast.parse(bytes(body.replace("acct-7", "acct-8")));
        assertEquals("acct-8", other.accountId());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "{\"accountId\":\"a\",\"symbol\":\"BTCUSD\",\"side\":\"BUY\",\"type\":\"LIMIT\",\"price\":1,\"quantity\":\"1\"}",
        "{\"accountId\":\"a\",\"symbol\":\"BTCUSD\",\"side\":\"BUY\",\"type\":\"LIMIT\",\"price\":\"1\",\"quantity\":\"1\","
                + "\"clientOrderId\":null}",
        "{\"accountId\":\"a\\u0062\",\"symbol\":\"BTCUSD\",\"side\":\"BUY\",\"type\":\"LIMIT\",\"price\":\"1\","
                + "\"quantity\":\"1\"}",
        "{\"accountId\":\"a\",\"accountId\":\"b\",\"symbol\":\"BTCUSD\",\"side\":\"BUY\",\"type\":\"LIMIT\","
                + "\"price\":\"1\",\"quantity\":\"1\"}",
        "{\"accountId\":\"a\",\"symbol\":\"BTCUSD\",\"side\":\"BUY\",\"type\":\"LIMIT\",\"price\":\"1\",\"quantity\":\"1\"}x",
        "{\"accountId\":\"a\",\"symbol\":\"BTCUSD\",\"side\":\"BUY\",\"type\":\"LIMIT\",\"price\":\"0.001\","
                + "\"quantity\":\"1\"}",
        "{\"accountId\":\"a\",\"symbol\":\"BTCUSD\",\"side\":\"BUY\",\"type\":\"LIMIT\",\"price\":\"1234567890123456789\","
                + "\"quantity\":\"1\"}",
        "{\"accountId\":\"a\",\"symbol\":\"BTCUSD\",\"side\":\"BUY\",\"type\":\"MARKET\",\"price\":\"1\",\"quantity\":\"1\"}",
        "{\"accountId\":\"a\",\"symbol\":\"BTCUSD\",\"side\":\"BUY\",\"type\":\"LIMIT\",\"quantity\":\"1\"}",
        "{\"accountId\":\"a\",\"symbol\":\"BTCUSD\",\"side\":\"BUY\",\"type\":\"LIMIT\",\"price\":\"0\",\"quantity\":\"1\"}",
        "{\"accountId\":\"a\",\"symbol\":\"XXXUSD\",\"side\":\"BUY\",\"type\":\"LIMIT\",\"price\":\"1\",\"quantity\":\"1\"}",
        "{\"accountId\":\"a\",\"symbol\":\"BTCUSD\",\"side\":\"BUY\",\"type\":\"LIMIT\",\"price\":\"1\",\"quantity\":\"1\","
                + "\"extra\":\"1\"}",
    })
    void shouldLeaveEveryUnusualOrInvalidBodyToTheFullParser(final String body) {
        assertNull(fast.parse(bytes(body)), body);
    }

    @Test
    void shouldAgreeWithTheFullParserOnGeneratedBodies() {
        final SplittableRandom random = new SplittableRandom(20261124L);
        int fastAccepted = 0;
        int valid = 0;
        for (int i = 0; i < 200_000; i++) {
            final String body = i % 4 == 0 ? mutate(generate(random), random) : generate(random);
            final byte[] bytes = bytes(body);
            final PlaceOrder expected = fullOrNull(bytes);
            final PlaceOrder actual = fast.parse(bytes);
            if (expected != null) {
                valid++;
            }
            if (actual != null) {
                fastAccepted++;
                if (!actual.equals(expected)) {
                    fail("fast path read " + actual + " but the full parser " + (expected == null ? "refuses"
                            : "reads " + expected) + ": " + body);
                }
            }
        }
        assertTrue(valid > 10_000, "the generator must produce enough valid orders, produced " + valid);
        assertTrue(fastAccepted > valid / 2, "the fast path must take the common case: " + fastAccepted + " of "
                + valid + " valid bodies");
    }

    @Test
    void shouldAgreeWithTheFullParserWhenTheAccountComesFromTheKeyAndMayBeLeftOut() {
        final SplittableRandom random = new SplittableRandom(20261125L);
        int withoutAccount = 0;
        for (int i = 0; i < 50_000; i++) {
            final boolean account = random.nextBoolean();
            final String generated = generate(random, account);
            final String body = i % 4 == 0 ? mutate(generated, random) : generated;
            final byte[] bytes = bytes(body);
            PlaceOrder expected;
            try {
                expected = full.parseFully(bytes, false);
            } catch (final ApiException refused) {
                expected = null;
            }
            final PlaceOrder actual = fast.parse(bytes, false);
            if (expected != null && expected.accountId() == null) {
                withoutAccount++;
            }
            if (actual != null && !actual.equals(expected)) {
                fail("fast path read " + actual + " but the full parser " + (expected == null ? "refuses"
                        : "reads " + expected) + ": " + body);
            }
            if (!account && expected != null) {
                assertNull(fullOrNull(bytes), "a body without accountId is refused when the account is required: "
                        + body);
            }
        }
        assertTrue(withoutAccount > 2_000, "enough valid bodies without accountId: " + withoutAccount);
    }

    private PlaceOrder fullOrNull(final byte[] body) {
        try {
            return full.parseFully(body);
        } catch (final ApiException refused) {
            return null;
        }
    }

    private static final String[] SYMBOLS = {"BTCUSD", "ETHUSD", "IDX100", "TINY", "BTCUSX", "btcusd", ""};
    private static final String[] SIDES = {"BUY", "SELL", "buy", "HOLD"};
    private static final String[] TYPES = {"LIMIT", "MARKET", "STOP"};
    private static final String[] TIFS = {"GTC", "IOC", "FOK", "DAY"};
    private static final String[] IDS = {"a", "acct-1", "ACCT_2", "c.1:x", "a b", "", "x".repeat(64), "x".repeat(65),
        "\\u0041", "é"};
    private static final String[] WHITESPACE = {"", "", "", " ", "\n", "\t", "\r\n  "};

    private static String generate(final SplittableRandom random) {
        return generate(random, true);
    }

    private static String generate(final SplittableRandom random, final boolean withAccount) {
        final List<String> fields = new ArrayList<>();
        if (withAccount) {
            fields.add(field("accountId", quoted(pick(IDS, random, 0.8)), random));
        }
        if (random.nextInt(3) == 0) {
            fields.add(field("clientOrderId", random.nextInt(10) == 0 ? "null" : quoted(pick(IDS, random, 0.8)),
                    random));
        }
        fields.add(field("symbol", quoted(pick(SYMBOLS, random, 0.9)), random));
        fields.add(field("side", quoted(pick(SIDES, random, 0.9)), random));
        final boolean market = random.nextInt(6) == 0;
        fields.add(field("type", quoted(market ? "MARKET" : pick(TYPES, random, 0.95)), random));
        if (random.nextInt(3) == 0) {
            fields.add(field("timeInForce", quoted(pick(TIFS, random, 0.7)), random));
        }
        if (random.nextInt(4) == 0) {
            fields.add(field("postOnly", random.nextInt(8) == 0 ? "\"true\"" : random.nextBoolean() ? "true"
                    : "false", random));
        }
        if (!market || random.nextInt(5) == 0) {
            fields.add(field("price", decimal(random), random));
        }
        fields.add(field("quantity", decimal(random), random));
        if (random.nextInt(20) == 0) {
            fields.add(field(random.nextBoolean() ? "note" : "price", quoted("1"), random));
        }
        if (random.nextInt(4) == 0) {
            Collections.shuffle(fields, new java.util.Random(random.nextLong()));
        }
        return ws(random) + "{" + String.join(",", fields) + ws(random) + "}" + ws(random);
    }

    private static String field(final String name, final String value, final SplittableRandom random) {
        return ws(random) + quoted(name) + ws(random) + ":" + ws(random) + value;
    }

    private static String decimal(final SplittableRandom random) {
        final int kind = random.nextInt(20);
        if (kind == 0) {
            return Long.toString(random.nextLong(1, 100_000));
        }
        if (kind == 1) {
            return "\"-" + random.nextInt(1, 100) + "\"";
        }
        if (kind < 10) {
            // a multiple of every instrument's tick and lot, the way most real orders are
            final String whole = Long.toString(100L * random.nextLong(1, 30));
            return quoted(kind < 7 ? whole : whole + "." + "0".repeat(random.nextInt(1, 4)));
        }
        final StringBuilder text = new StringBuilder();
        if (random.nextInt(15) == 0) {
            text.append("00");
        }
        final int integerDigits = random.nextInt(15) == 0 ? random.nextInt(15, 45) : random.nextInt(0, 7);
        for (int i = 0; i < integerDigits; i++) {
            text.append((char) ('0' + random.nextInt(10)));
        }
        if (integerDigits == 0 && random.nextInt(10) != 0) {
            text.append('0');
        }
        if (random.nextInt(3) != 0) {
            text.append('.');
            final int fraction = random.nextInt(15) == 0 ? random.nextInt(10, 45) : random.nextInt(0, 5);
            for (int i = 0; i < fraction; i++) {
                text.append((char) ('0' + (i == fraction - 1 && random.nextInt(4) == 0 ? 0 : random.nextInt(10))));
            }
        }
        if (random.nextInt(40) == 0) {
            text.append(random.nextBoolean() ? "e2" : " ");
        }
        return quoted(text.toString());
    }

    private static final String INSERTED = "{}[]\",:.0 \\-ae\u0000\u00ff";

    private static String mutate(final String body, final SplittableRandom random) {
        final StringBuilder text = new StringBuilder(body);
        final int edits = random.nextInt(1, 4);
        for (int i = 0; i < edits && text.length() > 0; i++) {
            final int at = random.nextInt(text.length());
            switch (random.nextInt(3)) {
                case 0 -> text.deleteCharAt(at);
                case 1 -> text.insert(at, INSERTED.charAt(random.nextInt(INSERTED.length())));
                default -> text.setCharAt(at, (char) (text.charAt(at) ^ (1 << random.nextInt(7))));
            }
        }
        return text.toString();
    }

    private static String pick(final String[] values, final SplittableRandom random, final double firstTwo) {
        return random.nextDouble() < firstTwo ? values[random.nextInt(Math.min(2, values.length))]
                : values[random.nextInt(values.length)];
    }

    private static String quoted(final String text) {
        return "\"" + text + "\"";
    }

    private static String ws(final SplittableRandom random) {
        return WHITESPACE[random.nextInt(WHITESPACE.length)];
    }

    private static byte[] bytes(final String body) {
        return body.getBytes(StandardCharsets.UTF_8);
    }
}
