/**
 * Market data: each symbol's L2 book, recent trades, ticker and 24-hour volume, built only from engine events, as
 * snapshots and updates numbered per symbol and channel. {@link MarketDataStage} is the output ring's consumer: it
 * never reads the matcher, publishes immutable states through {@link MarketDataView}, and hands each batch's stream
 * updates to a {@link StreamTarget}, the WebSocket fan-out.
 * <p>{@link MarketDataStage} runs on its consumer thread (oe-marketdata), and on oe-snapshot in the snapshot replica.
 * The Vert.x event loops read {@link MarketDataView} and count their subscribers in {@link SubscriberCounts} without
 * blocking.
 * <p>Depends on pipeline (the {@code EngineEvent} it applies), engine ({@code Side}, {@code OrderStatus}) and config
 * ({@link MarketDataConfig}'s settings) only; no framework.
 */
package io.orderentry.marketdata;
