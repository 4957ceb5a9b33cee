package io.orderentry.marketdata;

/**
 * The top of one symbol's market, sent whole on every change. Immutable.
 *
 * @param bestBid          best bid price in ticks, 0 when there are no bids
 * @param bestBidQuantity  total quantity at the best bid in lots
 * @param bestAsk          best ask price in ticks, 0 when there are no asks
 * @param bestAskQuantity  total quantity at the best ask in lots
 * @param lastTrade        the latest trade, or null before the first
 * @param volume24h        lots traded in the 24 hours up to the symbol's latest trade, by minute
 */
public record Ticker(int symbol, long sequence, long bestBid, long bestBidQuantity, long bestAsk,
                     long bestAskQuantity, Trade lastTrade, long volume24h) implements StreamUpdate {

    /** @return the ticker of a symbol that never traded or rested anything */
    public static Ticker empty(final int symbol) {
        return new Ticker(symbol, 0, 0, 0, 0, 0, null, 0);
    }

    @Override
    public Channel channel() {
        return Channel.TICKER;
    }

    /** @return true when the best levels or the last trade differ from the other ticker's */
    boolean differsFrom(final Ticker other) {
        return bestBid != other.bestBid || bestBidQuantity != other.bestBidQuantity || bestAsk != other.bestAsk
                || bestAskQuantity != other.bestAskQuantity || lastTrade != other.lastTrade
                || volume24h != other.volume24h;
    }
}
