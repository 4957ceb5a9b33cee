package io.orderentry.pipeline;

/** The kind of an {@link EngineEvent}. */
public enum EventType {
    /** A new order entered the engine (sequenced engine event). */
    ORDER_ACCEPTED,
    /** One execution between a taker and a maker (sequenced engine event). */
    TRADE,
    /** The state an order was left in by a command (sequenced engine event). */
    ORDER_UPDATED,
    /** The end of one command: its result, for the waiting request. Not sequenced. */
    COMMAND_COMPLETED;

    /** @return true for the events that carry an engine event sequence and are persisted */
    public boolean isSequenced() {
        return this != COMMAND_COMPLETED;
    }
}
