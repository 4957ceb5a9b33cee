package io.orderentry.http.json;

import io.orderentry.instrument.DecimalFormats;
import io.orderentry.instrument.DecimalText;
import io.orderentry.engine.RejectReason;
import io.orderentry.instrument.Instrument;
import io.orderentry.query.Fill;
import io.orderentry.query.OrderState;
import java.util.Arrays;
import java.util.List;

/**
 * Renders orders, the most frequent answer, straight into bytes: the same JSON, byte for byte, as rendering
 * through Jackson with {@code BigDecimal} amounts and a {@code DateTimeFormatter} (the differential test pins
 * that), without those intermediate objects. Prices and quantities go from ticks and lots to digits through
 * {@link DecimalText}, as in the market-data answers.
 *
 * <p>Not thread-safe: one instance per event loop, reusing its buffer for every answer.
 */
public final class OrderJson {

    private final DecimalFormats formats;
    private final List<Instrument> instruments;
    private final JsonBytes out = new JsonBytes(1024);
    private final char[] digits = new char[DecimalText.MAX_CHARS];
    private Fill[] fills = new Fill[16];

    /** @param instruments indexed by {@link Instrument#index()} */
    OrderJson(final List<Instrument> instruments) {
        this.instruments = List.copyOf(instruments);
        this.formats = new DecimalFormats(instruments);
    }

    /** @return the reusable buffer, emptied, for a document that embeds orders */
    JsonBytes start() {
        return out.reset();
    }

    /** Writes one order object into {@code into}. */
    void write(final JsonBytes into, final OrderState o) {
        into.raw((byte) '{');
        writeFields(into, o, "sequence");
        into.raw((byte) '}');
    }

    /**
     * Writes the order's members, from {@code "orderId"} to {@code "fills"}, without the braces, so that a message can
     * be the order object with members of its own (the private stream's updates).
     *
     * @param sequenceName the name of the member holding the engine event sequence of the order's last change:
     *                     {@code sequence} in the REST answers
     */
    void writeFields(final JsonBytes into, final OrderState o, final String sequenceName) {
        final Instrument instrument = instruments.get(o.symbol());
        final DecimalText price = formats.price(o.symbol());
        final DecimalText quantity = formats.quantity(o.symbol());
        into.ascii("\"orderId\":").number(o.orderId())
                .ascii(",\"clientOrderId\":").string(o.clientOrderId())
                .ascii(",\"accountId\":").string(o.accountId())
                .ascii(",\"symbol\":").string(instrument.symbol())
                .ascii(",\"side\":\"").ascii(o.side().name())
                .ascii("\",\"type\":\"").ascii(o.type().name())
                .ascii("\",\"timeInForce\":\"").ascii(o.timeInForce().name())
                .ascii("\",\"postOnly\":").ascii(o.postOnly() ? "true" : "false")
                .ascii(",\"selfTradePrevention\":\"").ascii(o.selfTradePrevention().name())
                .ascii("\",\"price\":");
        if (o.price() == 0) {
            into.ascii("null");
        } else {
            amount(into, price, o.price());
        }
        into.ascii(",\"quantity\":");
        amount(into, quantity, o.quantity());
        into.ascii(",\"status\":\"").ascii(o.status().name()).ascii("\",\"filledQuantity\":");
        amount(into, quantity, o.filledQuantity());
        into.ascii(",\"remainingQuantity\":");
        amount(into, quantity, o.remainingQuantity());
        into.ascii(",\"averagePrice\":");
        if (o.filledQuantity() == 0) {
            into.ascii("null");
        } else {
            into.quoted(digits, price.formatAverage(o.filledNotional(), o.filledQuantity(), digits));
        }
        into.ascii(",\"rejectReason\":");
        if (o.rejectReason() == RejectReason.NONE) {
            into.ascii("null");
        } else {
            into.raw((byte) '"').ascii(o.rejectReason().name()).raw((byte) '"');
        }
        into.ascii(",\"").ascii(sequenceName).ascii("\":").number(o.sequence())
                .ascii(",\"createdAt\":").timestamp(o.createdAtMicros())
                .ascii(",\"updatedAt\":").timestamp(o.updatedAtMicros())
                .ascii(",\"fills\":");
        final int count = writeFills(into, o, 0, MAX_FILLS_PER_ANSWER);
        if (count > MAX_FILLS_PER_ANSWER) {
            into.ascii(",\"fillsTruncated\":true,\"fillCount\":").number(count);
        }
    }

    /** The most fills an answer carries; the rest are read a page at a time ({@link #writeFillsPage}). */
    public static final int MAX_FILLS_PER_ANSWER = 1000;

    /** Writes {@code {"orderId":..,"fillCount":..,"offset":..,"fills":[..]}}: a page of an order's fills, oldest first. */
    void writeFillsPage(final JsonBytes into, final OrderState o, final int offset, final int limit) {
        into.ascii("{\"orderId\":").number(o.orderId()).ascii(",\"fillCount\":").number(o.fillCount())
                .ascii(",\"offset\":").number(offset).ascii(",\"fills\":");
        writeFills(into, o, offset, limit);
        into.raw((byte) '}');
    }

    /**
     * Writes the array of the order's fills {@code offset .. offset + limit - 1}, oldest first.
     *
     * @return how many fills the order has
     */
    private int writeFills(final JsonBytes into, final OrderState o, final int offset, final int limit) {
        final DecimalText price = formats.price(o.symbol());
        final DecimalText quantity = formats.quantity(o.symbol());
        int count = 0;
        for (Fill fill = o.lastFill(); fill != null; fill = fill.previous()) {
            if (count == fills.length) {
                fills = Arrays.copyOf(fills, count * 2);
            }
            fills[count++] = fill;
        }
        into.raw((byte) '[');
        final int first = count - 1 - offset;
        final int last = Math.max(-1, first - limit);
        for (int i = first; i > last; i--) {
            if (i != first) {
                into.raw((byte) ',');
            }
            writeFill(into, price, quantity, fills[i]);
        }
        Arrays.fill(fills, 0, count, null);
        into.raw((byte) ']');
        return count;
    }

    /** Writes one fill of an order of instrument {@code symbol}, as an element of an order's {@code "fills"}. */
    void writeFill(final JsonBytes into, final int symbol, final Fill fill) {
        writeFill(into, formats.price(symbol), formats.quantity(symbol), fill);
    }

    private void writeFill(final JsonBytes into, final DecimalText price, final DecimalText quantity, final Fill fill) {
        into.ascii("{\"tradeId\":").number(fill.tradeId()).ascii(",\"price\":");
        amount(into, price, fill.price());
        into.ascii(",\"quantity\":");
        amount(into, quantity, fill.quantity());
        into.ascii(fill.taker() ? ",\"liquidity\":\"TAKER\",\"timestamp\":" : ",\"liquidity\":\"MAKER\",\"timestamp\":")
                .timestamp(fill.timestampMicros()).raw((byte) '}');
    }

    private void amount(final JsonBytes into, final DecimalText text, final long units) {
        into.quoted(digits, text.format(units, digits));
    }
}
