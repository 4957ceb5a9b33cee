package io.orderentry.query;

/**
 * One execution of one order, immutable. Fills of an order form a chain, newest first, so that a new
 * fill shares the older ones instead of copying them.
 *
 * @param price    execution price in ticks
 * @param quantity executed quantity in lots
 * @param taker    true when the order was the incoming (taker) side of the trade
 * @param previous the order's previous fill, or null
 */
public record Fill(long tradeId, long price, long quantity, boolean taker, long timestampMicros, Fill previous) {
}
