package io.orderentry.http;

import io.orderentry.app.Instrument;
import io.orderentry.engine.RejectReason;
import io.orderentry.query.Fill;
import io.orderentry.query.OrderState;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Arrays;
import java.util.List;

/**
 * Renders orders, the most frequent answer, straight into bytes: the same JSON, byte for byte, as rendering
 * through Jackson with {@code BigDecimal} amounts and a {@code DateTimeFormatter} (the differential test pins
 * that), without those intermediate objects. Prices and quantities go from ticks and lots to fixed-point digits
 * with long arithmetic; only amounts beyond a long fall back to {@code BigDecimal}.
 *
 * <p>Not thread-safe: one instance per event loop, reusing its buffer for every answer.
 */
final class OrderJson {

    private final Scale[] prices;
    private final Scale[] quantities;
    private final List<Instrument> instruments;
    private final JsonBytes out = new JsonBytes(1024);
    private Fill[] fills = new Fill[16];

    /** @param instruments indexed by {@link Instrument#index()} */
    OrderJson(final List<Instrument> instruments) {
        this.instruments = List.copyOf(instruments);
        this.prices = new Scale[instruments.size()];
        this.quantities = new Scale[instruments.size()];
        for (final Instrument instrument : instruments) {
            prices[instrument.index()] = Scale.of(instrument.tickSize(), instrument.priceScale());
            quantities[instrument.index()] = Scale.of(instrument.lotSize(), instrument.quantityScale());
        }
    }

    /** @return the reusable buffer, emptied, for a document that embeds orders */
    JsonBytes start() {
        return out.reset();
    }

    /** Writes one order object into {@code into}. */
    void write(final JsonBytes into, final OrderState o) {
        final Instrument instrument = instruments.get(o.symbol());
        final Scale price = prices[o.symbol()];
        final Scale quantity = quantities[o.symbol()];
        into.ascii("{\"orderId\":").number(o.orderId())
                .ascii(",\"clientOrderId\":").string(o.clientOrderId())
                .ascii(",\"accountId\":").string(o.accountId())
                .ascii(",\"symbol\":").string(instrument.symbol())
                .ascii(",\"side\":\"").ascii(o.side().name())
                .ascii("\",\"type\":\"").ascii(o.type().name())
                .ascii("\",\"timeInForce\":\"").ascii(o.timeInForce().name())
                .ascii("\",\"postOnly\":").ascii(o.postOnly() ? "true" : "false")
                .ascii(",\"price\":");
        if (o.price() == 0) {
            into.ascii("null");
        } else {
            price.write(into, o.price());
        }
        into.ascii(",\"quantity\":");
        quantity.write(into, o.quantity());
        into.ascii(",\"status\":\"").ascii(o.status().name()).ascii("\",\"filledQuantity\":");
        quantity.write(into, o.filledQuantity());
        into.ascii(",\"remainingQuantity\":");
        quantity.write(into, o.remainingQuantity());
        into.ascii(",\"averagePrice\":");
        if (o.filledQuantity() == 0) {
            into.ascii("null");
        } else {
            price.writeAverage(into, o.filledNotional(), o.filledQuantity());
        }
        into.ascii(",\"rejectReason\":");
        if (o.rejectReason() == RejectReason.NONE) {
            into.ascii("null");
        } else {
            into.raw((byte) '"').ascii(o.rejectReason().name()).raw((byte) '"');
        }
        into.ascii(",\"sequence\":").number(o.sequence())
                .ascii(",\"createdAt\":").timestamp(o.createdAtMicros())
                .ascii(",\"updatedAt\":").timestamp(o.updatedAtMicros())
                .ascii(",\"fills\":[");
        int count = 0;
        for (Fill fill = o.lastFill(); fill != null; fill = fill.previous()) {
            if (count == fills.length) {
                fills = Arrays.copyOf(fills, count * 2);
            }
            fills[count++] = fill;
        }
        for (int i = count - 1; i >= 0; i--) {
            final Fill fill = fills[i];
            fills[i] = null;
            into.ascii(i == count - 1 ? "{\"tradeId\":" : ",{\"tradeId\":").number(fill.tradeId())
                    .ascii(",\"price\":");
            price.write(into, fill.price());
            into.ascii(",\"quantity\":");
            quantity.write(into, fill.quantity());
            into.ascii(fill.taker() ? ",\"liquidity\":\"TAKER\",\"timestamp\":" : ",\"liquidity\":\"MAKER\",\"timestamp\":")
                    .timestamp(fill.timestampMicros()).raw((byte) '}');
        }
        into.ascii("]}");
    }

    /**
     * How a count of units (ticks or lots) becomes a decimal: {@code units x factor} digits at {@code scale}
     * decimals, where {@code factor} is the unit at that scale ({@code 0.0001} at scale 4 is 1, {@code 5} at scale
     * 0 is 5, {@code 0.5} at scale 1 is 5). {@code factor} is 0 when the unit does not fit a long: every amount
     * then goes through {@code BigDecimal}.
     */
    private record Scale(BigDecimal unit, int scale, long factor) {

        static Scale of(final BigDecimal unit, final int scale) {
            final BigDecimal atScale = unit.setScale(scale, RoundingMode.UNNECESSARY);
            long factor;
            try {
                factor = scale <= 18 ? atScale.unscaledValue().longValueExact() : 0;
            } catch (final ArithmeticException tooLarge) {
                factor = 0;
            }
            return new Scale(unit, scale, factor);
        }

        void write(final JsonBytes into, final long units) {
            if (factor != 0 && units >= 0) {
                final long high = Math.multiplyHigh(units, factor);
                final long low = units * factor;
                if (high == 0 && low >= 0) {
                    into.decimalString(low, scale);
                    return;
                }
            }
            into.string(unit.multiply(BigDecimal.valueOf(units)).setScale(scale).toPlainString());
        }

        /** Writes {@code notional / quantity} units, rounded half-even to the scale, as {@link Json} does. */
        void writeAverage(final JsonBytes into, final long notional, final long quantity) {
            if (factor != 0 && notional >= 0 && quantity > 0) {
                final long high = Math.multiplyHigh(notional, factor);
                final long numerator = notional * factor;
                if (high == 0 && numerator >= 0) {
                    long quotient = numerator / quantity;
                    final long remainder = numerator % quantity;
                    final long rest = quantity - remainder;
                    if (remainder > rest || remainder == rest && (quotient & 1) == 1) {
                        quotient++;
                    }
                    into.decimalString(quotient, scale);
                    return;
                }
            }
            into.string(BigDecimal.valueOf(notional).multiply(unit)
                    .divide(BigDecimal.valueOf(quantity), scale, RoundingMode.HALF_EVEN).toPlainString());
        }
    }
}
