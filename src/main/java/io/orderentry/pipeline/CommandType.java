package io.orderentry.pipeline;

/** What an {@link OrderCommand} asks the engine to do. */
public enum CommandType {
    /** Place a new order. Journaled. */
    PLACE,
    /** Cancel a resting order. Journaled. */
    CANCEL
}
