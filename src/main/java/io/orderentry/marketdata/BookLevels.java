package io.orderentry.marketdata;

import io.orderentry.engine.Side;

/** Price levels of both sides of a book, best first: what a book checksum reads. */
public interface BookLevels {

    /** @return how many levels a side holds */
    int levelCount(Side side);

    /** @return the price of the i-th best level of a side */
    long price(Side side, int i);

    /** @return the quantity of the i-th best level of a side */
    long quantity(Side side, int i);
}
