package io.orderentry.engine;

/** Which side of the book an order is on. */
public enum Side {
    BUY,
    SELL;

    /** @return the side an order of this side trades against */
    public Side opposite() {
        return this == BUY ? SELL : BUY;
    }
}
