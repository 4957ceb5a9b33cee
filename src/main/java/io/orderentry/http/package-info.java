/**
 * The HTTP edge's server: {@link OrderVerticle} (the server, its options, the route table and the dispatch of each
 * request, one per event loop), the route handlers every route passes before its own ({@link RequestAdmission}:
 * metrics, request id, body; {@link AccessCheck}: the key's permission or the budget of requests without one;
 * {@link ReadinessCheck}), the operations endpoints ({@link OpsRoutes}), error shapes and answers ({@link ApiError},
 * {@link Responses}, {@link RequestRefusals}), access control ({@link AccessControl}), client bounds
 * ({@link ClientConnections}, {@link ConnectionLimit}, {@link ClientAddress}, {@link ClientBounds},
 * {@link PacedCloser}), the audit of refusals ({@link EdgeRefusals}, {@link RefusalBudget}), request ids and the
 * server's settings ({@link HttpConfig}) and collaborators ({@link HttpParts}). What the routes serve lives in the sub-packages: {@code rest} (orders), {@code json} (rendering)
 * and {@code stream} (the WebSocket stream).
 * <p>Runs on the Vert.x event loops; nothing here blocks.
 * <p>Depends on its sub-packages, ops (the state {@code /health}, {@code /ready} and {@code /metrics} render),
 * pipeline, query, account and auth; on Vert.x, Netty, Jackson and Micrometer.
 */
package io.orderentry.http;
