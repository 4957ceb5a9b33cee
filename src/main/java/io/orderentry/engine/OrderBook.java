package io.orderentry.engine;

/**
 * The two sides of one instrument's book. Owned and mutated only by the matcher thread.
 */
final class OrderBook {

    private final BookSide bids;
    private final BookSide asks;

    OrderBook(final int symbol, final int maxLevelsPerSide) {
        this.bids = new BookSide(symbol, Side.BUY, maxLevelsPerSide);
        this.asks = new BookSide(symbol, Side.SELL, maxLevelsPerSide);
    }

    /** @return the side on which orders of {@code side} rest */
    BookSide side(final Side side) {
        return side == Side.BUY ? bids : asks;
    }
}
