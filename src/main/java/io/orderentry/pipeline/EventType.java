package io.orderentry.pipeline;

/** The kind of an {@link EngineEvent}. */
public enum EventType {
    /** A new order entered the engine (sequenced engine event). */
    ORDER_ACCEPTED,
    /** One execution between a taker and a maker (sequenced engine event). */
    TRADE,
    /** The state an order was left in by a command (sequenced engine event). */
    ORDER_UPDATED,
    /**
     * A resting order's new price and/or quantity, before anything it then trades (sequenced engine event); an
     * ORDER_UPDATED with its final state follows in the same command.
     */
    ORDER_AMENDED,
    /**
     * With balances: one account's balance of one asset changed (sequenced engine event), carrying the new balance,
     * what changed and why ({@link io.orderentry.engine.BalanceCause}).
     */
    BALANCE_CHANGED,
    /** The end of one command: its result, for the waiting request. Not sequenced. */
    COMMAND_COMPLETED,
    /** A request the HTTP edge refused, forwarded for the audit trail only. Not sequenced, never replayed. */
    REQUEST_REJECTED,
    /**
     * The journal replay at startup is over; live commands follow. {@link EngineEvent#commandSequence} is the
     * last replayed journal sequence. Not sequenced; published once per start.
     */
    REPLAY_COMPLETED,
    /** Once a second, from the HTTP edge: lets a stage retry after a failure ({@link CommandType#TICK}). Not sequenced. */
    TICK;

    /** @return true for the events that carry an engine event sequence and are persisted */
    public boolean isSequenced() {
        return this == ORDER_ACCEPTED || this == TRADE || this == ORDER_UPDATED || this == ORDER_AMENDED
                || this == BALANCE_CHANGED;
    }
}
