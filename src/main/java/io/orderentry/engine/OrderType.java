package io.orderentry.engine;

/** LIMIT orders carry a price; MARKET orders sweep the book at any price and never rest. */
public enum OrderType {
    LIMIT,
    MARKET
}
