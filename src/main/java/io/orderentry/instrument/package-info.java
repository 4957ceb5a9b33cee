/**
 * The venue's instruments and trading rules, as configured: {@link io.orderentry.instrument.Instrument} (symbol,
 * tick, lot, price and quantity limits, ticks and lots to decimals and back) and
 * {@link io.orderentry.instrument.TradingRules} (each instrument's price band, the default self-trade prevention),
 * read from the settings by {@link io.orderentry.instrument.ConfiguredInstruments} and {@code TradingRules.from}.
 * Immutable values, read on any thread (the settings on the starting thread). A leaf: depends only on engine (the
 * self-trade prevention modes) and config.
 */
package io.orderentry.instrument;
