/**
 * The REST order routes: order commands ({@link OrderCommands}: place, cancel, amend, cancel-all, the dead man's
 * switch), order queries ({@link OrderQueries}), the POST fast path that bypasses the router ({@link PlaceFastPath},
 * with its hand-written parser {@link FastOrderParser}), the parsing and validation of request bodies into ticks and
 * lots ({@link OrderRequestParser}, {@link CancelAllAfterRequest}), the way into the input ring ({@link InputGateway})
 * and the way back: the requests waiting for the engine ({@link PendingReplies}) and the stage that completes them
 * ({@link ReplyStage}).
 * <p>Runs on the Vert.x event loops, except {@link ReplyStage}, on the order stage's thread (oe-orders), which only
 * hands the replies over to the event loops.
 * <p>Depends on the http package (the server's route handlers, answers and settings), json, pipeline, engine, query,
 * account, auth, ops and instrument; on Vert.x, Netty, Jackson and the LMAX Disruptor.
 */
package io.orderentry.http.rest;
