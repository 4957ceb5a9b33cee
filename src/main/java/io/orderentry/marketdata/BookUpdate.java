package io.orderentry.marketdata;

import io.orderentry.engine.Side;

/**
 * The levels of one symbol's book that changed in one batch of engine events, each with its new
 * total quantity (0: the level is gone). Immutable.
 *
 * <p>Updates since the last full snapshot are chained through {@link #previous()} so that a reader
 * can rebuild the current book from that snapshot; see {@link BookState}.
 */
public final class BookUpdate implements StreamUpdate {

    private final int symbol;
    private final long sequence;
    private final Side[] sides;
    private final long[] prices;
    private final long[] quantities;
    private final BookUpdate previous;
    private final BookSnapshot top;

    /**
     * @param previous the update before this one since the last snapshot, or null; must have sequence - 1
     * @param top      the best levels of the book after this update
     */
    BookUpdate(final int symbol, final long sequence, final Side[] sides, final long[] prices,
               final long[] quantities, final BookUpdate previous, final BookSnapshot top) {
        if (previous != null && previous.sequence != sequence - 1) {
            throw new IllegalArgumentException("update " + sequence + " chained after " + previous.sequence);
        }
        this.symbol = symbol;
        this.sequence = sequence;
        this.sides = sides;
        this.prices = prices;
        this.quantities = quantities;
        this.previous = previous;
        this.top = top;
    }

    /** @return the best levels of the book after this update, which its checksum covers */
    public BookSnapshot top() {
        return top;
    }

    @Override
    public int symbol() {
        return symbol;
    }

    @Override
    public Channel channel() {
        return Channel.BOOK;
    }

    @Override
    public long sequence() {
        return sequence;
    }

    /** @return how many levels changed */
    public int size() {
        return prices.length;
    }

    public Side side(final int i) {
        return sides[i];
    }

    public long price(final int i) {
        return prices[i];
    }

    /** @return the level's new total quantity in lots; 0 means it is gone */
    public long quantity(final int i) {
        return quantities[i];
    }

    /** @return the update before this one since the last snapshot, or null */
    BookUpdate previous() {
        return previous;
    }
}
