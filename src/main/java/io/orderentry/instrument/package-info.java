/**
 * The venue's instruments and trading rules, as configured: {@link io.orderentry.instrument.Instrument} (symbol,
 * tick, lot, price and quantity limits, ticks and lots to decimals and back) and
 * {@link io.orderentry.instrument.TradingRules} (each instrument's price band, the default self-trade prevention).
 * Immutable values, read on any thread. A leaf: depends only on engine (the self-trade prevention modes).
 */
package io.orderentry.instrument;
