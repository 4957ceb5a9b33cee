package io.orderentry.http.stream;

import io.orderentry.instrument.Instrument;
import io.orderentry.marketdata.MarketDataConfig;
import io.orderentry.marketdata.MarketDataStage;
import java.util.List;

/**
 * What the HTTP edge needs for market data: the consumer (its view and subscriber counts), the stream's
 * fan-out (registered with the consumer), the settings and the stream's counters. Shared by every verticle
 * instance.
 *
 * @param instruments indexed by {@link Instrument#index()}
 */
public record MarketDataAccess(List<Instrument> instruments, MarketDataStage stage, StreamFanOut fanOut,
                               MarketDataConfig config, StreamMetrics metrics) {

    public MarketDataAccess {
        instruments = List.copyOf(instruments);
    }
}
