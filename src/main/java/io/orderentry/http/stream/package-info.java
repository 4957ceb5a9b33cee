/**
 * The WebSocket stream and the market data routes: the upgrade and the REST book and trades
 * ({@link MarketDataRoutes}), each event loop's sessions ({@link StreamHub}, {@link StreamSession}), what clients send
 * ({@link StreamInbound}, {@link StreamRequest}), the fan-out of market data rendered once per update
 * ({@link StreamFanOut}, {@link StreamFrames}, {@link PerMessageDeflate}), the private {@code orders} channel
 * ({@link OrderChannel}, {@link OrderFeedSubscription}) and the stream's counters ({@link StreamMetrics}).
 * <p>Runs on the Vert.x event loops, except: {@link StreamFanOut}'s rendering on the market data thread
 * (oe-marketdata), and the order feed's rendering and hand-over on the order stage's thread (oe-orders). Those only
 * hand over to the event loops.
 * <p>Depends on the http package (connections, access, answers), json, rest ({@code InputGateway} for audited
 * refusals), marketdata, account, auth, query, ops, instrument and journal ({@code WallClock}); on Vert.x and Netty.
 */
package io.orderentry.http.stream;
