package io.orderentry.marketdata;

/**
 * One update on a channel of one symbol, as handed to the stream: immutable, numbered by a sequence
 * that counts 1, 2, 3, ... per symbol and channel with no gaps while the process runs.
 */
public interface StreamUpdate {

    /** @return the instrument index */
    int symbol();

    /** @return the channel this update belongs to */
    Channel channel();

    /** @return this update's sequence on its symbol and channel */
    long sequence();
}
