package io.orderentry.marketdata;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The recent trades of one symbol, as the consumer publishes them after each batch: an array of the
 * newest trades at the last rebase plus the chain of batches since. Publishing a batch costs one
 * small object; once the chain holds as many trades as the history keeps, it is folded into a new
 * array, so the consumer copies about one trade per trade and memory stays within twice the history.
 *
 * <p>{@link #writeSnapshot}/{@link #readSnapshot} carry the sequence and the kept trades across a restart;
 * a restored history is all base, which holds the same trades as any base and chain would.
 *
 * <p>Immutable; read from any thread.
 */
public final class TradeHistory {

    private static final Trade[] NONE = new Trade[0];

    private final int capacity;
    private final Trade[] base;
    private final TradeBatch latest;
    private final int chained;
    private final long sequence;

    private TradeHistory(final int capacity, final Trade[] base, final TradeBatch latest, final int chained,
                         final long sequence) {
        this.capacity = capacity;
        this.base = base;
        this.latest = latest;
        this.chained = chained;
        this.sequence = sequence;
    }

    /** @return an empty history that will keep the newest {@code capacity} trades */
    public static TradeHistory empty(final int capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("capacity must be > 0");
        }
        return new TradeHistory(capacity, NONE, null, 0, 0);
    }

    /** @return the sequence of the last trades update included */
    public long sequence() {
        return sequence;
    }

    /** @return how many trades this history keeps at most */
    public int capacity() {
        return capacity;
    }

    /**
     * @param limit at most this many
     * @return the newest trades, newest first
     */
    public List<Trade> recent(final int limit) {
        final int wanted = Math.min(limit, capacity);
        final List<Trade> result = new ArrayList<>(Math.min(wanted, chained + base.length));
        for (TradeBatch batch = latest; batch != null && result.size() < wanted; batch = batch.previous()) {
            final List<Trade> trades = batch.trades();
            for (int i = trades.size() - 1; i >= 0 && result.size() < wanted; i--) {
                result.add(trades.get(i));
            }
        }
        for (int i = 0; i < base.length && result.size() < wanted; i++) {
            result.add(base[i]);
        }
        return result;
    }

    /**
     * Writes the trades channel's sequence and the kept trades: {@code long} sequence, {@code int} count, then
     * each trade ({@link Trade#writeSnapshot}) newest first. Allocates nothing.
     */
    void writeSnapshot(final DataOutput out) throws IOException {
        final int count = Math.min(capacity, chained + base.length);
        out.writeLong(sequence);
        out.writeInt(count);
        int written = 0;
        for (TradeBatch batch = latest; batch != null && written < count; batch = batch.previous()) {
            final List<Trade> trades = batch.trades();
            for (int i = trades.size() - 1; i >= 0 && written < count; i--) {
                trades.get(i).writeSnapshot(out);
                written++;
            }
        }
        for (int i = 0; written < count; i++) {
            base[i].writeSnapshot(out);
            written++;
        }
    }

    /**
     * Reads a history written by {@link #writeSnapshot}; if it holds more trades than {@code capacity}, the
     * newest {@code capacity} are kept. The next batch continues its sequence.
     *
     * @throws IOException if the input ends early or is malformed
     */
    static TradeHistory readSnapshot(final DataInput in, final int capacity) throws IOException {
        final long sequence = in.readLong();
        final int count = in.readInt();
        if (sequence < 0 || count < 0 || count > 0 && sequence == 0) {
            throw new IOException("trade history with sequence " + sequence + " and " + count + " trades");
        }
        final Trade[] kept = count == 0 ? NONE : new Trade[Math.min(count, capacity)];
        long newer = Long.MAX_VALUE;
        for (int i = 0; i < count; i++) {
            final Trade trade = Trade.readSnapshot(in);
            if (trade.tradeId() >= newer) {
                throw new IOException("trade " + trade.tradeId() + " listed after trade " + newer
                        + "; trades must be newest first");
            }
            newer = trade.tradeId();
            if (i < kept.length) {
                kept[i] = trade;
            }
        }
        return new TradeHistory(capacity, kept, null, 0, sequence);
    }

    /** @return the batch to chain the next one after, or null right after a rebase */
    TradeBatch latest() {
        return latest;
    }

    /** Called on the consumer thread only. @return this history with the batch added */
    TradeHistory next(final TradeBatch batch) {
        final TradeHistory chainedOn = new TradeHistory(capacity, base, batch, chained + batch.trades().size(),
                batch.sequence());
        if (chainedOn.chained < capacity) {
            return chainedOn;
        }
        return new TradeHistory(capacity, chainedOn.recent(capacity).toArray(NONE), null, 0, batch.sequence());
    }
}
