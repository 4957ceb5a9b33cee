package io.orderentry.app;

import java.math.BigDecimal;

/**
 * A tradable instrument: prices are whole multiples of {@code tickSize}, quantities of
 * {@code lotSize}. Inside the engine a price is a count of ticks and a quantity a count of lots.
 *
 * @param index       position in the configured list; the engine's symbol number
 * @param maxPrice    the highest price in ticks an order may carry
 * @param maxQuantity the largest quantity in lots an order may carry
 */
public record Instrument(int index, String symbol, BigDecimal tickSize, BigDecimal lotSize, long maxPrice,
                         long maxQuantity) {

    /** Largest price*quantity product that keeps every notional sum in a long. */
    public static final long MAX_NOTIONAL = Long.MAX_VALUE / 4;

    public Instrument {
        if (symbol == null || !symbol.matches("[A-Z0-9]{2,16}")) {
            throw new IllegalArgumentException("instrument symbol must be 2-16 of [A-Z0-9], was " + symbol);
        }
        if (tickSize.signum() <= 0 || lotSize.signum() <= 0) {
            throw new IllegalArgumentException(symbol + ": tick and lot sizes must be > 0");
        }
        if (maxPrice <= 0 || maxQuantity <= 0) {
            throw new IllegalArgumentException(symbol + ": maximum price and quantity must be > 0");
        }
        if (maxPrice > MAX_NOTIONAL / maxQuantity) {
            throw new IllegalArgumentException(symbol + ": maxPrice x maxQuantity (" + maxPrice + " x " + maxQuantity
                    + " in ticks x lots) must stay below " + MAX_NOTIONAL);
        }
        tickSize = tickSize.stripTrailingZeros();
        lotSize = lotSize.stripTrailingZeros();
    }

    /** @return decimals used to render prices: the tick size's scale */
    public int priceScale() {
        return Math.max(0, tickSize.scale());
    }

    /** @return decimals used to render quantities: the lot size's scale */
    public int quantityScale() {
        return Math.max(0, lotSize.scale());
    }

    /** @return the decimal price of a count of ticks, at the price scale */
    public BigDecimal price(final long ticks) {
        return tickSize.multiply(BigDecimal.valueOf(ticks)).setScale(priceScale());
    }

    /** @return the decimal quantity of a count of lots, at the quantity scale */
    public BigDecimal quantity(final long lots) {
        return lotSize.multiply(BigDecimal.valueOf(lots)).setScale(quantityScale());
    }
}
