package io.orderentry.instrument;

import java.math.BigDecimal;

/**
 * A tradable instrument. Inside the engine, the journal and every stage after it a price is a count of the
 * instrument's {@code priceUnit} and a quantity a count of its {@code lotSize}. The tick size is a rule on what
 * an order may carry: a whole multiple of the tick, itself a whole multiple of the price unit. The unit is fixed
 * for the life of a journal (it decides what each record means); the tick may change between starts, so long as it
 * stays a multiple of the unit (README, "Changing a tick size"). By default the unit is the tick the journal was
 * started with.
 *
 * @param index       position in the configured list; the engine's symbol number
 * @param maxPrice    the highest price, in price units, an order may carry
 * @param maxQuantity the largest quantity in lots an order may carry
 * @param priceUnit   what one count of a price is worth; {@code tickSize} is a whole multiple of it
 */
public record Instrument(int index, String symbol, BigDecimal tickSize, BigDecimal lotSize, long maxPrice,
                         long maxQuantity, BigDecimal priceUnit) {

    /** Largest price*quantity product that keeps every notional sum in a long. */
    public static final long MAX_NOTIONAL = Long.MAX_VALUE / 4;

    /** An instrument whose price unit is its tick. */
    public Instrument(final int index, final String symbol, final BigDecimal tickSize, final BigDecimal lotSize,
                      final long maxPrice, final long maxQuantity) {
        this(index, symbol, tickSize, lotSize, maxPrice, maxQuantity, tickSize);
    }

    public Instrument {
        if (symbol == null || !symbol.matches("[A-Z0-9]{2,16}")) {
            throw new IllegalArgumentException("instrument symbol must be 2-16 of [A-Z0-9], was " + symbol);
        }
        if (tickSize.signum() <= 0 || lotSize.signum() <= 0 || priceUnit.signum() <= 0) {
            throw new IllegalArgumentException(symbol + ": tick, lot and price unit sizes must be > 0");
        }
        if (tickSize.remainder(priceUnit).signum() != 0) {
            throw new IllegalArgumentException(symbol + ": the tick size " + tickSize.toPlainString()
                    + " must be a whole multiple of the price unit " + priceUnit.toPlainString());
        }
        if (maxPrice <= 0 || maxQuantity <= 0) {
            throw new IllegalArgumentException(symbol + ": maximum price and quantity must be > 0");
        }
        if (maxPrice > MAX_NOTIONAL / maxQuantity) {
            throw new IllegalArgumentException(symbol + ": maxPrice x maxQuantity (" + maxPrice + " x " + maxQuantity
                    + " in price units x lots) must stay below " + MAX_NOTIONAL);
        }
        tickSize = tickSize.stripTrailingZeros();
        lotSize = lotSize.stripTrailingZeros();
        priceUnit = priceUnit.stripTrailingZeros();
    }

    /**
     * @return this instrument with prices counted in {@code unit} (which must divide the tick): the maximum price keeps
     *         its decimal value, capped where price x quantity would leave the range notional sums are kept in
     */
    public Instrument withPriceUnit(final BigDecimal unit) {
        final BigDecimal maximum = priceUnit.multiply(BigDecimal.valueOf(maxPrice));
        final long inUnits = maximum.divideToIntegralValue(unit).min(BigDecimal.valueOf(MAX_NOTIONAL / maxQuantity))
                .longValueExact();
        return new Instrument(index, symbol, tickSize, lotSize, Math.max(1, inUnits), maxQuantity, unit);
    }

    /** @return this instrument with another tick size (a whole multiple of the price unit) */
    public Instrument withTickSize(final BigDecimal tick) {
        return new Instrument(index, symbol, tick, lotSize, maxPrice, maxQuantity, priceUnit);
    }

    /** @return how many price units make one tick */
    public long unitsPerTick() {
        return tickSize.divide(priceUnit).longValueExact();
    }

    /** @return decimals used to render prices: the price unit's scale */
    public int priceScale() {
        return Math.max(0, priceUnit.scale());
    }

    /** @return decimals used to render quantities: the lot size's scale */
    public int quantityScale() {
        return Math.max(0, lotSize.scale());
    }

    /** @return the decimal price of a count of price units, at the price scale */
    public BigDecimal price(final long units) {
        return priceUnit.multiply(BigDecimal.valueOf(units)).setScale(priceScale());
    }

    /** @return the decimal quantity of a count of lots, at the quantity scale */
    public BigDecimal quantity(final long lots) {
        return lotSize.multiply(BigDecimal.valueOf(lots)).setScale(quantityScale());
    }
}
