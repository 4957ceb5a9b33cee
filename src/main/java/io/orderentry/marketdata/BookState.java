package io.orderentry.marketdata;

import io.orderentry.engine.Side;

/**
 * What the consumer publishes for one symbol's book after each batch: the last full snapshot plus
 * the chain of updates since. Publishing costs the consumer one small object per batch, and a
 * reader can always rebuild the book exactly as of {@link #sequence()} with {@link #merge()}.
 *
 * <p>The consumer takes a new full snapshot once the updates since the last one have changed as
 * many levels as the book holds (at least {@link #MIN_CHANGES_BEFORE_SNAPSHOT}), so copying the
 * book costs at most about one level per change, and the chain stays shorter than the book.
 *
 * <p>Immutable; {@link #merge()} may run on any thread.
 */
public final class BookState {

    /** Changed levels after which a new full snapshot is taken even for a small book. */
    static final int MIN_CHANGES_BEFORE_SNAPSHOT = 256;

    private final BookSnapshot base;
    private final BookUpdate latest;
    private final int updates;
    private final int changes;

    private BookState(final BookSnapshot base, final BookUpdate latest, final int updates, final int changes) {
        this.base = base;
        this.latest = latest;
        this.updates = updates;
        this.changes = changes;
    }

    /** @return a state that is just this snapshot */
    public static BookState of(final BookSnapshot snapshot) {
        return new BookState(snapshot, null, 0, 0);
    }

    /** @return the book sequence this state reflects */
    public long sequence() {
        return latest == null ? base.sequence() : latest.sequence();
    }

    /**
     * Called on the consumer thread only.
     *
     * @return this state with one more update, or a fresh snapshot of the live sides when the chain
     *         has grown as large as the book
     */
    BookState next(final BookUpdate update, final L2Side bids, final L2Side asks) {
        final int changed = changes + update.size();
        if (changed >= Math.max(MIN_CHANGES_BEFORE_SNAPSHOT, bids.levelCount() + asks.levelCount())) {
            return of(BookSnapshot.of(base.symbol(), update.sequence(), bids, asks));
        }
        return new BookState(base, update, updates + 1, changed);
    }

    /** @return the update to chain the next one after, or null right after a snapshot */
    BookUpdate latest() {
        return latest;
    }

    /** @return the full book as of {@link #sequence()}: the snapshot with every update since applied */
    public BookSnapshot merge() {
        if (latest == null) {
            return base;
        }
        final BookUpdate[] chain = new BookUpdate[updates];
        BookUpdate update = latest;
        for (int i = updates - 1; i >= 0; i--) {
            chain[i] = update;
            update = update.previous();
        }
        final L2Side bids = base.side(Side.BUY);
        final L2Side asks = base.side(Side.SELL);
        for (final BookUpdate each : chain) {
            for (int i = 0; i < each.size(); i++) {
                (each.side(i) == Side.BUY ? bids : asks).set(each.price(i), each.quantity(i));
            }
        }
        return BookSnapshot.of(base.symbol(), latest.sequence(), bids, asks);
    }
}
