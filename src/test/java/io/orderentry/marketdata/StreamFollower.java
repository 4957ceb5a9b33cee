package io.orderentry.marketdata;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.orderentry.engine.Side;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A stream client in miniature: starts from empty books and applies every update in order,
 * failing on any gap in a symbol's channel sequence.
 */
final class StreamFollower {

    private final L2Side[][] books;
    private final long[][] sequences;
    private final List<List<Trade>> trades = new ArrayList<>();
    private long tradeCount;
    private int maxLevels;

    StreamFollower(final int symbols) {
        books = new L2Side[symbols][];
        sequences = new long[symbols][Channel.COUNT];
        for (int symbol = 0; symbol < symbols; symbol++) {
            books[symbol] = new L2Side[] {new L2Side(Side.BUY, 16), new L2Side(Side.SELL, 16)};
            trades.add(new ArrayList<>());
        }
    }

    /** Subscribes to every channel of every symbol: starts from the view's snapshots, as a new client would. */
    void subscribe(final MarketDataView view) {
        for (int symbol = 0; symbol < books.length; symbol++) {
            final BookSnapshot book = view.currentBook(symbol);
            books[symbol] = new L2Side[] {book.side(Side.BUY), book.side(Side.SELL)};
            sequences[symbol][Channel.BOOK.ordinal()] = book.sequence();
            final TradeHistory history = view.trades(symbol);
            sequences[symbol][Channel.TRADES.ordinal()] = history.sequence();
            final List<Trade> oldestFirst = new ArrayList<>(history.recent(history.capacity()));
            Collections.reverse(oldestFirst);
            trades.set(symbol, oldestFirst);
            sequences[symbol][Channel.TICKER.ordinal()] = view.ticker(symbol).sequence();
        }
    }

    void apply(final List<StreamUpdate> updates) {
        for (final StreamUpdate update : updates) {
            final long[] seen = sequences[update.symbol()];
            assertEquals(seen[update.channel().ordinal()] + 1, update.sequence(),
                    "no gap on " + update.channel() + " of symbol " + update.symbol());
            seen[update.channel().ordinal()] = update.sequence();
            if (update instanceof BookUpdate book) {
                for (int i = 0; i < book.size(); i++) {
                    books[book.symbol()][book.side(i).ordinal()].set(book.price(i), book.quantity(i));
                }
                maxLevels = Math.max(maxLevels, books[book.symbol()][0].levelCount());
            } else if (update instanceof TradeBatch batch) {
                trades.get(batch.symbol()).addAll(batch.trades());
                tradeCount += batch.trades().size();
            }
        }
    }

    BookSnapshot book(final int symbol) {
        return BookSnapshot.of(symbol, sequences[symbol][Channel.BOOK.ordinal()], books[symbol][0], books[symbol][1]);
    }

    List<Trade> recentTrades(final int symbol, final int limit) {
        final List<Trade> all = trades.get(symbol);
        final List<Trade> newestFirst = new ArrayList<>();
        for (int i = all.size() - 1; i >= 0 && newestFirst.size() < limit; i--) {
            newestFirst.add(all.get(i));
        }
        return newestFirst;
    }

    long tradeCount() {
        return tradeCount;
    }

    int maxLevels() {
        return maxLevels;
    }
}
