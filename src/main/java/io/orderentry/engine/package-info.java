/**
 * The matching engine: one price-time priority book per instrument, the order and trade ids, the event sequence, the
 * dedup window and the price bands. {@link Matcher} executes each command and reports what it decides, in order, to an
 * {@link EventSink}; {@link EngineConfig} bounds its memory; {@link MatcherSnapshot} writes and restores its state.
 * Deterministic: it reads no clock, randomness or I/O, so the same commands give the same ids and events.
 * <p>Not thread safe: one thread drives a {@link Matcher}. In service that is the matcher thread (oe-matcher); during
 * recovery the starting thread (snapshot load, journal replay); for the snapshot replica the snapshot writer's thread
 * (oe-snapshot); in cluster mode the clustered service thread (clustered-service-0-0).
 * <p>Imports no other package of ours and no framework: {@code java.io} (snapshot streams) and {@code java.util} only.
 */
package io.orderentry.engine;
