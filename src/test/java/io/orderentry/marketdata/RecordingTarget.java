package io.orderentry.marketdata;

import java.util.Collection;
import java.util.List;

/** A stream target that keeps every update it is handed, synchronously, for tests that follow a stage's stream. */
final class RecordingTarget implements StreamTarget {

    private final Collection<StreamUpdate> updates;

    private RecordingTarget(final Collection<StreamUpdate> updates) {
        this.updates = updates;
    }

    /** Registers a recorder of {@code stage}'s updates into {@code updates} and subscribes every channel of every symbol. */
    static void attach(final MarketDataStage stage, final int symbols, final Collection<StreamUpdate> updates) {
        stage.register(new RecordingTarget(updates));
        for (int symbol = 0; symbol < symbols; symbol++) {
            for (final Channel channel : Channel.values()) {
                stage.subscribers().increment(0, symbol, channel);
            }
        }
    }

    @Override
    public void deliver(final List<StreamUpdate> batch, final long batchStartNanos) {
        updates.addAll(batch);
    }

    @Override
    public void awaitDelivered(final long maxNanos) {
        // recorded synchronously in deliver
    }
}
