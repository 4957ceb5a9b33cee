package io.orderentry.marketdata;

import io.orderentry.engine.Side;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The market data consumer's own state for one symbol: the live L2 book, the trades and the levels
 * touched in the current batch, the volume window, and the last states it published.
 *
 * <p>Events are applied as they come; {@link #flush()} runs once per batch and turns what changed
 * into at most one update per channel. Not thread safe: owned by the market data consumer thread.
 *
 * <p>{@link #writeSnapshot} saves, between batches, what later events and flushes depend on: both sides, the
 * kept trades, the ticker, the volume window and the three channel sequences. A restored market publishes a
 * fresh full book snapshot and an unchained trade history; how the original had split its states into base and
 * chain is not kept, since no reader can tell.
 */
final class SymbolMarket {

    private final int symbol;
    private final L2Side bids;
    private final L2Side asks;
    private final VolumeWindow volume = new VolumeWindow();
    private final List<Trade> batchTrades = new ArrayList<>();
    private long[] touched = new long[64];
    private int touchedCount;

    private BookState book;
    private TradeHistory history;
    private Ticker ticker;
    private BookUpdate bookUpdate;
    private TradeBatch tradeBatch;
    private Ticker tickerUpdate;

    SymbolMarket(final int symbol, final int tradesHistory) {
        this.symbol = symbol;
        this.bids = new L2Side(Side.BUY, 1024);
        this.asks = new L2Side(Side.SELL, 1024);
        this.book = BookState.of(BookSnapshot.empty(symbol));
        this.history = TradeHistory.empty(tradesHistory);
        this.ticker = Ticker.empty(symbol);
    }

    /** An order rests {@code quantity} lots at a price. */
    void rest(final Side side, final long price, final long quantity) {
        (side == Side.BUY ? bids : asks).add(price, quantity);
        touch(side, price);
    }

    /** {@code quantity} lots leave a level: cancelled, or traded away from a maker. */
    void remove(final Side side, final long price, final long quantity) {
        (side == Side.BUY ? bids : asks).add(price, -quantity);
        touch(side, price);
    }

    /** A trade: the maker's level (the side opposite the taker) loses the traded quantity. */
    void trade(final Trade trade) {
        remove(trade.takerSide().opposite(), trade.price(), trade.quantity());
        batchTrades.add(trade);
        volume.add(trade.timestampMicros(), trade.quantity());
    }

    /** @return true when something was applied since the last flush */
    boolean changed() {
        return touchedCount > 0 || !batchTrades.isEmpty();
    }

    /**
     * Ends a batch: builds the book update, trade batch and ticker for what changed and advances the
     * published states; read them with {@link #bookUpdate()}, {@link #tradeBatch()}, {@link #tickerUpdate()}.
     */
    void flush() {
        bookUpdate = touchedCount == 0 ? null : buildBookUpdate();
        if (bookUpdate != null) {
            book = book.next(bookUpdate, bids, asks);
        }
        tradeBatch = null;
        Trade last = ticker.lastTrade();
        if (!batchTrades.isEmpty()) {
            tradeBatch = new TradeBatch(symbol, history.sequence() + 1, batchTrades, history.latest());
            history = history.next(tradeBatch);
            last = batchTrades.get(batchTrades.size() - 1);
            batchTrades.clear();
        }
        final Ticker candidate = new Ticker(symbol, ticker.sequence() + 1,
                bids.levelCount() == 0 ? 0 : bids.priceFromBest(0), bids.levelCount() == 0 ? 0 : bids.quantityFromBest(0),
                asks.levelCount() == 0 ? 0 : asks.priceFromBest(0), asks.levelCount() == 0 ? 0 : asks.quantityFromBest(0),
                last, volume.total());
        tickerUpdate = candidate.differsFrom(ticker) ? candidate : null;
        if (tickerUpdate != null) {
            ticker = tickerUpdate;
        }
    }

    /** @return the book update of the last flush, or null if no level changed */
    BookUpdate bookUpdate() {
        return bookUpdate;
    }

    /** @return the trades of the last flush, or null if none */
    TradeBatch tradeBatch() {
        return tradeBatch;
    }

    /** @return the ticker of the last flush, or null if it did not change */
    Ticker tickerUpdate() {
        return tickerUpdate;
    }

    BookState book() {
        return book;
    }

    TradeHistory history() {
        return history;
    }

    Ticker ticker() {
        return ticker;
    }

    /**
     * Writes the market's state: {@code int} symbol, {@code long} book sequence, bids and asks
     * ({@link L2Side#writeSnapshot}), trades ({@link TradeHistory#writeSnapshot}), ticker
     * ({@link Ticker#writeSnapshot}), volume window ({@link VolumeWindow#writeSnapshot}).
     *
     * @throws IllegalStateException if events were applied since the last flush
     */
    void writeSnapshot(final DataOutput out) throws IOException {
        if (changed()) {
            throw new IllegalStateException("symbol " + symbol + " is in the middle of a batch");
        }
        out.writeInt(symbol);
        out.writeLong(book.sequence());
        bids.writeSnapshot(out);
        asks.writeSnapshot(out);
        history.writeSnapshot(out);
        ticker.writeSnapshot(out);
        volume.writeSnapshot(out);
    }

    /** @return true while nothing was applied or restored: every sequence 0 and the book empty */
    boolean pristine() {
        return book.sequence() == 0 && history.sequence() == 0 && ticker.sequence() == 0 && !changed()
                && bids.levelCount() == 0 && asks.levelCount() == 0;
    }

    /**
     * Reads a state written by {@link #writeSnapshot} into this {@link #pristine()} market; the next flush
     * continues every channel's sequence. On an exception the market is left part restored.
     *
     * @throws IOException if the input ends early or is malformed
     */
    void restoreSnapshot(final DataInput in) throws IOException {
        final int written = in.readInt();
        if (written != symbol) {
            throw new IOException("expected the state of symbol " + symbol + ", found symbol " + written);
        }
        final long bookSequence = in.readLong();
        if (bookSequence < 0) {
            throw new IOException("symbol " + symbol + " book sequence " + bookSequence + " is negative");
        }
        bids.restoreSnapshot(in);
        asks.restoreSnapshot(in);
        if (bookSequence == 0 && bids.levelCount() + asks.levelCount() > 0) {
            throw new IOException("symbol " + symbol + " has levels at book sequence 0");
        }
        history = TradeHistory.readSnapshot(in, history.capacity());
        final List<Trade> newest = history.recent(1);
        ticker = Ticker.readSnapshot(in, symbol, newest.isEmpty() ? null : newest.get(0));
        volume.restoreSnapshot(in);
        book = BookState.of(BookSnapshot.of(symbol, bookSequence, bids, asks));
    }

    /** A level changed; the key sorts by price and then side, and fits any price below 2^62 ticks. */
    private void touch(final Side side, final long price) {
        if (touchedCount == touched.length) {
            touched = Arrays.copyOf(touched, touchedCount * 2);
        }
        touched[touchedCount++] = price << 1 | (side == Side.BUY ? 0 : 1);
    }

    private BookUpdate buildBookUpdate() {
        Arrays.sort(touched, 0, touchedCount);
        int distinct = 0;
        for (int i = 0; i < touchedCount; i++) {
            if (i == 0 || touched[i] != touched[i - 1]) {
                touched[distinct++] = touched[i];
            }
        }
        final Side[] sides = new Side[distinct];
        final long[] prices = new long[distinct];
        final long[] quantities = new long[distinct];
        for (int i = 0; i < distinct; i++) {
            sides[i] = (touched[i] & 1) == 0 ? Side.BUY : Side.SELL;
            prices[i] = touched[i] >>> 1;
            quantities[i] = (sides[i] == Side.BUY ? bids : asks).quantity(prices[i]);
        }
        touchedCount = 0;
        return new BookUpdate(symbol, book.sequence() + 1, sides, prices, quantities, book.latest(),
                BookSnapshot.top(symbol, book.sequence() + 1, bids, asks));
    }
}
