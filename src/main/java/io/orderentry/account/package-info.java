/**
 * Each followed account's private order feed (the stream's {@code orders} channel), and the dead man's switch.
 * {@link AccountFeedStage} numbers each account's order updates and hands them to its {@link FeedSubscriber}s;
 * {@link SnapshotAssembly} builds a subscriber's snapshot of open orders in chunks, exact against the updates;
 * {@link DeadMansSwitch} publishes a cancel-all for an account whose refreshes stopped.
 * <p>{@link AccountFeedStage} runs on the order stage's thread (oe-orders), after the order view and the replies.
 * {@link SnapshotAssembly} runs on the subscribing connection's Vert.x event loop. {@link DeadMansSwitch} is armed on
 * the event loops and checks its deadlines on its own thread (oe-dead-mans-switch).
 * <p>Depends on query (the order view and its states), pipeline ({@code BatchStage}, {@code EngineEvent}) and engine
 * ({@code OrderStatus}) only; no framework apart from SLF4J.
 */
package io.orderentry.account;
