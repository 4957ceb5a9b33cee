package io.orderentry.marketdata;

import java.util.List;

/**
 * The trades of one symbol in one batch of engine events, in execution order. Immutable. Batches
 * since the last history snapshot are chained through {@link #previous()}; see {@link TradeHistory}.
 */
public final class TradeBatch implements StreamUpdate {

    private final int symbol;
    private final long sequence;
    private final List<Trade> trades;
    private final TradeBatch previous;

    TradeBatch(final int symbol, final long sequence, final List<Trade> trades, final TradeBatch previous) {
        this.symbol = symbol;
        this.sequence = sequence;
        this.trades = List.copyOf(trades);
        this.previous = previous;
    }

    @Override
    public int symbol() {
        return symbol;
    }

    @Override
    public Channel channel() {
        return Channel.TRADES;
    }

    @Override
    public long sequence() {
        return sequence;
    }

    /** @return the trades, oldest first */
    public List<Trade> trades() {
        return trades;
    }

    TradeBatch previous() {
        return previous;
    }
}
