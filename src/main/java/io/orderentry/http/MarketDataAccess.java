package io.orderentry.http;

import io.orderentry.app.Instrument;
import io.orderentry.marketdata.MarketDataConfig;
import io.orderentry.marketdata.MarketDataStage;
import java.util.List;

/**
 * What the HTTP edge needs for market data: the consumer (its view, subscriber counts and target
 * registration), the settings and the stream's counters. Shared by every verticle instance.
 *
 * @param instruments indexed by {@link Instrument#index()}
 */
public record MarketDataAccess(List<Instrument> instruments, MarketDataStage stage, MarketDataConfig config,
                               StreamMetrics metrics) {

    public MarketDataAccess {
        instruments = List.copyOf(instruments);
    }
}
