package io.orderentry.marketdata;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * What the market data consumer publishes, per symbol, for readers on other threads: the book, the
 * recent trades and the ticker, each an immutable object behind a volatile reference. Reading never
 * blocks or waits for the consumer.
 *
 * <p>Threads: the {@code publish} methods are called only by the {@link MarketDataStage}; the read
 * methods from any thread (the HTTP event loops).
 *
 * <p>Staleness: {@link #currentBook} is exactly the consumer's book after its last batch; it may
 * merge a snapshot with the updates since (cached per book sequence). {@link #recentBook}, for REST,
 * reuses a merged snapshot while it is younger than {@code snapshotMillis}, so it lags the consumer
 * by at most that long. The consumer itself trails the engine by its queue in the output ring,
 * normally micro- to milliseconds.
 */
public final class MarketDataView {

    private record Merged(BookSnapshot snapshot, long readAtNanos) {
    }

    private final AtomicReferenceArray<BookState> books;
    private final AtomicReferenceArray<TradeHistory> trades;
    private final AtomicReferenceArray<Ticker> tickers;
    private final AtomicReferenceArray<Merged> merged;
    private final long maxAgeNanos;
    private volatile long lastEventSequence;

    /**
     * @param symbols        instruments, indexed from 0
     * @param tradesHistory  trades kept per symbol
     * @param snapshotMillis how old a REST book may be
     */
    public MarketDataView(final int symbols, final int tradesHistory, final long snapshotMillis) {
        this.books = new AtomicReferenceArray<>(symbols);
        this.trades = new AtomicReferenceArray<>(symbols);
        this.tickers = new AtomicReferenceArray<>(symbols);
        this.merged = new AtomicReferenceArray<>(symbols);
        this.maxAgeNanos = TimeUnit.MILLISECONDS.toNanos(snapshotMillis);
        for (int symbol = 0; symbol < symbols; symbol++) {
            books.set(symbol, BookState.of(BookSnapshot.empty(symbol)));
            trades.set(symbol, TradeHistory.empty(tradesHistory));
            tickers.set(symbol, Ticker.empty(symbol));
        }
    }

    /** @return how many symbols there are */
    public int symbols() {
        return books.length();
    }

    /** @return the book as of the consumer's last batch; for stream snapshots, which must be exact */
    public BookSnapshot currentBook(final int symbol) {
        final long now = System.nanoTime();
        final BookState state = books.get(symbol);
        final Merged cached = merged.get(symbol);
        if (cached != null && cached.snapshot().sequence() == state.sequence()) {
            return cached.snapshot();
        }
        return remember(symbol, state.merge(), now);
    }

    /** @return the book, at most {@code snapshotMillis} older than the consumer's; for REST */
    public BookSnapshot recentBook(final int symbol) {
        final long now = System.nanoTime();
        final Merged cached = merged.get(symbol);
        if (cached != null && now - cached.readAtNanos() < maxAgeNanos) {
            return cached.snapshot();
        }
        return currentBook(symbol);
    }

    /** @return the recent trades and the trades channel's sequence */
    public TradeHistory trades(final int symbol) {
        return trades.get(symbol);
    }

    /** @return the latest ticker */
    public Ticker ticker(final int symbol) {
        return tickers.get(symbol);
    }

    /** @return the engine event sequence of the last event the consumer has applied and published */
    public long lastEventSequence() {
        return lastEventSequence;
    }

    void publish(final int symbol, final BookState book, final TradeHistory history, final Ticker ticker) {
        books.set(symbol, book);
        trades.set(symbol, history);
        tickers.set(symbol, ticker);
    }

    void lastEventSequence(final long sequence) {
        lastEventSequence = sequence;
    }

    /** Keeps the newer of two racing merges, so the cache never goes back in sequence. */
    private BookSnapshot remember(final int symbol, final BookSnapshot snapshot, final long readAtNanos) {
        final Merged fresh = new Merged(snapshot, readAtNanos);
        merged.accumulateAndGet(symbol, fresh, (old, candidate) -> old == null
                || candidate.snapshot().sequence() > old.snapshot().sequence()
                || candidate.snapshot().sequence() == old.snapshot().sequence()
                && candidate.readAtNanos() > old.readAtNanos() ? candidate : old);
        return snapshot;
    }
}
