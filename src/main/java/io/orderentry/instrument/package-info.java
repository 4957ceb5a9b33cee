/**
 * The venue's instruments and trading rules, as configured: {@link io.orderentry.instrument.Instrument} (symbol,
 * tick, lot, price and quantity limits, ticks and lots to decimals and back) and
 * {@link io.orderentry.instrument.TradingRules} (each instrument's price band, the default self-trade prevention),
 * read from the settings by {@link io.orderentry.instrument.ConfiguredInstruments} and {@code TradingRules.from};
 * and how an amount is written: {@link io.orderentry.instrument.DecimalText} (ticks or lots to decimal text without
 * allocating) and {@link io.orderentry.instrument.DecimalFormats} (every instrument's price and quantity formats, which
 * the order answers, market data and its checksum share).
 * Immutable values, read on any thread (the settings on the starting thread). A leaf: depends only on engine (the
 * self-trade prevention modes) and config.
 */
package io.orderentry.instrument;
