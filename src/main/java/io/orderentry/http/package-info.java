/**
 * The HTTP edge: routes, parsing and validation into ticks and lots, JSON answers and error shapes, access control,
 * client bounds, {@code /ready}, {@code /metrics}, the WebSocket stream and the delivery of replies.
 * {@link OrderVerticle} serves requests, {@link InputGateway} publishes commands into the input ring without waiting,
 * {@link ReplyStage} completes the waiting requests, and {@link StreamFanOut} renders market data for the stream.
 * <p>Runs on the Vert.x event loops, except: {@link ReplyStage}, and the rendering and hand-over of the private order
 * feed, on the order stage's thread (oe-orders); {@link StreamFanOut}'s rendering on the market data thread
 * (oe-marketdata). Those only hand over to the event loops.
 * <p>Depends on pipeline, engine, query, account, marketdata, auth, journal ({@code WallClock}) and instrument
 * ({@code Instrument}, {@code TradingRules}); on Vert.x, Netty, Jackson, Micrometer, HdrHistogram and
 * the LMAX Disruptor.
 */
package io.orderentry.http;

import io.orderentry.http.rest.InputGateway;
import io.orderentry.http.rest.ReplyStage;
import io.orderentry.http.stream.StreamFanOut;
