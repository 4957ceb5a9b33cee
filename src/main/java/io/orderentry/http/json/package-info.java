/**
 * JSON rendering of the edge's answers: {@link Json} (the configured mapper, orders, errors, lists), orders straight
 * into bytes ({@link OrderJson}, {@link JsonBytes}), market data ({@link MarketDataJson},
 * {@link BookChecksum}) and the private order feed's messages ({@link OrderFeedJson}). Prices and quantities are
 * decimal strings at the instrument's scale, written through the instruments' shared
 * {@link io.orderentry.instrument.DecimalFormats}; the bytes are pinned by differential tests.
 * <p>Runs on whichever thread renders: the event loops for REST answers, the market data thread (oe-marketdata) for
 * the stream's updates, the order stage's thread (oe-orders) for the order feed. A renderer that keeps a buffer is
 * one thread's own; the others are immutable.
 * <p>Depends on the http package ({@code ApiError}, {@code DirectBody}), stream ({@code StreamFrames}), query,
 * marketdata, account, engine and instrument; on Jackson, Netty and Vert.x buffers.
 */
package io.orderentry.http.json;
