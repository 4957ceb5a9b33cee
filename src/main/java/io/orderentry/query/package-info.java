/**
 * The order view: every order's current state, built only from engine events, for the GETs, the answers and the
 * private order stream. {@link OrderStateView} keeps it in chunked primitive arrays, one slot per order, with each
 * account's open orders as a list threaded through the slots; {@link OrderState} and {@link Fill} are the immutable
 * read model it builds on demand ({@link OrderStateReads}, on any thread). {@link FinalOrderRetention} decides which
 * final orders it keeps; {@link OrderStateViewSnapshot} and {@link OrderStateViewRestore} are its snapshot format.
 * <p>{@link OrderViewStage}, the output ring's stage, applies each event to the {@link OrderStateView} on the order
 * stage's thread (oe-orders), its only writer, before the audit trail and the replies on that thread. Readers on the Vert.x event loops check per-slot versions (a seqlock) and never lock.
 * The snapshot replica keeps a view of its own on oe-snapshot.
 * {@link QueryConfig}, how many final orders the view keeps, is read on the starting thread.
 * <p>Depends on pipeline (the {@code EngineEvent} it applies), engine (its enums) and config (its settings) only; no
 * framework.
 */
package io.orderentry.query;
