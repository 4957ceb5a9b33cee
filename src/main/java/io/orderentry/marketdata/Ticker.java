package io.orderentry.marketdata;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * The top of one symbol's market, sent whole on every change. Immutable. {@link #writeSnapshot} and
 * {@link #readSnapshot} carry it, sequence included, across a restart.
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

    /**
     * Writes everything but the symbol: {@code long} sequence, best bid, its quantity, best ask, its quantity,
     * {@code byte} 1 and the last trade ({@link Trade#writeSnapshot}) or 0 before the first, {@code long} volume.
     */
    void writeSnapshot(final DataOutput out) throws IOException {
        out.writeLong(sequence);
        out.writeLong(bestBid);
        out.writeLong(bestBidQuantity);
        out.writeLong(bestAsk);
        out.writeLong(bestAskQuantity);
        out.writeByte(lastTrade == null ? 0 : 1);
        if (lastTrade != null) {
            lastTrade.writeSnapshot(out);
        }
        out.writeLong(volume24h);
    }

    /**
     * Reads a ticker written by {@link #writeSnapshot}.
     *
     * @param newestTrade the restored history's newest trade, or null; used as the last trade if equal, so the
     *                    two share one object as they do when the consumer builds them
     * @throws IOException if the input ends early or is malformed
     */
    static Ticker readSnapshot(final DataInput in, final int symbol, final Trade newestTrade) throws IOException {
        final long sequence = in.readLong();
        final long bestBid = in.readLong();
        final long bestBidQuantity = in.readLong();
        final long bestAsk = in.readLong();
        final long bestAskQuantity = in.readLong();
        final int hasLastTrade = in.readByte();
        if (hasLastTrade != 0 && hasLastTrade != 1) {
            throw new IOException("ticker last trade flag " + hasLastTrade + " is neither 0 nor 1");
        }
        final Trade read = hasLastTrade == 1 ? Trade.readSnapshot(in) : null;
        final long volume24h = in.readLong();
        if (sequence < 0 || bestBid < 0 || bestBidQuantity < 0 || bestAsk < 0 || bestAskQuantity < 0 || volume24h < 0) {
            throw new IOException("malformed ticker: sequence " + sequence + ", bid " + bestBidQuantity + " at "
                    + bestBid + ", ask " + bestAskQuantity + " at " + bestAsk + ", volume " + volume24h);
        }
        final Trade lastTrade = read != null && read.equals(newestTrade) ? newestTrade : read;
        return new Ticker(symbol, sequence, bestBid, bestBidQuantity, bestAsk, bestAskQuantity, lastTrade, volume24h);
    }

    /** @return true when the best levels or the last trade differ from the other ticker's */
    boolean differsFrom(final Ticker other) {
        return bestBid != other.bestBid || bestBidQuantity != other.bestBidQuantity || bestAsk != other.bestAsk
                || bestAskQuantity != other.bestAskQuantity || lastTrade != other.lastTrade
                || volume24h != other.volume24h;
    }
}
